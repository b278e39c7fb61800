import { TestBrowser } from '@@/testBrowser';
import { history } from '@umijs/max';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { envelope, type FakeReply, type FakeRequest, installFakeNetwork, refusal } from '@/testing/fakeNetwork';
import { EDITOR_ADMIN, ROOT_ADMIN } from '@/testing/admins';
import type { Admin } from '#contract/admin';
import { confirmButton } from '@/testing/listScreen';

const me: Admin = { ...ROOT_ADMIN };
const editor: Admin = { ...EDITOR_ADMIN };

let admins: Admin[];
let handle: (req: FakeRequest) => FakeReply | undefined;
const sent = installFakeNetwork((req) => {
  const special = handle(req);
  if (special) return special;
  if (req.url === '/api/admin/whoami') return { status: 200, body: envelope(me) };
  if (req.method === 'GET' && req.url === '/api/admin') return { status: 200, body: envelope(admins) };
  return refusal(404, '请求的资源不存在');
});

beforeEach(() => {
  admins = [me, editor];
  handle = () => undefined;
  sent.length = 0;
  localStorage.setItem('adminToken', 'live-token');
});

async function open(path: string) {
  render(<TestBrowser location={{ pathname: path }} />);
}

const rowOf = (loginId: string) => screen.getByText(loginId, { selector: 'td' }).closest('tr') as HTMLElement;

/** The toasts on screen saying exactly `text`. */
const toastsSaying = (text: string) =>
  Array.from(document.querySelectorAll('.ant-message-notice')).filter((notice) => notice.textContent === text);

describe('admin list', () => {
  it('shows 「当前账号」 instead of the switch and no delete on the signed-in admin’s own row', async () => {
    await open('/admin/adminList');
    await screen.findByText('editor', { selector: 'td' }, { timeout: 10_000 });

    const own = within(rowOf('root'));
    expect(own.getByText('当前账号', { selector: '.ant-tag' })).toBeInTheDocument();
    expect(own.queryByRole('switch')).toBeNull();
    expect(own.queryByRole('button', { name: '删除' })).toBeNull();
    expect(own.queryByRole('button', { name: /更多/ })).toBeNull();
    expect(own.getByRole('button', { name: '编辑' })).toBeInTheDocument();

    const other = within(rowOf('editor'));
    expect(other.getByRole('switch')).toBeChecked();
    expect(other.getByRole('button', { name: '删除' })).toBeInTheDocument();
    expect(other.getByRole('button', { name: '历史' })).toBeInTheDocument();
    expect(other.getByRole('button', { name: /更多/ })).toBeInTheDocument();
    expect(other.getByText('普通管理员')).toBeInTheDocument();
    expect(own.getByText('超级管理员', { selector: '.ant-tag' })).toBeInTheDocument();
    expect(screen.queryByText('登录密码')).toBeNull();
  });

  it('disables an admin through PATCH {enabled}, re-fetches it and says so', async () => {
    handle = (req) => {
      if (req.method === 'PATCH') return { status: 200, body: envelope({ ...editor, enabled: false }) };
      if (req.method === 'GET' && req.url === `/api/admin/${editor._id}`) {
        return { status: 200, body: envelope({ ...editor, enabled: false }) };
      }
      return undefined;
    };
    await open('/admin/adminList');
    await screen.findByText('editor', { selector: 'td' }, { timeout: 10_000 });

    await act(async () => {
      fireEvent.click(within(rowOf('editor')).getByRole('switch'));
    });

    expect(await screen.findByText('该管理员已被禁用')).toBeInTheDocument();
    expect(sent.find((r) => r.method === 'PATCH')?.body).toEqual({ enabled: false });
    await waitFor(() => expect(within(rowOf('editor')).getByRole('switch')).not.toBeChecked());
  });

  it('says once why the list could not load, stops spinning, and loads on 刷新', async () => {
    handle = (req) => (req.method === 'GET' && req.url === '/api/admin' ? refusal(500, '服务器内部错误，请稍后重试') : undefined);
    await open('/admin/adminList');

    expect(await screen.findByText('服务器内部错误，请稍后重试', {}, { timeout: 10_000 })).toBeInTheDocument();
    await waitFor(() => expect(document.querySelector('.ant-table-wrapper .ant-spin-spinning')).toBeNull());
    expect(toastsSaying('服务器内部错误，请稍后重试')).toHaveLength(1);

    // A failed effect leaves dva's watcher alive: the same effect runs again.
    handle = () => undefined;
    await act(async () => {
      fireEvent.click(screen.getByLabelText('reload'));
    });
    expect(await screen.findByText('editor', { selector: 'td' })).toBeInTheDocument();
  });

  it('deletes an admin after the confirmation and the server’s yes', async () => {
    handle = (req) => (req.method === 'DELETE' ? { status: 200, body: envelope(null) } : undefined);
    await open('/admin/adminList');
    await screen.findByText('editor', { selector: 'td' }, { timeout: 10_000 });

    fireEvent.click(within(rowOf('editor')).getByText('删除'));
    expect(await screen.findByText('你确定要删除？')).toBeInTheDocument();
    await act(async () => {
      fireEvent.click(confirmButton('删除'));
    });

    expect(await screen.findByText('该管理员已删除')).toBeInTheDocument();
    expect(sent.find((r) => r.method === 'DELETE')?.url).toBe(`/api/admin/${editor._id}`);
    await waitFor(() => expect(screen.queryByText('editor', { selector: 'td' })).toBeNull());
  });
});

