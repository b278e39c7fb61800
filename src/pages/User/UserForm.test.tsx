import { TestBrowser } from '@@/testBrowser';
import { history } from '@umijs/max';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { envelope, type FakeReply, type FakeRequest, installFakeNetwork, refusal } from '@/testing/fakeNetwork';
import type { WhoAmI } from '#contract/admin';
import type { User } from '#contract/user';

const me: WhoAmI = { _id: '65f1a2b3c4d5e6f708192a02', loginId: 'editor', nickname: '内容编辑', avatar: '', permission: 2 };

const alice: User = {
  _id: '65f1a2b3c4d5e6f708192c01',
  version: 1,
  loginId: 'alice',
  nickname: '爱丽丝',
  avatar: '/static/uploads/alice.png',
  mail: 'alice@example.com',
  qq: '',
  wechat: 'alice_wx',
  intro: '前端工程师',
  points: 120,
  enabled: true,
  reviewFirst: false,
  registerDate: 1_700_000_000_000,
  lastLoginDate: 1_700_000_000_000,
};

let users: User[];
let handle: (req: FakeRequest) => FakeReply | undefined;
const sent = installFakeNetwork((req) => {
  const special = handle(req);
  if (special) return special;
  if (req.url === '/api/admin/whoami') return { status: 200, body: envelope(me) };
  if (req.method === 'GET' && req.url.startsWith('/api/user?')) {
    return { status: 200, body: envelope({ currentPage: 1, eachPage: 10, count: users.length, totalPage: 1, data: users }) };
  }
  if (req.method === 'GET' && req.url.startsWith('/api/user/userIsExist/')) {
    const loginId = decodeURIComponent(req.url.split('/').pop() ?? '');
    return { status: 200, body: envelope(users.some((u) => u.loginId === loginId)) };
  }
  return refusal(404, '请求的资源不存在');
});

beforeEach(() => {
  users = [alice];
  handle = () => undefined;
  sent.length = 0;
  localStorage.setItem('adminToken', 'live-token');
});

const fill = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

async function openAddUser() {
  render(<TestBrowser location={{ pathname: '/user/addUser' }} />);
  await screen.findByLabelText('登录账号', {}, { timeout: 10_000 });
}

async function submit(name: string) {
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name }));
  });
}

