/*
 * How a failed call is reported, from the wire to the screen (one convention for every part):
 *
 * - Services (this folder) reject. `api` resolves only with a success: axios rejects a 4xx/5xx,
 *   the error thrower rejects a 2xx whose envelope says `success: false`, and the request error
 *   handler (requestErrorConfig.ts) has already shown the server's msg once, or ended the session
 *   on a 401. A call made with `skipErrorHandler` shows nothing: its caller shows its own text.
 * - dva effects (src/models) let that rejection through: they never catch, so that the store is
 *   changed only after a success and the dispatch's promise rejects with the same error. The
 *   runtime's dva `onError` (app.tsx) neither shows a message nor rethrows.
 * - The caller decides. A page catches only to keep a form open or a switch where it was; it
 *   never shows a second message for the same failure. A caller with nothing to do on failure
 *   (a list load that leaves the table as it was) ends the chain with `.catch(alreadyShown)`, so
 *   that nothing is swallowed without saying why.
 */
import { request } from '@umijs/max';
import type { RequestOptions } from '@umijs/max';
import type { Envelope } from '#contract/envelope';

/** Calls the API and answers the envelope's `data`; what resolves is a success (see above). */
export async function api<T>(url: string, options: RequestOptions = { method: 'GET' }): Promise<T> {
  const envelope = await request<Envelope<T>>(url, options);
  return envelope.data;
}

/**
 * Ends a promise chain whose failure the request layer has already shown and that leaves nothing
 * else to do.
 */
export function alreadyShown(_error: unknown): void {}
