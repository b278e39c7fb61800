import { TestBrowser } from '@@/testBrowser';
import { history } from '@umijs/max';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { envelope, installFakeNetwork, refusal, type FakeReply } from '@/testing/fakeNetwork';
import { CAPTCHA_SVG, stubCaptchaFetch } from '@/testing/captcha';

const superAdmin = {
  _id: '65f1a2b3c4d5e6f708192a3b',
  loginId: 'admin',
  nickname: '超级管理员',
  avatar: '/default-avatar.svg',
  permission: 1,
  enabled: true,
};

let loginReply: FakeReply;
const sent = installFakeNetwork((req) => {
  if (req.method === 'POST' && req.url === '/api/admin/login') return loginReply;
  if (req.url === '/api/admin/whoami') {
    return localStorage.getItem('adminToken') === 'live-token'
      ? { status: 200, body: envelope(superAdmin) }
      : refusal(401, '登录过期，请重新登录');
  }
  return refusal(404, '请求的资源不存在');
});
const captchaFetch = stubCaptchaFetch();

beforeEach(() => {
  sent.length = 0;
  localStorage.clear();
});

/** The whole app, with its real routes and providers, opened on /login. */
async function openLogin(search = '') {
  render(<TestBrowser location={{ pathname: '/login', search }} />);
  await screen.findByText('coder station 后台管理系统', {}, { timeout: 10_000 });
  await waitFor(() =>
    expect(document.querySelector('button[aria-label^="验证码"] img')?.getAttribute('src')).toBe(
      `data:image/svg+xml;charset=utf-8,${encodeURIComponent(CAPTCHA_SVG)}`,
    ),
  );
}

async function submit(loginId = 'admin', loginPwd = '123456', captcha = 'abcd') {
  fireEvent.change(screen.getByPlaceholderText('请输入账号'), { target: { value: loginId } });
  fireEvent.change(screen.getByPlaceholderText('请输入密码'), { target: { value: loginPwd } });
  fireEvent.change(screen.getByPlaceholderText('请输入验证码'), { target: { value: captcha } });
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: '登录' }));
  });
}

describe('login page', () => {
  it('shows the card, the fields, the captcha and 7天免登录 checked', async () => {
    await openLogin();

    expect(screen.getByPlaceholderText('请输入账号')).toBeInTheDocument();
    expect(screen.getByPlaceholderText('请输入密码')).toBeInTheDocument();
    expect(screen.getByPlaceholderText('请输入验证码')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: '7天免登录' })).toBeChecked();
    expect(captchaFetch).toHaveBeenCalledWith('/res/captcha', expect.objectContaining({ credentials: 'same-origin' }));
  });

  it('loads a new captcha when the captcha is clicked', async () => {
    await openLogin();

    fireEvent.click(screen.getByRole('button', { name: /验证码/ }));

    await waitFor(() => expect(captchaFetch).toHaveBeenCalledTimes(2));
  });

  it('sends the account, password, captcha and remember flag', async () => {
    loginReply = refusal(401, '账号或密码不正确');
    await openLogin();

    await submit('admin', 'secret', 'xYz9');

    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0].body).toEqual({ loginId: 'admin', loginPwd: 'secret', captcha: 'xYz9', remember: true });
  });

  it("shows the server's msg and a new captcha for a 400", async () => {
    loginReply = refusal(400, '验证码错误');
    await openLogin();

    await submit();

    expect(await screen.findByText('验证码错误')).toBeInTheDocument();
    await waitFor(() => expect(captchaFetch).toHaveBeenCalledTimes(2));
    expect(screen.getByPlaceholderText('请输入验证码')).toHaveValue('');
    expect(localStorage.getItem('adminToken')).toBeNull();
  });

  it('says 账号或密码不正确 and loads a new captcha for a 401', async () => {
    loginReply = refusal(401, '账号或密码不正确');
    await openLogin();

    await submit();

    expect(await screen.findByText('账号或密码不正确')).toBeInTheDocument();
    await waitFor(() => expect(captchaFetch).toHaveBeenCalledTimes(2));
    expect(localStorage.getItem('adminToken')).toBeNull();
  });

  it('says the account is frozen and loads a new captcha for a 403', async () => {
    loginReply = refusal(403, 'forbidden');
    await openLogin();

    await submit();

    expect(await screen.findByText('该账号已经被冻结，请联系管理员')).toBeInTheDocument();
    await waitFor(() => expect(captchaFetch).toHaveBeenCalledTimes(2));
    expect(localStorage.getItem('adminToken')).toBeNull();
  });

  it("shows the server's msg for a 429", async () => {
    loginReply = refusal(429, '登录尝试过于频繁，请稍后再试');
    await openLogin();

    await submit();

    expect(await screen.findByText('登录尝试过于频繁，请稍后再试')).toBeInTheDocument();
  });

  it('stores the token, signs the admin in without a reload and opens the home page', async () => {
    loginReply = { status: 200, body: envelope({ token: 'jwt-token', data: superAdmin }) };
    await openLogin();

    await submit();

    await waitFor(() => expect(localStorage.getItem('adminToken')).toBe('jwt-token'));
    expect(await screen.findByText('欢迎回来，超级管理员', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(history.location.pathname).toBe('/home');
    // The session came from the login answer: no whoami round trip, no reload.
    const urls = sent.map((r) => r.url);
    expect(urls.filter((url) => url === '/api/admin/login')).toHaveLength(1);
    expect(urls).not.toContain('/api/admin/whoami');
  });

  it("clears the failed attempt's 验证码错误 once the next attempt signs in", async () => {
    loginReply = refusal(400, '验证码错误');
    await openLogin();
    await submit();
    expect(await screen.findByText('验证码错误')).toBeInTheDocument();

    loginReply = { status: 200, body: envelope({ token: 'jwt-token', data: superAdmin }) };
    await submit();

    expect(await screen.findByText('欢迎回来，超级管理员', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(history.location.pathname).toBe('/home');
    await waitFor(() => expect(screen.queryByText('验证码错误')).toBeNull());
    expect(screen.getByText('登录成功')).toBeInTheDocument();
  });

  it('returns to a same-origin redirect after login', async () => {
    loginReply = { status: 200, body: envelope({ token: 'jwt-token', data: superAdmin }) };
    await openLogin('?redirect=%2FtypeList');

    await submit();

    await waitFor(() => expect(history.location.pathname).toBe('/typeList'));
  });

  it('ignores a redirect to another origin and opens the home page', async () => {
    loginReply = { status: 200, body: envelope({ token: 'jwt-token', data: superAdmin }) };
    await openLogin('?redirect=%2F%2Fevil.example%2Fphish');

    await submit();

    await waitFor(() => expect(history.location.pathname).toBe('/home'));
  });

  it('sends a signed-in admin back with 请先退出后再登录', async () => {
    localStorage.setItem('adminToken', 'live-token');
    render(<TestBrowser location={{ pathname: '/login' }} />);

    expect(await screen.findByText('请先退出后再登录', {}, { timeout: 10_000 })).toBeInTheDocument();
    await waitFor(() => expect(history.location.pathname).not.toBe('/login'), { timeout: 5_000 });
    expect(localStorage.getItem('adminToken')).toBe('live-token');
  });

  it('drops a dead token found on /login and shows the login form', async () => {
    localStorage.setItem('adminToken', 'dead-token');

    await openLogin();

    expect(localStorage.getItem('adminToken')).toBeNull();
    expect(history.location.pathname).toBe('/login');
  });
});