describe('add user', () => {
  it('asks for the account and checks the e-mail and QQ formats before sending anything', async () => {
    await openAddUser();
    fill('用户邮箱', 'not-a-mail');
    fill('QQ号码', '12ab5');

    await submit('确认新增');

    expect(await screen.findByText('请输入登录账号')).toBeInTheDocument();
    expect(screen.getByText('请输入正确的邮箱地址')).toBeInTheDocument();
    expect(screen.getByText('QQ号码应为 5 到 12 位数字')).toBeInTheDocument();
    expect(sent.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('refuses an account with a space inside but not around it', async () => {
    await openAddUser();

    fill('登录账号', 'al ice');
    expect(await screen.findByText('登录账号不能包含空格或不可见字符')).toBeInTheDocument();
    fill('登录账号', ' alice2 ');
    await waitFor(() => expect(screen.queryByText('登录账号不能包含空格或不可见字符')).toBeNull());
  });

  it('says so on blur when the account is taken', async () => {
    await openAddUser();

    fill('登录账号', 'alice');
    fireEvent.blur(screen.getByLabelText('登录账号'));

    expect(await screen.findByText('该用户已存在')).toBeInTheDocument();
    expect(sent.some((r) => r.url === '/api/user/userIsExist/alice')).toBe(true);
  });

  it('posts only the filled fields, shows a generated password once, then opens the list', async () => {
    const created: User = {
      ...alice,
      _id: '65f1a2b3c4d5e6f708192c02',
      loginId: 'bob',
      nickname: '新用户123456',
      avatar: '',
      mail: 'bob@example.com',
      wechat: '',
      intro: '',
    };
    handle = (req) => {
      if (req.method === 'POST' && req.url === '/api/user') {
        users = [created, ...users];
        return { status: 201, body: envelope({ ...created, initialPassword: 'Gen-Pass-0002' }) };
      }
      return undefined;
    };
    await openAddUser();
    fill('登录账号', ' bob ');
    fill('用户邮箱', 'bob@example.com');
    fill('QQ号码', '123456');

    await submit('确认新增');

    expect(await screen.findByText('添加用户成功')).toBeInTheDocument();
    expect(sent.find((r) => r.method === 'POST')?.body).toEqual({ loginId: 'bob', mail: 'bob@example.com', qq: '123456' });
    expect(await screen.findByText('Gen-Pass-0002')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /复制/ })).toBeInTheDocument();
    expect(history.location.pathname).toBe('/user/addUser');

    fireEvent.click(screen.getByRole('button', { name: '我已保存' }));
    await waitFor(() => expect(history.location.pathname).toBe('/user/userList'));
    expect(await screen.findByText('bob', { selector: 'td' })).toBeInTheDocument();
  });

  it('goes straight to the list when the password was given', async () => {
    handle = (req) =>
      req.method === 'POST' ? { status: 201, body: envelope({ ...alice, _id: '65f1a2b3c4d5e6f708192c03', loginId: 'carol' }) } : undefined;
    await openAddUser();
    fill('登录账号', 'carol');
    fill('登录密码', 'secret-123');

    await submit('确认新增');

    expect(await screen.findByText('添加用户成功')).toBeInTheDocument();
    expect(sent.find((r) => r.method === 'POST')?.body).toEqual({ loginId: 'carol', loginPwd: 'secret-123' });
    await waitFor(() => expect(history.location.pathname).toBe('/user/userList'));
    expect(screen.queryByText('请保存初始密码')).toBeNull();
  });

  it('keeps the form and shows the server’s refusal', async () => {
    handle = (req) => (req.method === 'POST' ? refusal(409, '该用户已存在') : undefined);
    await openAddUser();
    fill('登录账号', 'dave');

    await submit('确认新增');

    expect(await screen.findByText('该用户已存在')).toBeInTheDocument();
    expect(history.location.pathname).toBe('/user/addUser');
    expect(screen.getByLabelText('登录账号')).toHaveValue('dave');
  });
});

describe('edit user', () => {
  async function openEditUser(id = alice._id) {
    render(<TestBrowser location={{ pathname: `/user/editUser/${id}` }} />);
  }

  beforeEach(() => {
    handle = (req) => {
      if (req.method === 'GET' && req.url === `/api/user/${alice._id}`) return { status: 200, body: envelope(alice) };
      if (req.method === 'PATCH') return { status: 200, body: envelope({ ...alice, ...(req.body as object) }) };
      return undefined;
    };
  });

  it('loads the user into the form with the account read-only and the password empty', async () => {
    await openEditUser();

    await waitFor(() => expect(screen.getByLabelText('登录账号')).toHaveValue('alice'), { timeout: 10_000 });
    expect(screen.getByLabelText('登录账号')).toBeDisabled();
    expect(screen.getByLabelText('登录密码')).toHaveValue('');
    expect(screen.getByLabelText('用户昵称')).toHaveValue('爱丽丝');
    expect(screen.getByLabelText('头像地址')).toHaveValue('/static/uploads/alice.png');
    expect(screen.getByLabelText('用户邮箱')).toHaveValue('alice@example.com');
    expect(screen.getByLabelText('微信号')).toHaveValue('alice_wx');
    expect(screen.getByLabelText('自我介绍')).toHaveValue('前端工程师');
  });

  it('sends only the changed fields through PATCH, says so and goes back to the list', async () => {
    await openEditUser();
    await waitFor(() => expect(screen.getByLabelText('用户昵称')).toHaveValue('爱丽丝'), { timeout: 10_000 });
    fill('用户昵称', '爱丽丝二号');
    fill('QQ号码', '10001');
    fill('微信号', '');

    await submit('确认修改');

    expect(await screen.findByText('信息修改成功')).toBeInTheDocument();
    const patch = sent.find((r) => r.method === 'PATCH');
    expect(patch?.url).toBe(`/api/user/${alice._id}`);
    expect(patch?.body).toEqual({ nickname: '爱丽丝二号', qq: '10001', wechat: '', version: 1 });
    await waitFor(() => expect(history.location.pathname).toBe('/user/userList'));
  });

  it('marks the member 先审后发 with its switch, sending only that change', async () => {
    await openEditUser();
    const toggle = await screen.findByRole('switch', { name: '先审后发' }, { timeout: 10_000 });
    expect(toggle).not.toBeChecked();
    fireEvent.click(toggle);

    await submit('确认修改');

    expect(await screen.findByText('信息修改成功')).toBeInTheDocument();
    expect(sent.find((r) => r.method === 'PATCH')?.body).toEqual({ reviewFirst: true, version: 1 });
  });

  it('sends a new password only when one is typed', async () => {
    await openEditUser();
    await waitFor(() => expect(screen.getByLabelText('登录密码')).toHaveValue(''), { timeout: 10_000 });
    fill('登录密码', 'new-secret');

    await submit('确认修改');

    expect(await screen.findByText('信息修改成功')).toBeInTheDocument();
    expect(sent.find((r) => r.method === 'PATCH')?.body).toEqual({ loginPwd: 'new-secret', version: 1 });
  });

  it('refuses a short password and an emptied nickname without sending', async () => {
    await openEditUser();
    await waitFor(() => expect(screen.getByLabelText('用户昵称')).toHaveValue('爱丽丝'), { timeout: 10_000 });
    fill('登录密码', '123');
    fill('用户昵称', '  ');

    await submit('确认修改');

    expect(await screen.findByText('密码长度至少 6 位')).toBeInTheDocument();
    expect(screen.getByText('请输入用户昵称')).toBeInTheDocument();
    expect(sent.filter((r) => r.method === 'PATCH')).toHaveLength(0);
  });

  it('shows the server’s message for a user that does not exist', async () => {
    handle = (req) => (req.url === '/api/user/65f1a2b3c4d5e6f708192c99' ? refusal(404, '用户不存在') : undefined);
    await openEditUser('65f1a2b3c4d5e6f708192c99');

    expect(await screen.findByText('用户不存在', { selector: '.ant-empty-description' }, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.queryByLabelText('登录账号')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: '返回用户列表' }));
    await waitFor(() => expect(history.location.pathname).toBe('/user/userList'));
  });
});
