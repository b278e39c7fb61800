import { randomBytes } from 'node:crypto';
import { pageOf } from '../../lib/paging';
import { and, count, desc, eq, inArray, lte, or, sql } from 'drizzle-orm';
import { AUDIT_ACTIONS } from '#contract/audit';
import type { Page } from '#contract/paging';
import {
  WEBHOOK_BACKOFF_BASE_MS,
  WEBHOOK_BACKOFF_CAP_MS,
  WEBHOOK_KINDS,
  WEBHOOK_MAX_ATTEMPTS,
  WEBHOOK_MESSAGES,
  WEBHOOK_TEST_EVENT,
  WEBHOOK_TIMEOUT_MS,
  WEBHOOKS_MAX,
  type CreateWebhookBody,
  type Webhook,
  type WebhookCreated,
  type WebhookDelivery,
  type WebhookDeliveryQuery,
  type WebhookEventName,
  type WebhookKind,
  type WebhookPatch,
  type WebhookState,
} from '#contract/webhook';
import type { Db } from '../../db/client';
import { webhookDeliveries, webhooks } from '../../db/schema';
import { badRequest, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { Job } from '../../lib/jobs';
import type { Actor, Audit } from '../audit/audit';
import { buildRequest, checkUrlForm, hostAllowed, maskUrl, send, type SendResult, type WebhookEventPayload } from './webhook.sender';

const DAY_MS = 86_400_000;
/** How many due deliveries one claim takes (sent together). */
const CLAIM_BATCH = 10;
/** A claimed delivery is not due again for this long: a process that dies mid-send leaves it to be retried after. */
const LEASE_MS = WEBHOOK_TIMEOUT_MS + 30_000;
export const WEBHOOK_JOB_INTERVAL_MS = 5_000;

/** The wait after failed attempt `attempt` (1-based): 30 s doubling, at most an hour. */
export function backoffMs(attempt: number): number {
  return Math.min(WEBHOOK_BACKOFF_BASE_MS * 2 ** Math.max(0, attempt - 1), WEBHOOK_BACKOFF_CAP_MS);
}

type Row = typeof webhooks.$inferSelect;
type DeliveryRow = typeof webhookDeliveries.$inferSelect;

function toDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    _id: row.id,
    event: row.event as WebhookDelivery['event'],
    state: row.state as WebhookState,
    attempts: row.attempts,
    nextAttemptAt: row.nextAttemptAt,
    lastStatus: row.lastStatus,
    lastError: row.lastError,
    lastDurationMs: row.lastDurationMs,
    createdAt: row.createdAt,
    deliveredAt: row.deliveredAt,
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;

export function createWebhookService(deps: {
  db: Db;
  audit: Audit;
  /** Seals and opens the secrets at rest (auth/keys.ts). */
  keys: () => Promise<{ seal(plain: string): string; open(sealed: string): string | null }>;
  allowPrivate: boolean;
  retentionDays: number;
  timeoutMs?: number;
  now?: () => number;
}) {
  const { db, audit } = deps;
  const now = deps.now ?? Date.now;
  const timeoutMs = deps.timeoutMs ?? WEBHOOK_TIMEOUT_MS;

  async function checkUrl(text: string): Promise<string> {
    const url = checkUrlForm(text);
    if (typeof url === 'string') throw badRequest(url);
    if (!(await hostAllowed(url, deps.allowPrivate))) throw badRequest(WEBHOOK_MESSAGES.privateUrl);
    return url.toString();
  }

  async function toWebhooks(rows: Row[]): Promise<Webhook[]> {
    const ids = rows.map((row) => row.id);
    const last = ids.length
      ? await db
          .selectDistinctOn([webhookDeliveries.webhookId], {
            webhookId: webhookDeliveries.webhookId,
            state: webhookDeliveries.state,
            createdAt: webhookDeliveries.createdAt,
            deliveredAt: webhookDeliveries.deliveredAt,
            status: webhookDeliveries.lastStatus,
          })
          .from(webhookDeliveries)
          .where(inArray(webhookDeliveries.webhookId, ids))
          .orderBy(webhookDeliveries.webhookId, desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
      : [];
    const byHook = new Map(last.map((row) => [row.webhookId, row]));
    return rows.map((row) => {
      const delivery = byHook.get(row.id);
      return {
        _id: row.id,
        name: row.name,
        kind: row.kind as WebhookKind,
        url: maskUrl(row.url),
        hasSecret: row.secret !== null,
        events: row.events as WebhookEventName[],
        enabled: row.enabled,
        createdAt: row.createdAt,
        lastDelivery: delivery
          ? { state: delivery.state as WebhookState, at: delivery.deliveredAt ?? delivery.createdAt, status: delivery.status }
          : null,
      };
    });
  }

  async function find(id: string): Promise<Row> {
    const [row] = await db.select().from(webhooks).where(eq(webhooks.id, id));
    if (!row) throw notFound(WEBHOOK_MESSAGES.notFound);
    return row;
  }

  const title = (row: { name: string; kind: string }) => `通知：${row.name}（${WEBHOOK_KINDS[row.kind as WebhookKind] ?? row.kind}）`;

  /** Records the outcome of attempt `attempts` of a claimed delivery; a claim that lost its lease (re-claimed elsewhere) writes nothing. */
  async function record(delivery: { id: number; attempts: number }, result: SendResult): Promise<void> {
    const at = now();
    const done = result.ok;
    const failed = !done && delivery.attempts >= WEBHOOK_MAX_ATTEMPTS;
    await db
      .update(webhookDeliveries)
      .set({
        state: done ? 'delivered' : failed ? 'failed' : 'pending',
        deliveredAt: done ? at : null,
        nextAttemptAt: done || failed ? at : at + backoffMs(delivery.attempts),
        lastStatus: result.status,
        lastError: result.error,
        lastDurationMs: result.durationMs,
      })
      .where(
        and(
          eq(webhookDeliveries.id, delivery.id),
          eq(webhookDeliveries.state, 'pending'),
          eq(webhookDeliveries.attempts, delivery.attempts),
        ),
      );
  }

  /**
   * Claims up to `limit` due deliveries: their attempt counted and their next try pushed a lease
   * away, in one statement whose row locks skip what another process is claiming (`for update skip
   * locked`), so that two processes never take the same delivery.
   */
  async function claim(limit: number, ids?: number[]) {
    const at = now();
    const due = db
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
      .where(
        and(
          eq(webhookDeliveries.state, 'pending'),
          lte(webhookDeliveries.nextAttemptAt, at),
          or(eq(webhooks.enabled, true), eq(webhookDeliveries.event, WEBHOOK_TEST_EVENT)),
          ids ? inArray(webhookDeliveries.id, ids) : undefined,
        ),
      )
      .orderBy(webhookDeliveries.nextAttemptAt, webhookDeliveries.id)
      .limit(limit)
      .for('update', { skipLocked: true, of: webhookDeliveries });
    return db
      .update(webhookDeliveries)
      .set({ attempts: sql`${webhookDeliveries.attempts} + 1`, nextAttemptAt: at + LEASE_MS })
      .where(inArray(webhookDeliveries.id, due))
      .returning();
  }

  async function deliver(claimed: DeliveryRow[], signal?: AbortSignal): Promise<void> {
    if (!claimed.length) return;
    const hookIds = [...new Set(claimed.map((row) => row.webhookId))];
    const hooks = new Map((await db.select().from(webhooks).where(inArray(webhooks.id, hookIds))).map((row) => [row.id, row]));
    const keyring = await deps.keys();
    await Promise.all(
      claimed.map(async (row) => {
        const hook = hooks.get(row.webhookId);
        if (!hook) return;
        const secret = hook.secret === null ? null : keyring.open(hook.secret);
        if (hook.secret !== null && secret === null) {
          // Sealed with another JWT secret: no signature could be right.
          await record(row, { ok: false, status: null, error: '签名密钥无法解开（JWT_SECRET 已更换？），请重新设置密钥', durationMs: 0 });
          return;
        }
        const request = buildRequest(
          { kind: hook.kind as WebhookKind, url: hook.url, secret },
          { id: row.id, payload: row.payload as WebhookEventPayload },
          now(),
        );
        const result = await send(hook.kind as WebhookKind, request, { timeoutMs, allowPrivate: deps.allowPrivate, signal });
        await record(row, result);
      }),
    );
  }

  const service = {
    async list(): Promise<Webhook[]> {
      return toWebhooks(await db.select().from(webhooks).orderBy(webhooks.createdAt, webhooks.id));
    },

    async create(actor: Actor, body: CreateWebhookBody): Promise<WebhookCreated> {
      const url = await checkUrl(body.url);
      if (body.kind === 'wecom' && body.secret) throw badRequest(WEBHOOK_MESSAGES.noSecret);
      // 通用 JSON's secret is made here and shown once; a robot's 加签 secret is the one its group gave.
      const secret = body.kind === 'json' ? randomBytes(32).toString('base64url') : (body.secret ?? null);
      const at = now();
      const keyring = await deps.keys();
      const row = await db.transaction(async (tx) => {
        const [{ total }] = await tx.select({ total: count() }).from(webhooks);
        if (Number(total) >= WEBHOOKS_MAX) throw badRequest(WEBHOOK_MESSAGES.tooMany);
        const [inserted] = await tx
          .insert(webhooks)
          .values({
            id: newId(at),
            name: body.name.trim() || body.name,
            kind: body.kind,
            url,
            secret: secret === null ? null : keyring.seal(secret),
            events: body.events,
            enabled: body.enabled ?? true,
            createdAt: at,
          })
          .returning();
        await audit.record(tx, actor, { action: AUDIT_ACTIONS.create, entity: 'webhook', entityId: inserted.id, title: title(inserted) });
        return inserted;
      });
      const [webhook] = await toWebhooks([row]);
      return { webhook, secret: body.kind === 'json' ? secret : null };
    },

    async update(actor: Actor, id: string, patch: WebhookPatch): Promise<Webhook> {
      const url = patch.url === undefined ? undefined : await checkUrl(patch.url);
      const keyring = await deps.keys();
      const row = await db.transaction(async (tx) => {
        const [before] = await tx.select().from(webhooks).where(eq(webhooks.id, id)).for('update');
        if (!before) throw notFound(WEBHOOK_MESSAGES.notFound);
        if (patch.secret !== undefined && (before.kind === 'wecom' || before.kind === 'json')) {
          // 企业微信 signs nothing; 通用 JSON's secret is only ever made by the server (换密钥).
          throw badRequest(before.kind === 'wecom' ? WEBHOOK_MESSAGES.noSecret : '通用 JSON 的密钥由系统生成，请使用“更换密钥”');
        }
        const next = {
          name: patch.name ?? before.name,
          url: url ?? before.url,
          events: patch.events ?? before.events,
          enabled: patch.enabled ?? before.enabled,
          secret: patch.secret === undefined ? before.secret : patch.secret === null ? null : keyring.seal(patch.secret),
        };
        const [updated] = await tx.update(webhooks).set(next).where(eq(webhooks.id, id)).returning();
        const changes = [
          ...(before.name !== next.name ? [{ field: 'name', before: before.name, after: next.name }] : []),
          ...(before.url !== next.url ? [{ field: 'url', before: maskUrl(before.url), after: maskUrl(next.url) }] : []),
          ...(JSON.stringify(before.events) !== JSON.stringify(next.events)
            ? [{ field: 'events', before: before.events, after: next.events }]
            : []),
          ...(before.enabled !== next.enabled ? [{ field: 'enabled', before: before.enabled, after: next.enabled }] : []),
          // Never the secret itself: whether there is one.
          ...(patch.secret !== undefined ? [{ field: 'secret', before: before.secret !== null, after: next.secret !== null }] : []),
        ];
        await audit.record(tx, actor, { action: AUDIT_ACTIONS.update, entity: 'webhook', entityId: id, title: title(updated), changes });
        return updated;
      });
      const [webhook] = await toWebhooks([row]);
      return webhook;
    },

    /** 通用 JSON: a new secret, answered once; the old one stops signing at once. */
    async rotateSecret(actor: Actor, id: string): Promise<{ secret: string }> {
      const secret = randomBytes(32).toString('base64url');
      const keyring = await deps.keys();
      await db.transaction(async (tx) => {
        const [before] = await tx.select().from(webhooks).where(eq(webhooks.id, id)).for('update');
        if (!before) throw notFound(WEBHOOK_MESSAGES.notFound);
        if (before.kind !== 'json') throw badRequest('只有通用 JSON 的密钥由系统生成');
        await tx
          .update(webhooks)
          .set({ secret: keyring.seal(secret) })
          .where(eq(webhooks.id, id));
        await audit.record(tx, actor, {
          action: AUDIT_ACTIONS.update,
          entity: 'webhook',
          entityId: id,
          title: title(before),
          changes: [{ field: 'secret', before: true, after: true }],
        });
      });
      return { secret };
    },

    async remove(actor: Actor, id: string): Promise<void> {
      await db.transaction(async (tx) => {
        const [removed] = await tx.delete(webhooks).where(eq(webhooks.id, id)).returning();
        if (!removed) throw notFound(WEBHOOK_MESSAGES.notFound);
        await audit.record(tx, actor, { action: AUDIT_ACTIONS.delete, entity: 'webhook', entityId: id, title: title(removed) });
      });
    },

    async deliveries(id: string, query: WebhookDeliveryQuery): Promise<Page<WebhookDelivery>> {
      await find(id);
      const current = query.current ?? 1;
      const pageSize = query.pageSize ?? 10;
      const where = and(eq(webhookDeliveries.webhookId, id), query.state ? eq(webhookDeliveries.state, query.state) : undefined);
      const [[{ total }], rows] = await Promise.all([
        db.select({ total: count() }).from(webhookDeliveries).where(where),
        db
          .select()
          .from(webhookDeliveries)
          .where(where)
          .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
          .limit(pageSize)
          .offset((current - 1) * pageSize),
      ]);
      return pageOf(rows.map(toDelivery), total, { current, pageSize });
    },

    /** 发送测试: one test delivery, sent now (its retries, if it fails, are the job's like any other's). */
    async sendTest(id: string): Promise<WebhookDelivery> {
      const hook = await find(id);
      const at = now();
      const [queued] = await db
        .insert(webhookDeliveries)
        .values({
          webhookId: hook.id,
          event: WEBHOOK_TEST_EVENT,
          payload: { event: WEBHOOK_TEST_EVENT, occurredAt: at, data: {} },
          state: 'pending',
          attempts: 0,
          nextAttemptAt: at,
          createdAt: at,
        })
        .returning();
      await deliver(await claim(1, [queued.id]));
      const [row] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, queued.id));
      return toDelivery(row);
    },

    /** One run of the job: claims and sends due deliveries batch by batch until none is due; answers how many were sent. */
    async deliverDue(signal?: AbortSignal): Promise<number> {
      let sent = 0;
      while (!signal?.aborted) {
        const claimed = await claim(CLAIM_BATCH);
        if (!claimed.length) break;
        await deliver(claimed, signal);
        sent += claimed.length;
      }
      return sent;
    },

    /** Removes deliveries older than WEBHOOK_RETENTION_DAYS (whatever their state), 1000 at a time. */
    async purgeOld(): Promise<number> {
      const before = now() - deps.retentionDays * DAY_MS;
      let removed = 0;
      for (;;) {
        const old = db
          .select({ id: webhookDeliveries.id })
          .from(webhookDeliveries)
          .where(lte(webhookDeliveries.createdAt, before))
          .limit(1000);
        const rows = await db.delete(webhookDeliveries).where(inArray(webhookDeliveries.id, old)).returning({ id: webhookDeliveries.id });
        removed += rows.length;
        if (rows.length < 1000) return removed;
      }
    },
  };
  return service;
}

/** The delivery job: every few seconds the due deliveries, then the old log rows. */
export function webhookDeliveryJob(service: Pick<WebhookService, 'deliverDue' | 'purgeOld'>, intervalMs = WEBHOOK_JOB_INTERVAL_MS): Job {
  return {
    name: 'webhook delivery',
    intervalMs,
    runAtStart: true,
    run: async (signal) => {
      await service.deliverDue(signal);
      await service.purgeOld();
    },
  };
}
