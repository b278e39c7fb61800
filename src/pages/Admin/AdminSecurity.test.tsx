import { TestBrowser } from '@@/testBrowser';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { envelope, type FakeReply, type FakeRequest, installFakeNetwork, refusal } from '@/testing/fakeNetwork';
import { EDITOR_ADMIN, ROOT_ADMIN } from '@/testing/admins';
import type { AdminSession } from '#contract/account';
import type { Admin } from '#contract/admin';

const me: Admin = { ...ROOT_ADMIN, twoFactorEnabled: true };
const editor: Admin = { ...EDITOR_ADMIN, twoFactorEnabled: true };
const plain: Admin = {
  ...me,
  _id: '65f1a2b3c4d5e6f708192a03',
  loginId: 'plain',
  nickname: '没开两步',
  permission: 2,
  twoFactorEnabled: false,
};
const editorSession: AdminSession = {
  id: 'c'.repeat(32),
  createdAt: 1_700_000_000_000,
  lastSeenAt: 1_700_000_100_000,
  expiresAt: 1_800_000_000_000,
  ip: '192.0.2.7',
  browser: 'Edge 120 · Windows',
  current: false,
};

let handle: (req: FakeRequest) => FakeReply | undefined;
const sent = installFakeNetwork((req) => {
  const special = handle(req);
  if (special) return special;
  if (req.url === '/api/admin/whoami') return { status: 200, body: envelope(me) };
  if (req.method === 'GET' && req.url === '/api/admin') return { status: 200, body: envelope([me, editor, plain]) };
  if (req.method === 'GET' && req.url === `/api/admin/${editor._id}/sessions`) return { status: 200, body: envelope([editorSession]) };
  if (req.method === 'DELETE') return { status: 200, body: envelope(null) };
  return refusal(404, '请求的资源不存在');
});

beforeEach(() => {
  handle = () => undefined;
  sent.length = 0;
  localStorage.setItem('adminToken', 'live-token');
});

const rowOf = (loginId: string) => screen.getByText(loginId, { selector: 'td' }).closest('tr') as HTMLElement;

async function click(element: HTMLElement) {
  await act(async () => {
    fireEvent.click(element);
  });
}

/** Opens the 更多 menu of `loginId`'s row; its popup is the last one on the page. */
async function openMore(loginId: string) {
  await click(within(rowOf(loginId)).getByRole('button', { name: /更多/ }));
  const entries = await screen.findAllByRole('menuitem', { name: '登录设备' });
  return entries[entries.length - 1].closest('[role="menu"]') as HTMLElement;
}

/** The entries of the 更多 menu of `loginId`'s row. */
async function moreOf(loginId: string) {
  const menu = await openMore(loginId);
  return within(menu)
    .getAllByRole('menuitem')
    .map((item) => item.textContent);
}

async function openList() {
  render(<TestBrowser location={{ pathname: '/admin/adminList' }} />);
  await screen.findByText('editor', { selector: 'td' }, { timeout: 10_000 });
}

describe('a super admin on other admins’ accounts', () => {
  it('offers 登录设备 and 重置两步验证 under 更多 on others only, and the reset only where two-step is on', async () => {
    await openList();

    expect(within(rowOf('root')).queryByRole('button', { name: /更多/ })).toBeNull();
    expect(await moreOf('editor')).toEqual(['登录设备', '重置两步验证']);
    expect(await moreOf('plain')).toEqual(['登录设备']);
  });

  it('重置两步验证 sends DELETE /api/admin/{id}/2fa after a confirmation', async () => {
    await openList();

    // Chosen once the menu holds the focus, as a person sees it open: the menu takes it a few
    // frames after it shows, and a choice made before that would have the late focus pulled out
    // of the confirmation.
    const menu = await openMore('editor');
    await waitFor(() => expect(menu.contains(document.activeElement)).toBe(true));
    await click(within(menu).getByRole('menuitem', { name: '重置两步验证' }));
    const confirm = await screen.findByRole('dialog');
    expect(confirm).toHaveAccessibleName('确定重置该管理员的两步验证？');
    // The confirmation opens with the focus on 确定: Enter from the keyboard confirms.
    await waitFor(() => expect(within(confirm).getByRole('button', { name: '确定' })).toHaveFocus());
    await click(within(confirm).getByRole('button', { name: '确定' }));

    expect(await screen.findByText('两步验证已重置，该管理员需要重新登录')).toBeInTheDocument();
    expect(sent.filter((r) => r.method === 'DELETE').map((r) => r.url)).toEqual([`/api/admin/${editor._id}/2fa`]);
  });

  it('登录设备 lists another admin’s sessions and ends them all', async () => {
    await openList();

    await openMore('editor');
    await click(screen.getByRole('menuitem', { name: '登录设备' }));
    expect(await screen.findByText('内容编辑 的登录设备')).toBeInTheDocument();
    expect(await screen.findByText('Edge 120 · Windows')).toBeInTheDocument();
    expect(screen.getByText('192.0.2.7')).toBeInTheDocument();

    await click(screen.getByRole('button', { name: '退出所有设备' }));
    await click(await screen.findByRole('button', { name: '确定' }));

    expect(await screen.findByText('已退出登录')).toBeInTheDocument();
    expect(sent.filter((r) => r.method === 'DELETE').map((r) => r.url)).toEqual([`/api/admin/${editor._id}/sessions`]);
  });

  it('the edit modal shows the password rule and rates the new password; one’s own password is left to 个人设置', async () => {
    await openList();

    await click(within(rowOf('editor')).getByText('编辑'));
    expect(await screen.findByText('至少 8 个字符，不能是常见密码，不能包含账号或昵称')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('管理员密码'), { target: { value: 'editor1234' } });
    expect(await screen.findByText('密码不能包含账号')).toBeInTheDocument();
    expect(screen.getByText('密码强度：弱')).toBeInTheDocument();
    await click(screen.getByRole('button', { name: '取消' }));

    await click(within(rowOf('root')).getByText('编辑'));
    await waitFor(() => expect(screen.getByText('修改自己的密码请到「个人设置 → 修改密码」')).toBeInTheDocument());
  });
});
