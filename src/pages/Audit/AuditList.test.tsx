import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { envelope } from '@/testing/fakeNetwork';
import { clickSearch, EDITOR, listScreenNetwork, openList, pageReply } from '@/testing/listScreen';
import type { Admin } from '../../../contract/admin';
import type { AuditEntry } from '../../../contract/audit';

const ROOT_ID = '65f1a2b3c4d5e6f708192a01';

const entry: AuditEntry = {
  _id: '42',
  at: 1_700_000_000_000,
  adminId: EDITOR._id,
  adminLoginId: 'editor',
  action: '修改',
  entity: 'user',
  entityId: '65f1a2b3c4d5e6f708192c01',
  title: 'alice',
  changes: [
    { field: 'nickname', before: '爱丽丝', after: '艾丽斯' },
    { field: 'password', note: '密码已修改' },
  ],
  revertible: true,
};

const admins: Admin[] = [
  { _id: ROOT_ID, loginId: 'root', nickname: '超级管理员', avatar: '', permission: 1, enabled: true, createdAt: 1 },
  { _id: EDITOR._id, loginId: 'editor', nickname: '内容编辑', avatar: '', permission: 2, enabled: true, createdAt: 2 },
];

const net = listScreenNetwork((req) => {
  if (req.method === 'GET' && req.url.startsWith('/api/audit?')) return pageReply(req.url, [entry], 1);
  if (req.method === 'GET' && req.url === '/api/admin') return { status: 200, body: envelope(admins) };
  return undefined;
});

const auditQueries = () => net.queriesTo('/api/audit');

/** Opens the select labelled `label` in the search form and picks `option`. */
async function pick(label: string, option: string) {
  const select = screen.getByLabelText(label);
  await act(async () => {
    fireEvent.mouseDown(select);
  });
  const options = await screen.findAllByTitle(option);
  await act(async () => {
    fireEvent.click(options.at(-1)!);
  });
}

describe('操作日志', () => {
  it('shows who did what, with the changed fields and never a password', async () => {
    await openList('/audit', 'alice');
    const row = within(screen.getByText('alice').closest('tr') as HTMLElement);
    expect(row.getByText('editor')).toBeInTheDocument();
    expect(row.getByText('用户')).toBeInTheDocument();
    expect(row.getByText('修改')).toBeInTheDocument();
    expect(row.getByText('昵称：爱丽丝 → 艾丽斯')).toBeInTheDocument();
    expect(row.getByText('密码已修改')).toBeInTheDocument();
    expect(auditQueries()[0].get('pageSize')).toBe('10');
  });

  it('sends the object and action filters to the server', async () => {
    await openList('/audit', 'alice');
    await pick('对象', '书籍');
    await pick('操作', '批量删除');
    await clickSearch();
    await waitFor(() => expect(auditQueries().at(-1)?.get('entity')).toBe('book'));
    expect(auditQueries().at(-1)?.get('action')).toBe('批量删除');
    expect(auditQueries().at(-1)?.get('current')).toBe('1');
  });

  it('offers the admin filter to a super admin only', async () => {
    await openList('/audit', 'alice');
    expect(screen.queryByLabelText('管理员')).not.toBeInTheDocument();
    expect(net.sent.some((r) => r.url === '/api/admin')).toBe(false);
  });

  it('a super admin filters by admin', async () => {
    net.me = { ...EDITOR, _id: ROOT_ID, loginId: 'root', permission: 1 };
    await openList('/audit', 'alice');
    await pick('管理员', 'root');
    await clickSearch();
    await waitFor(() => expect(auditQueries().at(-1)?.get('adminId')).toBe(ROOT_ID));
  });
});
