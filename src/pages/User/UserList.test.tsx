import { TestBrowser } from '@@/testBrowser';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { envelope, type FakeReply, type FakeRequest, installFakeNetwork, refusal } from '@/testing/fakeNetwork';
import type { WhoAmI } from '#contract/admin';
import type { User } from '#contract/user';
import { fetchFirstPageEarly } from '@/services/table';
import { formatDate } from '@/utils/format';
import { confirmButton, findConfirmButton } from '@/testing/listScreen';

const user = (n: number, loginId: string, extra: Partial<User> = {}): User => ({
  _id: `65f1a2b3c4d5e6f708192c${String(n).padStart(2, '0')}`,
  version: 1,
  loginId,
  nickname: `昵称${n}`,
  avatar: '',
  mail: '',
  qq: '',
  wechat: '',
  intro: '',
  points: 100 + n,
  enabled: true,
  reviewFirst: false,
  registerDate: 1_700_000_000_000,
  lastLoginDate: 1_700_000_000_000,
  ...extra,
});

const superAdmin: WhoAmI = { _id: '65f1a2b3c4d5e6f708192a01', loginId: 'root', nickname: '超级管理员', avatar: '', permission: 1 };
const normalAdmin: WhoAmI = { ...superAdmin, _id: '65f1a2b3c4d5e6f708192a02', loginId: 'editor', permission: 2 };

let me: WhoAmI;
let users: User[];
let handle: (req: FakeRequest) => FakeReply | undefined;
const sent = installFakeNetwork((req) => {
  const special = handle(req);
  if (special) return special;
  if (req.url === '/api/admin/whoami') return { status: 200, body: envelope(me) };
  if (req.method === 'GET' && req.url.startsWith('/api/user?')) {
    const query = new URLSearchParams(req.url.split('?')[1]);
    const current = Number(query.get('current'));
    const pageSize = Number(query.get('pageSize'));
    return {
      status: 200,
      body: envelope({
        currentPage: current,
        eachPage: pageSize,
        count: 25,
        totalPage: Math.ceil(25 / pageSize),
        data: users,
      }),
    };
  }
  return refusal(404, '请求的资源不存在');
});

beforeEach(() => {
  me = superAdmin;
  users = [user(1, 'alice', { mail: 'alice@example.com' }), user(2, 'bob', { enabled: false })];
  handle = () => undefined;
  sent.length = 0;
  localStorage.setItem('adminToken', 'live-token');
});

const userQueries = () =>
  sent.filter((r) => r.method === 'GET' && r.url.startsWith('/api/user?')).map((r) => new URLSearchParams(r.url.split('?')[1]));

async function openUsers() {
  render(<TestBrowser location={{ pathname: '/user/userList' }} />);
  await screen.findByText('alice', { selector: 'td' }, { timeout: 10_000 });
}

const rowOf = (loginId: string) => screen.getByText(loginId, { selector: 'td' }).closest('tr') as HTMLElement;

