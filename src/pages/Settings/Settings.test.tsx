import { TestBrowser } from '@@/testBrowser';
import { history } from '@umijs/max';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { envelope, type FakeReply, type FakeRequest, installFakeNetwork, refusal } from '@/testing/fakeNetwork';
import type { AdminSession, LoginRecord } from '#contract/account';
import type { WhoAmI } from '#contract/admin';

const root: WhoAmI = {
  _id: '65f1a2b3c4d5e6f708192a01',
  loginId: 'root',
  nickname: '超级管理员',
  avatar: '/default-avatar.svg',
  permission: 1,
  twoFactorEnabled: false,
  mustSetUp2fa: false,
};
const editor: WhoAmI = { ...root, _id: '65f1a2b3c4d5e6f708192a02', loginId: 'editor', nickname: '内容编辑', permission: 2 };

const sessions: AdminSession[] = [
  {
    id: 'a'.repeat(32),
    createdAt: 1_700_000_000_000,
    lastSeenAt: 1_700_000_100_000,
    expiresAt: 1_800_000_000_000,
    ip: '10.0.0.1',
    browser: 'Chrome 120 · Windows',
    current: true,
  },
  {
    id: 'b'.repeat(32),
    createdAt: 1_700_000_000_000,
    lastSeenAt: 1_700_000_200_000,
    expiresAt: 1_800_000_000_000,
    ip: '10.0.0.2',
    browser: 'Firefox 121 · Linux',
    current: false,
  },
];
const logins: LoginRecord[] = [
  { id: 2, at: 1_700_000_300_000, ip: '10.0.0.9', browser: 'Safari 17 · macOS', succeeded: false, result: '动态验证码错误' },
  { id: 1, at: 1_700_000_200_000, ip: '10.0.0.1', browser: 'Chrome 120 · Windows', succeeded: true, result: '登录成功' },
];

let me: WhoAmI;
let handle: (req: FakeRequest) => FakeReply | undefined;
const sent = installFakeNetwork((req) => {
  const special = handle(req);
  if (special) return special;
  if (req.url === '/api/admin/whoami') return { status: 200, body: envelope(me) };
  if (req.method === 'GET' && req.url === '/api/admin/me/sessions') return { status: 200, body: envelope(sessions) };
  if (req.method === 'GET' && req.url.startsWith('/api/admin/me/logins')) {
    return { status: 200, body: envelope({ currentPage: 1, eachPage: 10, count: 2, totalPage: 1, data: logins }) };
  }
  if (req.method === 'GET' && req.url === '/api/settings/security') return { status: 200, body: envelope({ require2fa: false }) };
  // The home page's charts draw on a canvas, which jsdom lacks: its figures stay away.
  return refusal(404, '请求的资源不存在');
});

beforeEach(() => {
  me = root;
  handle = () => undefined;
  sent.length = 0;
  localStorage.setItem('adminToken', 'live-token');
});

const calls = (method: string, url: string) => sent.filter((r) => r.method === method && r.url === url);
const headerName = () => document.querySelector('.umi-plugin-layout-name')?.textContent;

async function openSettings(tab?: string) {
  render(<TestBrowser location={{ pathname: '/settings', search: tab ? `?tab=${tab}` : '' }} />);
  await screen.findByRole('tab', { name: '基本资料' }, { timeout: 10_000 });
}

async function click(element: HTMLElement) {
  await act(async () => {
    fireEvent.click(element);
  });
}

