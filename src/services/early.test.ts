import { createHistory, history } from '@umijs/max';
import { getInitialState, render as renderApp } from '@/app';
import { dropEarly, startEarly, takeEarly } from '@/services/early';
import { fetchFirstPageEarly, fetchTable } from '@/services/table';
import { envelope, type FakeReply, type FakeRequest, installFakeNetwork, refusal } from '@/testing/fakeNetwork';
import { message } from '@/utils/feedback';
import type { WhoAmI } from '#contract/admin';

const me: WhoAmI = { _id: '65f1a2b3c4d5e6f708192a01', loginId: 'root', nickname: '超级管理员', avatar: '', permission: 1 };
const page = (loginId: string) => ({ currentPage: 1, eachPage: 10, count: 1, totalPage: 1, data: [{ loginId }] });

let handle: (req: FakeRequest) => FakeReply | undefined;
const sent = installFakeNetwork((req) => {
  const special = handle(req);
  if (special) return special;
  if (req.url === '/api/admin/whoami') return { status: 200, body: envelope(me) };
  if (req.url.startsWith('/api/user?')) return { status: 200, body: envelope(page('alice')) };
  return refusal(404, '请求的资源不存在');
});

const FIRST_PAGE = '/api/user?current=1&pageSize=10';
const urls = () => sent.map((req) => req.url);
/** Lets the request layer's promise chain reach the (fake) network. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

beforeEach(() => {
  handle = () => undefined;
  sent.length = 0;
  localStorage.setItem('adminToken', 'live-token');
  createHistory({ type: 'memory', initialEntries: ['/user/userList'] });
});
afterEach(dropEarly);

describe('one slot per kind of early call', () => {
  it('hands the call to the first caller asking for the same thing, and to no one after', async () => {
    startEarly('table', 'a', async () => 1);
    await expect(takeEarly('table', 'a')).resolves.toBe(1);
    expect(takeEarly('table', 'a')).toBeUndefined();
  });

  it('is emptied when its first caller asks for something else', () => {
    startEarly('table', 'a', async () => 1);
    expect(takeEarly('table', 'b')).toBeUndefined();
    expect(takeEarly('table', 'a')).toBeUndefined();
  });
});

describe("app.tsx's render, before the first render", () => {
  it('asks for the session and the user list’s first page at once, and the app takes both', async () => {
    const oldRender = jest.fn();
    renderApp(oldRender);
    expect(oldRender).toHaveBeenCalledTimes(1);
    await settle();
    expect(urls()).toEqual(['/api/admin/whoami', FIRST_PAGE]);

    expect((await getInitialState()).adminInfo?.loginId).toBe('root');
    expect((await fetchTable('/api/user', { current: 1, pageSize: 10 })).data).toEqual([{ loginId: 'alice' }]);
    expect(urls()).toEqual(['/api/admin/whoami', FIRST_PAGE]);
  });

  it('asks only for the session on a screen whose first call is not a first page', async () => {
    history.replace('/home');
    renderApp(jest.fn());
    await settle();
    expect(urls()).toEqual(['/api/admin/whoami']);
  });

  it('asks for nothing without a token', async () => {
    localStorage.removeItem('adminToken');
    const oldRender = jest.fn();
    renderApp(oldRender);
    await settle();
    expect(urls()).toEqual([]);
    expect(oldRender).toHaveBeenCalledTimes(1);
  });

  it('lets no early answer outlive a navigation', async () => {
    renderApp(jest.fn());
    await settle();
    history.push('/home');
    await getInitialState();
    await fetchTable('/api/user', { current: 1, pageSize: 10 });
    expect(urls()).toEqual(['/api/admin/whoami', FIRST_PAGE, '/api/admin/whoami', FIRST_PAGE]);
  });
});

describe('an early first page that fails', () => {
  it('is reported once by the request layer and reaches the table as its rejection; the next load asks again', async () => {
    const shown = jest.spyOn(message, 'error').mockImplementation(() => undefined as never);
    handle = (req) => (req.url === FIRST_PAGE && sent.length === 1 ? refusal(500, '服务器内部错误，请稍后重试') : undefined);
    fetchFirstPageEarly('/api/user');
    await settle();

    await expect(fetchTable('/api/user', { current: 1, pageSize: 10 })).rejects.toThrow();
    expect(shown.mock.calls).toEqual([['服务器内部错误，请稍后重试']]);
    expect((await fetchTable('/api/user', { current: 1, pageSize: 10 })).data).toEqual([{ loginId: 'alice' }]);
    expect(urls()).toEqual([FIRST_PAGE, FIRST_PAGE]);
    shown.mockRestore();
  });
});
