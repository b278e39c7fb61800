import { createHistory, history, request } from '@umijs/max';
import { ApiError, describeRequestError, errorStatus, errorThrower, TRANSPORT_MESSAGES } from '@/requestErrorConfig';
import { envelope, installFakeNetwork, refusal, type FakeServer } from '@/testing/fakeNetwork';
import { message } from '@/utils/feedback';

const httpError = (status: number, body?: unknown) =>
  Object.assign(new Error(`Request failed with status code ${status}`), {
    isAxiosError: true,
    code: status < 500 ? 'ERR_BAD_REQUEST' : 'ERR_BAD_RESPONSE',
    response: { status, data: body },
  });

const transportError = (code: string, text: string) => Object.assign(new Error(text), { isAxiosError: true, code });

const failure = (status: number, msg: string) => ({ success: false, code: status, msg, data: null });

describe('describeRequestError', () => {
  it("shows the server's msg for a 4xx envelope", () => {
    expect(describeRequestError(httpError(409, failure(409, '该类型已存在')))).toBe('该类型已存在');
  });

  it("shows the server's msg for a 5xx envelope, never axios's status text", () => {
    const text = describeRequestError(httpError(500, failure(500, '服务器内部错误，请稍后重试')));
    expect(text).toBe('服务器内部错误，请稍后重试');
    expect(text).not.toMatch(/Request failed/);
  });

  it('shows a Chinese text for a 5xx that carries no envelope', () => {
    const text = describeRequestError(httpError(502, '<html>Bad Gateway</html>'));
    expect(text).toBe('服务器暂时无法处理请求，请稍后重试');
  });

  it('shows the msg of a 2xx envelope whose success is false', () => {
    const thrown = (() => {
      try {
        errorThrower(failure(400, '验证码错误'));
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(thrown).toBeInstanceOf(ApiError);
    expect(describeRequestError(thrown)).toBe('验证码错误');
    expect(errorStatus(thrown)).toBe(400);
  });

  it('lets a successful envelope through the error thrower', () => {
    expect(() => errorThrower(envelope([]))).not.toThrow();
  });

  it('says the request timed out for a time-out, whichever code axios used', () => {
    expect(describeRequestError(transportError('ECONNABORTED', 'timeout of 3000ms exceeded'))).toBe('请求超时，请稍后重试');
    expect(describeRequestError(transportError('ETIMEDOUT', 'timeout of 3000ms exceeded'))).toBe('请求超时，请稍后重试');
  });

  it('says the request was cancelled for an abort or a cancellation', () => {
    expect(describeRequestError(transportError('ECONNABORTED', 'Request aborted'))).toBe('请求已取消');
    expect(describeRequestError(transportError('ERR_CANCELED', 'canceled'))).toBe('请求已取消');
  });

  it('says the network failed for a network error', () => {
    expect(describeRequestError(transportError('ERR_NETWORK', 'Network Error'))).toBe('网络异常，请检查网络连接');
    // A failed connection can come with a response of status 0 (no answer): not 「请求失败（0）」.
    const noAnswer = Object.assign(new Error('Network Error'), { response: { status: 0, data: '' } });
    expect(describeRequestError(noAnswer)).toBe('网络异常，请检查网络连接');
    expect(errorStatus(noAnswer)).toBeUndefined();
  });

  it('gives no status for an error that never reached the server', () => {
    expect(errorStatus(transportError('ERR_NETWORK', 'Network Error'))).toBeUndefined();
    expect(errorStatus(new Error('boom'))).toBeUndefined();
  });
});

describe('the app request', () => {
  let serve: FakeServer;
  let sent: ReturnType<typeof installFakeNetwork>;
  let errorToast: jest.SpyInstance;
  let warningToast: jest.SpyInstance;

  beforeAll(() => {
    createHistory({ type: 'memory' });
    sent = installFakeNetwork((req) => serve(req));
  });

  beforeEach(() => {
    sent.length = 0;
    localStorage.clear();
    history.push('/typeList');
    errorToast = jest.spyOn(message, 'error').mockImplementation(() => undefined as never);
    warningToast = jest.spyOn(message, 'warning').mockImplementation(() => undefined as never);
  });

  afterEach(() => jest.restoreAllMocks());

  it("shows the server's msg and rejects for a refused call", async () => {
    serve = () => refusal(409, '该分类下还有内容，无法删除');

    await expect(request('/api/type/1', { method: 'DELETE' })).rejects.toBeDefined();

    expect(errorToast).toHaveBeenCalledWith('该分类下还有内容，无法删除');
  });

  it("shows the server's msg for a 500 answer", async () => {
    serve = () => refusal(500, '服务器内部错误，请稍后重试');

    await expect(request('/api/type')).rejects.toBeDefined();

    expect(errorToast).toHaveBeenCalledWith('服务器内部错误，请稍后重试');
  });

  it('refuses a 2xx answer whose envelope says success is false', async () => {
    serve = () => ({ status: 200, body: failure(400, 'typeName 不能为空') });

    await expect(request('/api/type', { method: 'POST', data: {} })).rejects.toBeInstanceOf(ApiError);

    expect(errorToast).toHaveBeenCalledWith('typeName 不能为空');
  });

  it.each([
    ['timeout', TRANSPORT_MESSAGES.timeout],
    ['abort', TRANSPORT_MESSAGES.aborted],
    ['network', TRANSPORT_MESSAGES.network],
  ] as const)('shows a Chinese message for a %s', async (fail, text) => {
    serve = () => ({ fail });

    await expect(request('/api/type')).rejects.toBeDefined();

    expect(errorToast).toHaveBeenCalledWith(text);
  });

  it('leaves every message to the caller when skipErrorHandler is set', async () => {
    serve = () => refusal(403, '该账号已经被冻结，请联系管理员');

    const error = await request('/api/admin/login', { method: 'POST', skipErrorHandler: true }).catch((e: unknown) => e);

    expect(errorStatus(error)).toBe(403);
    expect(errorToast).not.toHaveBeenCalled();
  });

  it('resolves to the envelope of a successful answer', async () => {
    serve = () => ({ status: 200, body: envelope([{ _id: 'a', typeName: 'HTML' }]) });

    await expect(request('/api/type')).resolves.toEqual(envelope([{ _id: 'a', typeName: 'HTML' }]));
  });

  it('sends the stored token as a Bearer Authorization header', async () => {
    localStorage.setItem('adminToken', 'tok-123');
    serve = () => ({ status: 200, body: envelope(null) });

    await request('/api/type');

    expect(sent[0].headers.Authorization).toBe('Bearer tok-123');
  });

  it('sends no Authorization header when no token is stored', async () => {
    serve = () => ({ status: 200, body: envelope(null) });

    await request('/api/type');

    expect(sent[0].headers).not.toHaveProperty('Authorization');
  });

  it('ends the session on a 401: token removed, /login with the page to return to, warning', async () => {
    localStorage.setItem('adminToken', 'dead');
    serve = () => refusal(401, '登录过期，请重新登录');

    await expect(request('/api/type')).rejects.toBeDefined();

    expect(localStorage.getItem('adminToken')).toBeNull();
    expect(history.location.pathname).toBe('/login');
    expect(new URLSearchParams(history.location.search).get('redirect')).toBe('/typeList');
    expect(warningToast).toHaveBeenCalledWith(expect.objectContaining({ content: '登录过期，请重新登录' }));
    expect(errorToast).not.toHaveBeenCalled();
  });

  it('says so when the server ended the session (errorCode SESSION_ENDED), whatever the msg says', async () => {
    localStorage.setItem('adminToken', 'ended');
    serve = () => ({
      status: 401,
      body: { success: false, code: 401, msg: '登录过期，请重新登录', errorCode: 'SESSION_ENDED', data: null },
    });

    await expect(request('/api/type')).rejects.toBeDefined();

    expect(localStorage.getItem('adminToken')).toBeNull();
    expect(history.location.pathname).toBe('/login');
    expect(warningToast).toHaveBeenCalledWith(expect.objectContaining({ content: '你的登录已在其他地方被结束，请重新登录' }));
    expect(warningToast).not.toHaveBeenCalledWith(expect.objectContaining({ content: '登录过期，请重新登录' }));
  });
});