function type(label: string | RegExp, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

describe('个人设置', () => {
  it('is reached from the header’s avatar menu, beside 退出登录', async () => {
    render(<TestBrowser location={{ pathname: '/home' }} />);
    await screen.findByText(`欢迎回来，${root.nickname}`, {}, { timeout: 10_000 });

    // The header's account menu is a chunk of its own (it stays off /login).
    await waitFor(() => expect(document.querySelector('.umi-plugin-layout-action')).not.toBeNull(), { timeout: 10_000 });
    fireEvent.mouseEnter(document.querySelector('.umi-plugin-layout-action') as HTMLElement);
    expect(await screen.findByText('退出登录')).toBeInTheDocument();
    await click(await screen.findByText('个人设置'));

    await waitFor(() => expect(history.location.pathname).toBe('/settings'));
    // The keyboard reaches it too: the trigger is a button named for the account.
    const trigger = screen.getByRole('button', { name: `账号菜单：${root.nickname}` });
    expect(trigger.tagName).toBe('BUTTON');
    expect(await screen.findByRole('tab', { name: '两步验证' }, { timeout: 10_000 })).toBeInTheDocument();
  });

  it('基本资料 sends only the changed nickname to PATCH /api/admin/me and the header follows', async () => {
    handle = (req) =>
      req.method === 'PATCH' && req.url === '/api/admin/me' ? { status: 200, body: envelope({ ...root, nickname: '新名字' }) } : undefined;
    await openSettings();
    await waitFor(() => expect(headerName()).toBe('超级管理员'));

    type('昵称', '新名字');
    await click(screen.getByRole('button', { name: '保存' }));

    expect(await screen.findByText('个人资料已保存')).toBeInTheDocument();
    expect(calls('PATCH', '/api/admin/me')[0].body).toEqual({ nickname: '新名字' });
    await waitFor(() => expect(headerName()).toBe('新名字'));
    // The header follows initialState: no second whoami.
    expect(calls('GET', '/api/admin/whoami')).toHaveLength(1);
  });

  it('修改密码 rates the new password and says why it would be refused as it is typed', async () => {
    await openSettings('password');

    expect(screen.getByText('至少 8 个字符，不能是常见密码，不能包含账号或昵称')).toBeInTheDocument();
    type('新密码', 'abc');
    expect(await screen.findByText('密码至少 8 个字符')).toBeInTheDocument();
    expect(screen.getByText('密码强度：弱')).toBeInTheDocument();

    type('新密码', 'myroot-2024!');
    expect(await screen.findByText('密码不能包含账号')).toBeInTheDocument();

    type('新密码', 'Kq7#vLp2!xZt9m');
    await waitFor(() => expect(screen.queryByText(/^密码不能|^密码至少/)).toBeNull());
    expect(screen.getByText('密码强度：强')).toBeInTheDocument();

    // The same as the current one is no change (and would lift the first sign-in's must-change).
    type('当前密码', 'Kq7#vLp2!xZt9m');
    expect(await screen.findByText('新密码不能与当前密码相同')).toBeInTheDocument();
  });

  it('修改密码 sends the current and new password; a wrong current password keeps the form with the server’s message', async () => {
    let answer: FakeReply = refusal(400, '当前密码不正确');
    handle = (req) => (req.method === 'POST' && req.url === '/api/admin/me/password' ? answer : undefined);
    await openSettings('password');

    type('当前密码', 'old-secret');
    type('新密码', 'Kq7#vLp2!xZt9m');
    type('确认新密码', 'Kq7#vLp2!xZt9');
    await click(screen.getByRole('button', { name: '修改密码' }));
    expect(await screen.findByText('两次输入的密码不一致')).toBeInTheDocument();
    expect(calls('POST', '/api/admin/me/password')).toHaveLength(0);

    type('确认新密码', 'Kq7#vLp2!xZt9m');
    await click(screen.getByRole('button', { name: '修改密码' }));
    expect(await screen.findByText('当前密码不正确')).toBeInTheDocument();
    expect(calls('POST', '/api/admin/me/password')[0].body).toEqual({ currentPassword: 'old-secret', newPassword: 'Kq7#vLp2!xZt9m' });
    expect(screen.getByLabelText('当前密码')).toHaveValue('old-secret');

    answer = { status: 200, body: envelope(null) };
    await click(screen.getByRole('button', { name: '修改密码' }));
    expect(await screen.findByText('密码已修改，其他设备已退出登录')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText('当前密码')).toHaveValue(''));
  });

  it('两步验证: setup shows the QR code and secret, a code enables it, the recovery codes are shown once', async () => {
    const codes = Array.from({ length: 10 }, (_, i) => `rc-${i}-abcd`);
    let enableAnswer: FakeReply = refusal(400, '动态验证码不正确');
    handle = (req) => {
      if (req.url === '/api/admin/me/2fa/setup') {
        return {
          status: 200,
          body: envelope({ secret: 'JBSWY3DPEHPK3PXP', otpauthUrl: 'otpauth://totp/coder%20station:root?secret=JBSWY3DPEHPK3PXP' }),
        };
      }
      if (req.url === '/api/admin/me/2fa/enable') return enableAnswer;
      return undefined;
    };
    await openSettings('twoFactor');

    expect(await screen.findByText('未开启')).toBeInTheDocument();
    await click(screen.getByRole('button', { name: '开启两步验证' }));
    expect(await screen.findByText('JBSWY3DPEHPK3PXP')).toBeInTheDocument();
    expect(await screen.findByLabelText('两步验证二维码', {}, { timeout: 10_000 })).toBeInTheDocument();

    fireEvent.change(screen.getByPlaceholderText('6 位动态验证码'), { target: { value: '123456' } });
    await click(screen.getByRole('button', { name: '启用' }));
    expect(await screen.findByText('动态验证码不正确')).toBeInTheDocument();
    expect(screen.getByText('JBSWY3DPEHPK3PXP')).toBeInTheDocument();

    enableAnswer = { status: 200, body: envelope({ recoveryCodes: codes }) };
    me = { ...root, twoFactorEnabled: true };
    await click(screen.getByRole('button', { name: '启用' }));
    expect(await screen.findByText('两步验证已开启')).toBeInTheDocument();
    for (const code of codes) expect(screen.getByText(code)).toBeInTheDocument();
    expect(calls('POST', '/api/admin/me/2fa/enable').map((r) => r.body)).toEqual([{ code: '123456' }, { code: '123456' }]);

    await click(screen.getByRole('button', { name: '我已保存' }));
    expect(await screen.findByText('已开启')).toBeInTheDocument();
    expect(screen.queryByText(codes[0])).toBeNull();
  });

  it('两步验证 is turned off with the current password and a code', async () => {
    me = { ...root, twoFactorEnabled: true };
    handle = (req) => {
      if (req.url === '/api/admin/me/2fa/disable') {
        me = { ...root, twoFactorEnabled: false };
        return { status: 200, body: envelope(null) };
      }
      return undefined;
    };
    await openSettings('twoFactor');

    expect(await screen.findByText('已开启')).toBeInTheDocument();
    type('当前密码', 'my-password');
    type('动态验证码', '654321');
    await click(screen.getByRole('button', { name: '关闭两步验证' }));

    expect(await screen.findByText('两步验证已关闭')).toBeInTheDocument();
    expect(calls('POST', '/api/admin/me/2fa/disable')[0].body).toEqual({ currentPassword: 'my-password', code: '654321' });
    expect(await screen.findByText('未开启')).toBeInTheDocument();
  });

  it('两步验证 on: shows the recovery codes left and regenerates them with the password or a code, the new ones once', async () => {
    me = { ...root, twoFactorEnabled: true };
    const fresh = Array.from({ length: 10 }, (_, i) => `new-${i}-code`);
    let remaining = 3;
    let answer: FakeReply = refusal(400, '当前密码不正确');
    handle = (req) => {
      if (req.method === 'GET' && req.url === '/api/admin/me/2fa/recovery-codes') return { status: 200, body: envelope({ remaining }) };
      if (req.method === 'POST' && req.url === '/api/admin/me/2fa/recovery-codes') return answer;
      return undefined;
    };
    await openSettings('twoFactor');
    expect(await screen.findByText(/剩余恢复码：3 个/)).toBeInTheDocument();
    expect(screen.getByText('（快用完了，建议重新生成）')).toBeInTheDocument();

    await click(screen.getByRole('button', { name: '重新生成恢复码' }));
    // The form beside 关闭两步验证's own 当前密码 and 动态验证码 fields.
    const form = () => within(screen.getByRole('form', { name: '重新生成恢复码' }));
    fireEvent.change(form().getByLabelText('当前密码'), { target: { value: 'wrong' } });
    await click(screen.getByRole('button', { name: '生成新的恢复码' }));
    expect(await screen.findByText('当前密码不正确')).toBeInTheDocument();

    await click(form().getByLabelText('用动态验证码'));
    fireEvent.change(form().getByLabelText('动态验证码'), { target: { value: '112233' } });
    answer = { status: 200, body: envelope({ recoveryCodes: fresh }) };
    remaining = 10;
    await click(screen.getByRole('button', { name: '生成新的恢复码' }));
    expect(await screen.findByText('已生成新的恢复码', { selector: '.ant-result-title' })).toBeInTheDocument();
    expect(screen.getByText(/之前的恢复码已全部失效/)).toBeInTheDocument();
    for (const code of fresh) expect(screen.getByText(code)).toBeInTheDocument();
    expect(calls('POST', '/api/admin/me/2fa/recovery-codes').map((r) => r.body)).toEqual([
      { currentPassword: 'wrong' },
      { code: '112233' },
    ]);

    await click(screen.getByRole('button', { name: '我已保存' }));
    expect(await screen.findByText(/剩余恢复码：10 个/)).toBeInTheDocument();
    expect(screen.queryByText(fresh[0])).toBeNull();
  });

  it('登录设备 lists the sessions, marks this one, ends another and all the others', async () => {
    handle = (req) => (req.method === 'DELETE' ? { status: 200, body: envelope(null) } : undefined);
    await openSettings('sessions');

    const current = (await screen.findByText('Chrome 120 · Windows')).closest('tr') as HTMLElement;
    expect(within(current).getByText('当前设备')).toBeInTheDocument();
    expect(within(current).queryByText('退出')).toBeNull();
    const other = screen.getByText('Firefox 121 · Linux').closest('tr') as HTMLElement;
    expect(within(other).getByText('10.0.0.2')).toBeInTheDocument();

    await click(within(other).getByText('退出'));
    await click(await screen.findByRole('button', { name: '确定' }));
    expect(await screen.findByText('该设备已退出登录')).toBeInTheDocument();
    expect(calls('DELETE', `/api/admin/me/sessions/${'b'.repeat(32)}`)).toHaveLength(1);

    await click(screen.getByRole('button', { name: '退出其他所有设备' }));
    const confirm = await screen.findAllByRole('button', { name: '确定' });
    await click(confirm[confirm.length - 1]);
    await waitFor(() => expect(calls('DELETE', '/api/admin/me/sessions')).toHaveLength(1));
  });

  it('登录记录 pages the sign-ins with time, address, browser and result', async () => {
    await openSettings('logins');

    expect(await screen.findByText('动态验证码错误')).toBeInTheDocument();
    expect(screen.getByText('登录成功')).toBeInTheDocument();
    expect(screen.getByText('Safari 17 · macOS')).toBeInTheDocument();
    expect(sent.some((r) => r.url === '/api/admin/me/logins?current=1&pageSize=10')).toBe(true);
  });

  it('安全设置 is a super admin’s tab whose switch sends PATCH /api/settings/security', async () => {
    handle = (req) => (req.method === 'PATCH' ? { status: 200, body: envelope({ require2fa: true }) } : undefined);
    await openSettings('security');

    const toggle = await screen.findByRole('switch', { name: '要求所有管理员开启两步验证' });
    await click(toggle);

    expect(await screen.findByText('已要求所有管理员开启两步验证')).toBeInTheDocument();
    expect(calls('PATCH', '/api/settings/security')[0].body).toEqual({ require2fa: true });
    expect(toggle).toBeChecked();
  });

  it('通知 lists the hooks, creates a 通用 JSON one and shows its secret once, and opens its 投递记录', async () => {
    const hook = {
      _id: '65f1a2b3c4d5e6f708192b01',
      name: '值班群',
      kind: 'json',
      url: 'https://hooks.example.com/moderation',
      hasSecret: true,
      events: ['item.waiting'],
      enabled: true,
      createdAt: 1_700_000_000_000,
      lastDelivery: { state: 'delivered', at: 1_700_000_100_000, status: 200 },
    };
    let hooks: unknown[] = [];
    handle = (req) => {
      if (req.method === 'GET' && req.url === '/api/settings/webhooks') return { status: 200, body: envelope(hooks) };
      if (req.method === 'POST' && req.url === '/api/settings/webhooks') {
        hooks = [hook];
        return { status: 201, body: envelope({ webhook: hook, secret: 'shown-once-secret' }) };
      }
      if (req.method === 'GET' && req.url.startsWith(`/api/settings/webhooks/${hook._id}/deliveries`)) {
        const delivery = {
          _id: 7,
          event: 'item.waiting',
          state: 'failed',
          attempts: 8,
          nextAttemptAt: 1,
          lastStatus: 503,
          lastError: 'HTTP 503',
          lastDurationMs: 12,
          createdAt: 1_700_000_000_000,
          deliveredAt: null,
        };
        return { status: 200, body: envelope({ currentPage: 1, eachPage: 10, count: 1, totalPage: 1, data: [delivery] }) };
      }
      return undefined;
    };
    await openSettings('notifications');
    expect(await screen.findByRole('tab', { name: '通知', selected: true })).toBeInTheDocument();

    await click(await screen.findByRole('button', { name: '新建通知' }));
    const dialog = await screen.findByRole('dialog', { name: '新建通知' });
    type('名称', '值班群');
    fireEvent.mouseDown(within(dialog).getByLabelText('类型'));
    await click(await screen.findByTitle('通用 JSON'));
    type('地址', 'https://hooks.example.com/moderation');
    await click(within(dialog).getByRole('button', { name: /保\s*存/ }));

    expect(await screen.findByTestId('webhook-secret', {}, { timeout: 5_000 })).toHaveTextContent('shown-once-secret');
    expect(calls('POST', '/api/settings/webhooks')[0].body).toEqual({
      name: '值班群',
      kind: 'json',
      url: 'https://hooks.example.com/moderation',
      events: ['item.waiting'],
      enabled: true,
    });
    await click(screen.getByRole('button', { name: '我已保存' }));
    expect(await screen.findByText('值班群')).toBeInTheDocument();

    await click(screen.getByRole('button', { name: '投递记录 值班群' }));
    expect(await screen.findByText('HTTP 503')).toBeInTheDocument();
    expect(screen.getByText('503')).toBeInTheDocument();
  });

  it('通知 is not offered to a normal admin', async () => {
    me = editor;
    await openSettings('notifications');
    expect(screen.queryByRole('tab', { name: '通知' })).toBeNull();
  });

  it('安全设置 is not offered to a normal admin', async () => {
    me = editor;
    await openSettings('security');

    expect(screen.queryByRole('tab', { name: '安全设置' })).toBeNull();
    expect(screen.getByRole('tab', { name: '基本资料', selected: true })).toBeInTheDocument();
  });
});

