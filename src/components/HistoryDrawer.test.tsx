import { TestBrowser } from '@@/testBrowser';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { envelope, type FakeReply, type FakeRequest, installFakeNetwork, refusal } from '@/testing/fakeNetwork';
import { confirmButton } from '@/testing/listScreen';
import type { WhoAmI } from '#contract/admin';
import type { AuditEntry } from '#contract/audit';
import type { User } from '#contract/user';

const me: WhoAmI = { _id: '65f1a2b3c4d5e6f708192a02', loginId: 'editor', nickname: '内容编辑', avatar: '', permission: 2 };
const USER_ID = '65f1a2b3c4d5e6f708192c01';

const user = (nickname: string): User => ({
  _id: USER_ID,
  version: 1,
  loginId: 'alice',
  nickname,
  avatar: '',
  mail: '',
  qq: '',
  wechat: '',
  intro: '',
  points: 100,
  enabled: true,
  reviewFirst: false,
  registerDate: 1_700_000_000_000,
  lastLoginDate: 1_700_000_000_000,
});

const change: AuditEntry = {
  _id: '7',
  at: 1_700_000_000_000,
  adminId: me._id,
  adminLoginId: 'editor',
  action: '修改',
  entity: 'user',
  entityId: USER_ID,
  title: 'alice',
  changes: [{ field: 'nickname', before: '爱丽丝', after: '艾丽斯' }],
  revertible: true,
};
const created: AuditEntry = { ...change, _id: '6', action: '新增', changes: null, revertible: false };
// An id is shown by its name where the server found one; an id it could not name stays as it is.
const retyped: AuditEntry = {
  ...change,
  _id: '5',
  changes: [
    { field: 'typeId', before: '65f1a2b3c4d5e6f708192d01', after: '65f1a2b3c4d5e6f708192d02', beforeName: 'CSS', afterName: 'JavaScript' },
    { field: 'enabled', before: true, after: false },
  ],
  revertible: false,
};

let nickname: string;
let handle: (req: FakeRequest) => FakeReply | undefined;
const sent = installFakeNetwork((req) => {
  const special = handle(req);
  if (special) return special;
  if (req.url === '/api/admin/whoami') return { status: 200, body: envelope(me) };
  if (req.method === 'GET' && req.url === `/api/user/${USER_ID}`) return { status: 200, body: envelope(user(nickname)) };
  if (req.method === 'GET' && req.url === `/api/audit/user/${USER_ID}`) return { status: 200, body: envelope([change, created, retyped]) };
  return refusal(404, '请求的资源不存在');
});

beforeEach(() => {
  nickname = '艾丽斯';
  handle = () => undefined;
  sent.length = 0;
  localStorage.setItem('adminToken', 'live-token');
});

async function openHistory() {
  render(<TestBrowser location={{ pathname: `/user/editUser/${USER_ID}` }} />);
  const button = await screen.findByRole('button', { name: /历\s*史/ }, { timeout: 20_000 });
  await act(async () => {
    fireEvent.click(button);
  });
  return screen.findByRole('dialog', {}, { timeout: 5000 });
}

describe('历史 drawer', () => {
  it("lists the record's history, newest first, with 撤销此修改 on change entries only", async () => {
    const drawer = within(await openHistory());
    const entries = await drawer.findAllByTestId('history-entry');
    expect(entries).toHaveLength(3);
    expect(within(entries[0]).getByText('昵称：爱丽丝 → 艾丽斯')).toBeInTheDocument();
    expect(within(entries[2]).getByText('分类：CSS → JavaScript')).toBeInTheDocument();
    expect(within(entries[2]).getByText('账号状态：启用 → 禁用')).toBeInTheDocument();
    expect(within(entries[0]).getByText('撤销此修改')).toBeInTheDocument();
    expect(within(entries[1]).getByText('新增')).toBeInTheDocument();
    expect(within(entries[1]).queryByText('撤销此修改')).not.toBeInTheDocument();
  });

  it('撤销此修改 posts the revert after a confirmation and shows the record as it now is', async () => {
    handle = (req) => {
      if (req.method !== 'POST') return undefined;
      nickname = '爱丽丝';
      return { status: 200, body: envelope([{ ...change, _id: '8', action: '恢复' }, change, created]) };
    };
    const drawer = within(await openHistory());
    await act(async () => {
      fireEvent.click(await drawer.findByText('撤销此修改'));
    });
    expect(await screen.findByText('确定要撤销此修改，把这些字段改回修改前的值吗？')).toBeInTheDocument();
    await act(async () => {
      fireEvent.click(confirmButton(/^撤\s*销$/));
    });
    expect(await screen.findByText('已撤销此修改')).toBeInTheDocument();
    expect(sent.find((r) => r.method === 'POST')?.url).toBe('/api/audit/7/revert');
    // The edit page loads the user again: its form shows the restored nickname.
    await waitFor(() => expect(sent.filter((r) => r.url === `/api/user/${USER_ID}`)).toHaveLength(2));
    expect(await screen.findByDisplayValue('爱丽丝')).toBeInTheDocument();
    // The drawer stayed open through the reload and shows the revert as the newest entry.
    const entries = screen.getAllByTestId('history-entry');
    expect(entries).toHaveLength(3);
    expect(within(entries[0]).getByText('恢复')).toBeInTheDocument();
  });

  it('shows the server refusal and keeps the drawer when the record changed since', async () => {
    handle = (req) => (req.method === 'POST' ? refusal(409, '该记录此后又被修改过，无法恢复（昵称）') : undefined);
    const drawer = within(await openHistory());
    await act(async () => {
      fireEvent.click(await drawer.findByText('撤销此修改'));
    });
    await act(async () => {
      fireEvent.click(confirmButton(/^撤\s*销$/));
    });
    expect(await screen.findByText('该记录此后又被修改过，无法恢复（昵称）')).toBeInTheDocument();
    expect(screen.queryByText('已撤销此修改')).not.toBeInTheDocument();
    expect(drawer.getAllByTestId('history-entry')).toHaveLength(3);
  });
});
