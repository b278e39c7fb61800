import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { envelope } from '@/testing/fakeNetwork';
import { clickSearch, EDITOR, listScreenNetwork, openList, pageReply } from '@/testing/listScreen';
import type { Admin } from '#contract/admin';
import { AUDIT_CHAIN_BREAKS, type AuditEntry, type SecurityEvent } from '#contract/audit';

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
  { _id: ROOT_ID, version: 1, loginId: 'root', nickname: '超级管理员', avatar: '', permission: 1, enabled: true, createdAt: 1 },
  { _id: EDITOR._id, version: 1, loginId: 'editor', nickname: '内容编辑', avatar: '', permission: 2, enabled: true, createdAt: 2 },
];

const BOOK_ID = '65f1a2b3c4d5e6f708192b01';
const TYPE_ID = '65f1a2b3c4d5e6f708192d01';
// A book's change whose type is shown by name, and an export as one sentence; the book is gone.
const retyped: AuditEntry = {
  ...entry,
  _id: '41',
  entity: 'book',
  entityId: BOOK_ID,
  title: '旧书',
  changes: [{ field: 'typeId', before: null, after: TYPE_ID, afterName: 'JavaScript' }],
  recordExists: false,
};
const exported: AuditEntry = {
  ...entry,
  _id: '40',
  action: '导出',
  entity: 'book',
  entityId: '65f1a2b3c4d5e6f708192e01',
  title: '书籍列表（30 行）',
  changes: [
    { field: 'typeId', after: TYPE_ID, afterName: 'JavaScript' },
    { field: 'rows', after: 30 },
  ],
  revertible: false,
};

const refused: SecurityEvent = {
  _id: '7',
  firstAt: 1_700_000_000_000,
  lastAt: 1_700_000_030_000,
  adminId: '',
  adminLoginId: '',
  address: '203.0.113.9',
  method: 'GET',
  route: '/api/user',
  status: 401,
  reason: 'SESSION_EXPIRED',
  count: 57,
};

const net = listScreenNetwork((req) => {
  if (req.method === 'GET' && req.url.startsWith('/api/audit?') && req.url.includes('security=true')) {
    return pageReply(req.url, [refused], 1);
  }
  if (req.method === 'GET' && req.url === '/api/audit/verify') {
    return {
      status: 200,
      body: envelope({
        ok: false,
        count: 16,
        purged: 0,
        broken: { id: '17', seq: 17, at: 1_700_000_000_000, reason: AUDIT_CHAIN_BREAKS.content },
      }),
    };
  }
  if (req.method === 'GET' && req.url.startsWith('/api/audit?')) {
    return pageReply(req.url, [{ ...entry, recordExists: true }, retyped, exported], 3);
  }
  if (req.method === 'GET' && req.url === `/api/audit/book/${BOOK_ID}`) return { status: 200, body: envelope([retyped]) };
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

  it('speaks Chinese: a type by its name, an export as a sentence; 记录 links to the record, or its history once gone', async () => {
    await openList('/audit', 'alice');
    expect(screen.getByText('分类：（空） → JavaScript')).toBeInTheDocument();
    expect(screen.getByText('导出 30 行（筛选：分类=JavaScript）')).toBeInTheDocument();
    expect(screen.queryByText(/rows/)).toBeNull();
    expect(screen.getByRole('link', { name: 'alice' })).toHaveAttribute('href', '/user/editUser/65f1a2b3c4d5e6f708192c01');
    // An export is no record: its title is text.
    expect(screen.queryByRole('link', { name: '书籍列表（30 行）' })).toBeNull();
    await act(async () => {
      fireEvent.click(screen.getByText('旧书'));
    });
    const drawer = within(await screen.findByRole('dialog'));
    expect(await drawer.findByText('分类：（空） → JavaScript')).toBeInTheDocument();
  });

  it('filters by record and by whole days of the installation time zone, with presets', async () => {
    await openList('/audit', 'alice');
    fireEvent.change(screen.getByLabelText('记录'), { target: { value: '斑马' } });
    // The range picker (fetched on first use, src/shims/lazy-pro-field.tsx) opens on its start input.
    const timeField = screen.getByText('时间', { selector: 'label' }).closest('.ant-form-item') as HTMLElement;
    const start = await waitFor(() => timeField.querySelector('input[date-range="start"]') as HTMLElement, { timeout: 10_000 });
    await act(async () => {
      fireEvent.mouseDown(start);
      fireEvent.focus(start);
      fireEvent.click(start);
    });
    await act(async () => {
      fireEvent.click(await screen.findByText('近 7 天', {}, { timeout: 10_000 }));
    });
    await clickSearch();
    await waitFor(() => expect(auditQueries().at(-1)?.get('record')).toBe('斑马'));
    const from = Number(auditQueries().at(-1)?.get('from'));
    const to = Number(auditQueries().at(-1)?.get('to'));
    // Seven whole days in Beijing time: from a midnight there to the last millisecond of today there.
    expect((from + 8 * 3_600_000) % 86_400_000).toBe(0);
    expect((to + 1 + 8 * 3_600_000) % 86_400_000).toBe(0);
    expect(to + 1 - from).toBe(7 * 86_400_000);
    expect(to).toBeGreaterThanOrEqual(Date.now());
    expect(to - Date.now()).toBeLessThan(86_400_000);
  });

  it('导出 downloads the audit log with the current filters', async () => {
    await openList('/audit', 'alice');
    fireEvent.change(screen.getByLabelText('记录'), { target: { value: 'alice' } });
    await clickSearch();
    await waitFor(() => expect(auditQueries().at(-1)?.get('record')).toBe('alice'));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: /导\s*出/ }));
    });
    await waitFor(() => expect(net.sent.some((r) => r.url.startsWith('/api/audit/export?'))).toBe(true));
    const url = net.sent.find((r) => r.url.startsWith('/api/audit/export?'))!.url;
    expect(new URLSearchParams(url.split('?')[1]).get('record')).toBe('alice');
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

  it('a normal admin has neither 安全事件 nor 核对日志链', async () => {
    net.me = EDITOR;
    await openList('/audit', 'alice');
    expect(screen.queryByText('安全事件')).toBeNull();
    expect(screen.queryByRole('button', { name: '核对日志链' })).toBeNull();
  });

  it('a super admin opens 安全事件 (refused calls, counted) and 核对日志链 names the first broken entry', async () => {
    net.me = { ...EDITOR, _id: ROOT_ID, loginId: 'root', permission: 1 };
    await openList('/audit', 'alice');
    await act(async () => {
      fireEvent.click(screen.getByRole('tab', { name: '安全事件' }));
    });
    const row = within((await screen.findByText('203.0.113.9')).closest('tr') as HTMLElement);
    expect(row.getByText('GET /api/user')).toBeInTheDocument();
    expect(row.getByText('57')).toBeInTheDocument();
    expect(row.getByText('未登录或登录已过期（SESSION_EXPIRED）')).toBeInTheDocument();
    expect(net.sent.some((r) => r.url.startsWith('/api/audit?') && r.url.includes('security=true'))).toBe(true);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: '核对日志链' }));
    });
    expect(await screen.findByText(/日志链在日志编号 17（.*）处断开：该条记录的内容被改动过。此前 16 条核对无误。/)).toBeInTheDocument();
  });
});