describe('required two-step sign-in', () => {
  it('leads an admin whose whoami says mustSetUp2fa to 两步验证 and keeps them there', async () => {
    me = { ...editor, mustSetUp2fa: true };
    render(<TestBrowser location={{ pathname: '/home' }} />);

    await waitFor(() => expect(`${history.location.pathname}${history.location.search}`).toBe('/settings?tab=twoFactor'), {
      timeout: 10_000,
    });
    expect(
      await screen.findByText('系统要求所有管理员开启两步验证，开启后才能使用其他功能；已添加通行密钥的管理员也可以退出后用通行密钥登录。'),
    ).toBeInTheDocument();

    await act(async () => {
      history.push('/book/bookList');
    });
    await waitFor(() => expect(`${history.location.pathname}${history.location.search}`).toBe('/settings?tab=twoFactor'));
  });

  it('follows the server’s 403 right after signing in, when the session does not carry the flag yet', async () => {
    handle = (req) =>
      req.url.startsWith('/api/stats')
        ? refusal(403, '管理员要求开启两步验证，请先在个人设置中开启', 'TWO_FACTOR_SETUP_REQUIRED')
        : undefined;
    render(<TestBrowser location={{ pathname: '/home' }} />);

    await waitFor(() => expect(`${history.location.pathname}${history.location.search}`).toBe('/settings?tab=twoFactor'), {
      timeout: 10_000,
    });
    expect(await screen.findByText('管理员要求开启两步验证，请先在个人设置中开启')).toBeInTheDocument();
  });
});