describe('user list', () => {
  it('asks for the first page of 10 and shows the rows with their serial numbers and dates', async () => {
    await openUsers();

    const [first] = userQueries();
    expect(first.get('current')).toBe('1');
    expect(first.get('pageSize')).toBe('10');
    expect(document.querySelector('.ant-pro-table-list-toolbar-title')).toHaveTextContent('用户列表');
    const alice = within(rowOf('alice'));
    expect(alice.getByText('1')).toBeInTheDocument();
    expect(alice.getByText('101')).toBeInTheDocument();
    expect(alice.getByRole('switch')).toBeChecked();
    expect(within(rowOf('bob')).getByRole('switch')).not.toBeChecked();
    expect(alice.getByText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)).toBeInTheDocument();
  });

  it('sends the search form’s filters and the next page to the query, counting across pages', async () => {
    await openUsers();

    fireEvent.change(screen.getByLabelText('登录账号'), { target: { value: 'ali' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    });
    await waitFor(() => expect(userQueries().at(-1)?.get('loginId')).toBe('ali'));

    await act(async () => {
      fireEvent.click(screen.getByTitle('2'));
    });
    await waitFor(() => expect(userQueries().at(-1)?.get('current')).toBe('2'));
    expect(userQueries().at(-1)?.get('loginId')).toBe('ali');
    await waitFor(() => expect(within(rowOf('alice')).getByText('11')).toBeInTheDocument());
  });

  it('shows a search’s estimated count as 「约」 and an exact one as the total', async () => {
    handle = (req) => {
      const query = new URLSearchParams(req.url.split('?')[1]);
      if (req.method !== 'GET' || query.get('nickname') !== '张') return undefined;
      const page = { currentPage: 1, eachPage: 10, count: 22_000, countEstimated: true, totalPage: 2200, data: users };
      return { status: 200, body: envelope(page) };
    };
    await openUsers();
    expect(screen.getByText('第 1-10 条/总共 25 条')).toBeInTheDocument();

    fireEvent.change(screen.getByLabelText('昵称'), { target: { value: '张' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    });
    expect(await screen.findByText('第 1-10 条/约 22,000 条')).toBeInTheDocument();

    fireEvent.change(screen.getByLabelText('昵称'), { target: { value: '' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    });
    expect(await screen.findByText('第 1-10 条/总共 25 条')).toBeInTheDocument();
  });

  it('moves to the true last page when the last page of an estimate lies past the end', async () => {
    // 约 22,000 matches, 21,985 in truth: page 2,200 is past the end and answers the exact count.
    handle = (req) => {
      const query = new URLSearchParams(req.url.split('?')[1]);
      if (req.method !== 'GET' || query.get('nickname') !== '张') return undefined;
      const current = Number(query.get('current'));
      const page =
        current === 1
          ? { currentPage: 1, eachPage: 10, count: 22_000, countEstimated: true, totalPage: 2200, data: users }
          : current === 2200
            ? { currentPage: 2200, eachPage: 10, count: 21_985, totalPage: 2199, data: [] }
            : { currentPage: current, eachPage: 10, count: 21_985, totalPage: 2199, data: users };
      return { status: 200, body: envelope(page) };
    };
    await openUsers();
    fireEvent.change(screen.getByLabelText('昵称'), { target: { value: '张' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    });
    expect(await screen.findByText('第 1-10 条/约 22,000 条')).toBeInTheDocument();

    await act(async () => {
      fireEvent.click(screen.getByTitle('2200'));
    });
    await waitFor(() => expect(userQueries().at(-1)?.get('current')).toBe('2199'));
    expect(userQueries().map((query) => query.get('current'))).toContain('2200');
    expect(await screen.findByText('第 21981-21985 条/总共 21985 条')).toBeInTheDocument();
    expect(screen.getByText('alice', { selector: 'td' })).toBeInTheDocument();
  });

  it('disables a user through PATCH {enabled} and says so', async () => {
    handle = (req) => (req.method === 'PATCH' ? { status: 200, body: envelope({ ...users[0], enabled: false }) } : undefined);
    await openUsers();

    await act(async () => {
      fireEvent.click(within(rowOf('alice')).getByRole('switch'));
    });

    expect(await screen.findByText('该用户已被禁用')).toBeInTheDocument();
    const patch = sent.find((r) => r.method === 'PATCH');
    expect(patch?.url).toBe(`/api/user/${users[0]._id}`);
    expect(patch?.body).toEqual({ enabled: false, version: 1 });
  });

  it('on 409 VERSION_CONFLICT says who changed the user and shows the list as it is now', async () => {
    handle = (req) => {
      if (req.method !== 'PATCH') return undefined;
      const changed = { ...users[0], nickname: '改过的昵称', version: 2 };
      users = [changed, users[1]];
      const conflict = {
        yourVersion: 1,
        currentVersion: 2,
        changes: [{ field: 'nickname', before: '昵称1', after: '改过的昵称', by: 'editor2', at: Date.UTC(2026, 0, 2, 3, 4, 5) }],
        current: changed,
      };
      return {
        status: 409,
        body: { success: false, code: 409, msg: '记录已被他人修改', data: null, errorCode: 'VERSION_CONFLICT', conflict },
      };
    };
    await openUsers();
    const before = userQueries().length;

    await act(async () => {
      fireEvent.click(within(rowOf('alice')).getByRole('switch'));
    });

    expect(await screen.findByText(/^该用户已被 editor2（.*）修改，已载入最新状态，请确认后再操作$/)).toBeInTheDocument();
    await waitFor(() => expect(userQueries().length).toBeGreaterThan(before));
    expect(within(rowOf('alice')).getByRole('switch')).toBeChecked();
    expect(screen.queryByText('该用户已被禁用')).toBeNull();
    expect(sent.filter((r) => r.method === 'PATCH')).toHaveLength(1);
  });

  it('shows the details with 「未填写」 for empty contact fields', async () => {
    await openUsers();

    await act(async () => {
      fireEvent.click(within(rowOf('alice')).getByText('详情'));
    });

    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('alice@example.com')).toBeInTheDocument();
    expect(within(dialog).getAllByText('未填写')).toHaveLength(3);
    expect(within(dialog).getByText('101')).toBeInTheDocument();
  });

  it('shows 上次登录 as 「从未登录」 for a user whose last sign-in is their registration, else the date', async () => {
    users = [
      user(1, 'alice', { registerDate: 1_700_000_000_000, lastLoginDate: 1_700_000_000_000 }),
      user(2, 'bob', { registerDate: 1_700_000_000_000, lastLoginDate: 1_700_086_400_000 }),
    ];
    await openUsers();

    await act(async () => {
      fireEvent.click(within(rowOf('alice')).getByText('详情'));
    });
    const never = await screen.findByRole('dialog');
    const lastLogin = (dialog: HTMLElement) =>
      within(dialog).getByText('上次登录').closest('tr')?.querySelector('.ant-descriptions-item-content');
    expect(lastLogin(never)).toHaveTextContent(/^从未登录$/);

    await act(async () => {
      fireEvent.click(within(never).getByRole('button', { name: /close|关闭/i }));
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await act(async () => {
      fireEvent.click(within(rowOf('bob')).getByText('详情'));
    });
    const returning = await screen.findByRole('dialog');
    expect(lastLogin(returning)).toHaveTextContent(formatDate(1_700_086_400_000));
    expect(within(returning).queryByText('从未登录')).toBeNull();
  });

  it('shows the member’s community-site sessions with 结束会话, and their points history', async () => {
    const id = users[0]._id;
    let sessions = [
      { id: 'a'.repeat(32), createdAt: 1_700_000_000_000, expiresAt: 1_700_086_400_000, ip: '10.0.0.9', userAgent: 'Firefox' },
    ];
    handle = (req) => {
      if (req.url === `/api/user/${id}/sessions` && req.method === 'GET') return { status: 200, body: envelope(sessions) };
      if (req.url === `/api/user/${id}/sessions` && req.method === 'DELETE') {
        sessions = [];
        return { status: 200, body: envelope({ ended: 1 }) };
      }
      if (req.url.startsWith(`/api/user/${id}/points?`)) {
        const entry = { _id: '1', delta: 4, reason: 'issue_comment', refId: 'c'.repeat(24), balance: 104, at: 1_700_000_000_000 };
        return { status: 200, body: envelope({ currentPage: 1, eachPage: 10, count: 1, totalPage: 1, data: [entry] }) };
      }
      return undefined;
    };
    await openUsers();
    await act(async () => {
      fireEvent.click(within(rowOf('alice')).getByText('详情'));
    });
    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('10.0.0.9')).toBeInTheDocument();
    expect(await within(dialog).findByText('评论问答')).toBeInTheDocument();
    expect(within(dialog).getByText('+4')).toBeInTheDocument();
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: '结束会话' }));
    });
    await act(async () => {
      fireEvent.click(await findConfirmButton(/确\s*定|OK/));
    });
    await waitFor(() => expect(sent.some((r) => r.method === 'DELETE' && r.url === `/api/user/${id}/sessions`)).toBe(true));
    expect(await within(dialog).findByText('没有登录中的会话')).toBeInTheDocument();
  });

  it('offers 删除 to a super admin, tells what goes with the user, and deletes', async () => {
    handle = (req) => {
      if (req.url === `/api/user/${users[0]._id}/impact`) {
        return { status: 200, body: envelope({ issues: 3, comments: 7 }) };
      }
      if (req.method === 'DELETE') return { status: 200, body: envelope(null) };
      return undefined;
    };
    await openUsers();

    await act(async () => {
      fireEvent.click(within(rowOf('alice')).getByText('删除'));
    });
    expect(await screen.findByText(/3 个问答和 7 条评论/)).toBeInTheDocument();
    await act(async () => {
      fireEvent.click(confirmButton(/删\s*除/));
    });

    expect(await screen.findByText('删除用户成功')).toBeInTheDocument();
    expect(sent.find((r) => r.method === 'DELETE')?.url).toBe(`/api/user/${users[0]._id}`);
  });

  it('does not offer 删除 to a normal admin', async () => {
    me = normalAdmin;
    await openUsers();

    expect(within(rowOf('alice')).getByText('编辑')).toBeInTheDocument();
    expect(within(rowOf('alice')).queryByText('删除')).toBeNull();
  });
});

describe('user list, first page asked for at start (app.tsx render)', () => {
  it('shows the page asked for before the table existed, sending no second request for it', async () => {
    fetchFirstPageEarly('/api/user');
    await openUsers();

    expect(userQueries().map((query) => query.toString())).toEqual(['current=1&pageSize=10']);
    // The early answer served the first request only: a reload asks the server again.
    users = [user(3, 'carol')];
    await act(async () => {
      fireEvent.click(screen.getByLabelText('reload'));
    });
    await screen.findByText('carol', { selector: 'td' }, { timeout: 10_000 });
    expect(userQueries()).toHaveLength(2);
  });
});
