import { TestBrowser } from '@@/testBrowser';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { envelope, type FakeReply, type FakeRequest, installFakeNetwork, refusal } from '@/testing/fakeNetwork';
import type { WhoAmI } from '#contract/admin';
import type { TypeRecord } from '#contract/type';

export const EDITOR: WhoAmI = {
  _id: '65f1a2b3c4d5e6f708192a02',
  loginId: 'editor',
  nickname: '内容编辑',
  avatar: '',
  permission: 2,
};

export const JS_TYPE = '65f1a2b3c4d5e6f708192b01';
export const CSS_TYPE = '65f1a2b3c4d5e6f708192b02';
export const TYPES: TypeRecord[] = [
  { _id: JS_TYPE, version: 1, typeName: 'JavaScript', createdAt: 1 },
  { _id: CSS_TYPE, version: 1, typeName: 'CSS', createdAt: 2 },
];

/** `rows` as the page the query of `url` asked for, out of `count` in all. */
export function pageReply<T>(url: string, rows: T[], count: number): FakeReply {
  const query = new URLSearchParams(url.split('?')[1]);
  const pageSize = Number(query.get('pageSize'));
  return {
    status: 200,
    body: envelope({
      currentPage: Number(query.get('current')),
      eachPage: pageSize,
      count,
      totalPage: Math.ceil(count / pageSize),
      data: rows,
    }),
  };
}

type Route = (req: FakeRequest) => FakeReply | undefined;

/**
 * The fake network of a list screen's tests; call once at a test file's top level. A request goes
 * to the test's own `handle` first, then to whoami (answering `me`), GET /api/type (answering
 * `types`) and the file's `routes`; anything else is a 404. Before each test, `handle`, `me` and
 * `types` go back to their defaults, `sent` is emptied and a live token is stored.
 */
export function listScreenNetwork(routes: Route) {
  const net = {
    me: EDITOR,
    types: TYPES,
    handle: (() => undefined) as Route,
    /** Every request the app sent, in order. */
    sent: [] as FakeRequest[],
    /** The queries of the GETs to `path?…`, in order. */
    queriesTo: (path: string) =>
      net.sent.filter((r) => r.method === 'GET' && r.url.startsWith(`${path}?`)).map((r) => new URLSearchParams(r.url.split('?')[1])),
  };
  net.sent = installFakeNetwork((req) => {
    const special = net.handle(req);
    if (special) return special;
    if (req.url === '/api/admin/whoami') return { status: 200, body: envelope(net.me) };
    if (req.method === 'GET' && req.url === '/api/type') return { status: 200, body: envelope(net.types) };
    return routes(req) ?? refusal(404, '请求的资源不存在');
  });
  beforeEach(() => {
    net.me = EDITOR;
    net.types = TYPES;
    net.handle = () => undefined;
    net.sent.length = 0;
    localStorage.setItem('adminToken', 'live-token');
  });
  return net;
}

/** Renders the app at `path` (a query string included) and waits for a text of the first page. */
export async function openList(path: string, shown: string, options: { selector?: string } = {}) {
  const [pathname, search] = path.split('?');
  render(<TestBrowser location={{ pathname, search: search ? `?${search}` : '' }} />);
  await screen.findByText(shown, options, { timeout: 20_000 });
}

/** Submits the table's search form. */
export async function clickSearch() {
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
  });
}

/**
 * A button of the open confirmation (a Popconfirm's popup), not the row action of the same name
 * (删除) that opened it.
 */
export const confirmButton = (name: string | RegExp) => within(screen.getByRole('tooltip')).getByRole('button', { name });

/** confirmButton, once the confirmation has opened. */
export const findConfirmButton = async (name: string | RegExp) => within(await screen.findByRole('tooltip')).findByRole('button', { name });