describe('个人设置 → 通行密钥', () => {
  const passkey = {
    _id: '65f1a2b3c4d5e6f708192b01',
    name: '办公室电脑',
    createdAt: 1_700_000_000_000,
    lastUsedAt: null,
    transports: ['internal'],
  };

  it('lists the passkeys, renames one through the dialog and removes one behind a confirmation', async () => {
    let list = [passkey];
    handle = (req) => {
      if (req.method === 'GET' && req.url === '/api/admin/me/passkeys') return { status: 200, body: envelope(list) };
      if (req.method === 'PATCH' && req.url === `/api/admin/me/passkeys/${passkey._id}`) {
        list = [{ ...passkey, name: (req.body as { name: string }).name }];
        return { status: 200, body: envelope(list[0]) };
      }
      if (req.method === 'DELETE' && req.url === `/api/admin/me/passkeys/${passkey._id}`) {
        list = [];
        return { status: 200, body: envelope(null) };
      }
      return undefined;
    };
    await openSettings('passkeys');
    expect(await screen.findByText('办公室电脑', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByText('从未使用')).toBeInTheDocument();
    // jsdom has no WebAuthn: the page says so and offers no button that cannot work.
    expect(screen.getByText('当前浏览器不支持通行密钥')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '添加通行密钥' })).toBeDisabled();

    await click(screen.getByRole('button', { name: '重命名 办公室电脑' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByLabelText('名称')).toHaveValue('办公室电脑');
    fireEvent.change(within(dialog).getByLabelText('名称'), { target: { value: ' 家里的电脑 ' } });
    await click(within(dialog).getByRole('button', { name: '保存' }));
    expect(await screen.findByText('通行密钥已重命名')).toBeInTheDocument();
    expect(calls('PATCH', `/api/admin/me/passkeys/${passkey._id}`)[0].body).toEqual({ name: '家里的电脑' });
    expect(await screen.findByText('家里的电脑')).toBeInTheDocument();

    await click(screen.getByRole('button', { name: '删除' }));
    expect(await screen.findByText('确定删除通行密钥「家里的电脑」？删除后不能再用它登录。')).toBeInTheDocument();
    await click(within(screen.getByRole('tooltip')).getByRole('button', { name: /删\s*除/ }));
    expect(await screen.findByText('通行密钥已删除')).toBeInTheDocument();
    expect(await screen.findByText('还没有通行密钥')).toBeInTheDocument();
  });
});
