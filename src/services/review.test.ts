import { createHistory, history } from '@umijs/max';
import { TextDecoder as NodeTextDecoder } from 'node:util';
import { subscribeReview } from '@/services/review';
import { message } from '@/utils/feedback';
import { SESSION_MESSAGES } from '@/utils/session';

/** The 审核台's live stream, as the menu badge and the queue use it (fetch, read as text). */
describe('the review stream', () => {
  const realFetch = globalThis.fetch;
  afterEach(() => {
    globalThis.fetch = realFetch;
    jest.restoreAllMocks();
  });

  it('refused because the session ended elsewhere: the session ends, saying why, and the stream stops asking', async () => {
    globalThis.TextDecoder ??= NodeTextDecoder as unknown as typeof TextDecoder;
    createHistory({ type: 'memory', initialEntries: ['/review'] });
    localStorage.setItem('adminToken', 'ended-token');
    const warning = jest.spyOn(message, 'warning').mockImplementation(() => undefined as never);
    const refusal = { success: false, code: 401, msg: '登录过期，请重新登录', errorCode: 'SESSION_ENDED', data: null };
    const fetchStream = jest.fn(async () => ({ status: 401, ok: false, body: null, json: async () => refusal }));
    globalThis.fetch = fetchStream as unknown as typeof fetch;

    const stop = subscribeReview(() => undefined);
    const deadline = Date.now() + 2_000;
    while (!warning.mock.calls.length && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));

    expect(warning).toHaveBeenCalledWith({ content: SESSION_MESSAGES.ended, key: 'session-expired' });
    expect(localStorage.getItem('adminToken')).toBeNull();
    expect(history.location.pathname).toBe('/login');
    // No retry after the refusal (a refused stream used to be asked again every 2 s).
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(fetchStream).toHaveBeenCalledTimes(1);
    stop();
  });
});
