/* 通知 (webhooks, super admins): the hooks, their delivery log and 发送测试. Changes ask for a fresh proof (the request layer's ReauthDialog). */
import type { CreateWebhookBody, Webhook, WebhookCreated, WebhookDelivery, WebhookDeliveryQuery, WebhookPatch } from '#contract/webhook';
import { api } from './api';
import { fetchTable, type TableParams, type TableResult } from './table';

const BASE = '/api/settings/webhooks';
const hookPath = (id: string) => `${BASE}/${encodeURIComponent(id)}`;

export const listWebhooks = () => api<Webhook[]>(BASE);
export const createWebhook = (body: CreateWebhookBody) => api<WebhookCreated>(BASE, { method: 'POST', data: body });
export const updateWebhook = (id: string, patch: WebhookPatch) => api<Webhook>(hookPath(id), { method: 'PATCH', data: patch });
export async function deleteWebhook(id: string): Promise<void> {
  await api<null>(hookPath(id), { method: 'DELETE' });
}
export const rotateWebhookSecret = (id: string) => api<{ secret: string }>(`${hookPath(id)}/secret`, { method: 'POST', data: {} });
export const testWebhook = (id: string) => api<WebhookDelivery>(`${hookPath(id)}/test`, { method: 'POST', data: {} });
export function listDeliveries(id: string, params: TableParams<WebhookDeliveryQuery>): Promise<TableResult<WebhookDelivery>> {
  return fetchTable<WebhookDelivery>(`${hookPath(id)}/deliveries`, params as TableParams<Record<string, unknown>>);
}