describe('add admin', () => {
  const fill = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

  it('warns on blur when the account is taken', async () => {
    handle = (req) => (req.url === '/api/admin/adminIsExist/editor' ? { status: 200, body: envelope(true) } : undefined);
    await open('/admin/addAdmin');
    await screen.findByLabelText('管理员账号', {}, { timeout: 10_000 });

    fill('管理员账号', 'editor');
    fireEvent.blur(screen.getByLabelText('管理员账号'));

    expect(await screen.findByText('该管理员已经注册过了')).toBeInTheDocument();
  });

  it('says at the field that an account cannot hold a space, without asking the server', async () => {
    await open('/admin/addAdmin');
    await screen.findByLabelText('管理员账号', {}, { timeout: 10_000 });

    fill('管理员账号', 'bad name');
    fireEvent.blur(screen.getByLabelText('管理员账号'));

    expect(await screen.findByText('管理员账号不能包含空格或不可见字符')).toBeInTheDocument();
    expect(sent.filter((r) => r.url.startsWith('/api/admin/adminIsExist/'))).toEqual([]);
    // The nickname field stops where the server does.
    expect(screen.getByLabelText('管理员昵称')).toHaveAttribute('maxLength', '32');
  });

  it('重置 empties the form without sending anything', async () => {
    await open('/admin/addAdmin');
    await screen.findByLabelText('管理员账号', {}, { timeout: 10_000 });
    fill('管理员账号', 'someone');
    fill('管理员昵称', '某人');

    fireEvent.click(screen.getByRole('button', { name: '重置' }));

    await waitFor(() => expect(screen.getByLabelText('管理员账号')).toHaveValue(''));
    expect(screen.getByLabelText('管理员昵称')).toHaveValue('');
    expect(sent.filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('on a refusal shows the server’s message once, keeps the form and adds nothing to the list', async () => {
    handle = (req) => {
      if (req.url.startsWith('/api/admin/adminIsExist/')) return { status: 200, body: envelope(false) };
      if (req.method === 'POST' && req.url === '/api/admin') return refusal(400, '头像地址不正确');
      return undefined;
    };
    await open('/admin/addAdmin');
    await screen.findByLabelText('管理员账号', {}, { timeout: 10_000 });
    fill('管理员账号', 'newbie');

    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: '确认新增' }));
    });

    expect(await screen.findByText('头像地址不正确')).toBeInTheDocument();
    expect(toastsSaying('头像地址不正确')).toHaveLength(1);
    expect(document.querySelectorAll('.ant-message-notice')).toHaveLength(1);
    expect(screen.queryByText('添加管理员成功')).toBeNull();
    expect(history.location.pathname).toBe('/admin/addAdmin');
    expect(screen.getByLabelText('管理员账号')).toHaveValue('newbie');

    await act(async () => {
      history.push('/admin/adminList');
    });
    expect(await screen.findByText('editor', { selector: 'td' })).toBeInTheDocument();
    expect(screen.queryByText('newbie', { selector: 'td' })).toBeNull();
  });

  it('posts only the filled fields, shows a generated password once, then opens the list', async () => {
    const created = { ...editor, _id: '65f1a2b3c4d5e6f708192a03', loginId: 'newbie', nickname: '新增管理员' };
    handle = (req) => {
      if (req.url.startsWith('/api/admin/adminIsExist/')) return { status: 200, body: envelope(false) };
      if (req.method === 'POST' && req.url === '/api/admin') {
        return { status: 201, body: envelope({ ...created, initialPassword: 'Gen-Pass-0001' }) };
      }
      return undefined;
    };
    await open('/admin/addAdmin');
    await screen.findByLabelText('管理员账号', {}, { timeout: 10_000 });
    fill('管理员账号', 'newbie');

    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: '确认新增' }));
    });

    expect(await screen.findByText('添加管理员成功')).toBeInTheDocument();
    expect(sent.find((r) => r.method === 'POST')?.body).toEqual({ loginId: 'newbie', permission: 2 });
    expect(await screen.findByText('Gen-Pass-0001')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /复制/ })).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: '我已保存' }));
    await waitFor(() => expect(history.location.pathname).toBe('/admin/adminList'));
    expect(await screen.findByText('newbie', { selector: 'td' })).toBeInTheDocument();
  });
});
