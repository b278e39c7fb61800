import { TestBrowser } from '@@/testBrowser';
import { getDvaApp, history } from '@umijs/max';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { envelope, type FakeReply, type FakeRequest, installFakeNetwork, refusal } from '@/testing/fakeNetwork';
import { EDITOR_ADMIN, ROOT_ADMIN } from '@/testing/admins';
import type { Admin, WhoAmI } from '#contract/admin';

const me: Admin = { ...ROOT_ADMIN };
const editor: Admin = { ...EDITOR_ADMIN };
const infoOf = ({ _id, loginId, nickname, avatar, permission }: Admin): WhoAmI => ({
  _id,
  loginId,
  nickname,
  avatar,
  permission,
});

let handle: (req: FakeRequest) => FakeReply | undefined;
const sent = installFakeNetwork((req) => {
  const special = handle(req);
  if (special) return special;
  if (req.url === '/api/admin/whoami') return { status: 200, body: envelope(infoOf(me)) };
  if (req.method === 'GET' && req.url === '/api/admin') return { status: 200, body: envelope([me, editor]) };
  return refusal(404, '请求的资源不存在');
});

beforeEach(() => {
  handle = () => undefined;
  sent.length = 0;
  localStorage.setItem('adminToken', 'live-token');
});

/** The dva `admin` model's copy of the signed-in admin. */
const modelAdminInfo = () => getDvaApp()._store.getState().admin.adminInfo as WhoAmI | null;
const headerName = () => document.querySelector('.umi-plugin-layout-name')?.textContent;
const rowOf = (loginId: string) => screen.getByText(loginId, { selector: 'td' }).closest('tr') as HTMLElement;

async function openAdminList() {
  render(<TestBrowser location={{ pathname: '/admin/adminList' }} />);
  await screen.findByText('editor', { selector: 'td' }, { timeout: 10_000 });
}

describe('the signed-in admin, owned by initialState', () => {
  it('is what the admin model holds as adminInfo once the session has loaded', async () => {
    await openAdminList();

    await waitFor(() => expect(modelAdminInfo()).toEqual(infoOf(me)));
    expect(headerName()).toBe('超级管理员');
  });

  it('follows an edit of oneself into the header and the model without loading the session again', async () => {
    const renamed = { ...me, nickname: '改过的我' };
    handle = (req) => {
      if (req.method === 'PATCH' && req.url === `/api/admin/${me._id}`) return { status: 200, body: envelope(renamed) };
      if (req.method === 'GET' && req.url === `/api/admin/${me._id}`) return { status: 200, body: envelope(renamed) };
      return undefined;
    };
    await openAdminList();

    fireEvent.click(within(rowOf('root')).getByText('编辑'));
    const nickname = await screen.findByLabelText('管理员昵称');
    fireEvent.change(nickname, { target: { value: '改过的我' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: '修改' }));
    });

    expect(await screen.findByText('信息修改成功')).toBeInTheDocument();
    await waitFor(() => expect(headerName()).toBe('改过的我'));
    await waitFor(() => expect(modelAdminInfo()).toEqual(infoOf(renamed)));
    expect(sent.filter((r) => r.url === '/api/admin/whoami')).toHaveLength(1);
  });

  it('is gone from the model after 退出登录', async () => {
    handle = (req) => (req.url === '/api/admin/logout' ? { status: 200, body: envelope(null) } : undefined);
    await openAdminList();
    await waitFor(() => expect(modelAdminInfo()).not.toBeNull());

    fireEvent.mouseEnter(document.querySelector('.umi-plugin-layout-action') as HTMLElement);
    const logout = await screen.findByText('退出登录');
    await act(async () => {
      fireEvent.click(logout);
    });

    await waitFor(() => expect(history.location.pathname).toBe('/login'));
    await waitFor(() => expect(modelAdminInfo()).toBeNull());

    // Back leads to the page left: with no session it goes to /login again, remembering the page.
    act(() => history.back());
    await waitFor(() => expect(`${history.location.pathname}${history.location.search}`).toBe('/login?redirect=%2Fadmin%2FadminList'));
    expect(await screen.findByText('登录过期，请重新登录')).toBeInTheDocument();
  });
});
