import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { webhookDeliveries, webhooks } from '../../db/schema';

/** What a webhook can be told: an item now waits in the queue; a rule fired (a refusal included). */
export const WEBHOOK_EVENTS = ['item.waiting', 'rule.fired'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/**
 * Queues one delivery of `event` for every enabled webhook that takes it, in the caller's
 * transaction (one INSERT … SELECT, whatever the number of hooks): the delivery job sends it.
 * An event nothing listens to costs one indexless read of the few webhook rows.
 */
export async function enqueueEvent(tx: Db, event: WebhookEvent, data: Record<string, unknown>, now: number): Promise<void> {
  const payload = JSON.stringify({ event, occurredAt: now, data });
  await tx.execute(sql`insert into ${webhookDeliveries} (webhook_id, event, payload, state, attempts, next_attempt_at, created_at)
    select ${webhooks.id}, ${event}, ${payload}::jsonb, 'pending', 0, ${now}, ${now} from ${webhooks}
    where ${webhooks.enabled} and ${webhooks.events} @> jsonb_build_array(${event}::text)`);
}
