import { request } from '@umijs/max';
import type { RequestOptions } from '@umijs/max';
import type { Envelope } from '../../contract/envelope';

/**
 * Calls the API and answers the envelope's `data`. A refusal never resolves: axios rejects
 * 4xx/5xx and the error thrower rejects a 2xx with `success: false`, so what resolves is a success.
 */
export async function api<T>(url: string, options: RequestOptions = { method: 'GET' }): Promise<T> {
  const envelope = await request<Envelope<T>>(url, options);
  return envelope.data;
}
