import { createPluginManager, getPluginManager } from '@@/core/plugin';
import type { AxiosRequestConfig, AxiosResponse } from '@umijs/max';
import { getRequestInstance } from '@umijs/max';

/*
 * Replaces only the transport under Umi's request: the app's own request config (bearer
 * interceptor, error thrower, error handler) runs as in the browser. Failures look like axios's
 * own: a non-2xx answer rejects with `response`, and time-outs, aborts and network errors carry
 * axios's codes and texts.
 */

export interface FakeRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

export type FakeReply =
  | { status: number; body?: unknown; headers?: Record<string, string> }
  | { fail: 'timeout' | 'abort' | 'network' | 'cancel' };

export type FakeServer = (request: FakeRequest) => FakeReply | Promise<FakeReply>;

export const envelope = <T>(data: T) => ({ success: true, code: 0, msg: '', data });

/** The server's error envelope; `errorCode` where the server gives one (the client branches on it). */
export const refusal = (status: number, msg: string, errorCode?: string): FakeReply => ({
  status,
  body: { success: false, code: status, msg, data: null, ...(errorCode && { errorCode }) },
});

function transportError(kind: 'timeout' | 'abort' | 'network' | 'cancel', config: AxiosRequestConfig) {
  const [message, code] = {
    timeout: [`timeout of ${config.timeout}ms exceeded`, 'ECONNABORTED'],
    abort: ['Request aborted', 'ECONNABORTED'],
    network: ['Network Error', 'ERR_NETWORK'],
    cancel: ['canceled', 'ERR_CANCELED'],
  }[kind];
  return Object.assign(new Error(message), { isAxiosError: true, code, config });
}

function parseBody(data: unknown): unknown {
  if (typeof data !== 'string') return data;
  try {
    return JSON.parse(data);
  } catch {
    return data;
  }
}

/** Every request the app sent, in order. */
export function installFakeNetwork(server: FakeServer): FakeRequest[] {
  // Umi builds its axios instance from the plugin manager's runtime config on first use.
  if (!getPluginManager()) createPluginManager();
  const sent: FakeRequest[] = [];
  getRequestInstance().defaults.adapter = async (config) => {
    const request: FakeRequest = {
      method: (config.method ?? 'get').toUpperCase(),
      url: config.url ?? '',
      headers: Object.fromEntries(Object.entries(config.headers ?? {}).map(([key, value]) => [key, String(value)])),
      body: parseBody(config.data),
    };
    sent.push(request);
    const reply = await server(request);
    if ('fail' in reply) throw transportError(reply.fail, config);
    const response: AxiosResponse = {
      data: reply.body,
      status: reply.status,
      statusText: String(reply.status),
      headers: reply.headers ?? {},
      config,
    };
    if (reply.status >= 200 && reply.status < 300) return response;
    throw Object.assign(new Error(`Request failed with status code ${reply.status}`), {
      isAxiosError: true,
      code: reply.status < 500 ? 'ERR_BAD_REQUEST' : 'ERR_BAD_RESPONSE',
      config,
      response,
    });
  };
  return sent;
}
