import { TestBrowser } from '@@/testBrowser';
import { history } from '@umijs/max';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { envelope, type FakeReply, installFakeNetwork, refusal } from '@/testing/fakeNetwork';
import { stubCaptchaFetch } from '@/testing/captcha';

const superAdmin = {
  _id: '65f1a2b3c4d5e6f708192a3b',
  loginId: 'admin',
  nickname: '超级管理员',
  avatar: '/default-avatar.svg',
  permission: 1,
  enabled: true,
  createdAt: 1_700_000_000_000,
  twoFactorEnabled: true,
};
const CHALLENGE = 'challenge-0123456789';

let secondReply: FakeReply;
const sent = installFakeNetwork((req) => {
  if (req.method === 'POST' && req.url === '/api/admin/login') {
    return { status: 200, body: envelope({ twoFactorRequired: true, challenge: CHALLENGE }) };
  }
  if (req.method === 'POST' && req.url === '/api/admin/login/2fa') return secondReply;
  if (req.url === '/api/admin/whoami') {
    return localStorage.getItem('adminToken') === 'jwt-token'
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

async function click(element: HTMLElement) {
  await act(async () => {
    fireEvent.click(element);
  });
}

/** Opens /login and passes the password step, which answers a challenge. */
async function passPasswordStep() {
  render(<TestBrowser location={{ pathname: '/login' }} />);
  await screen.findByText('coder station 后台管理系统', {}, { timeout: 10_000 });
  fireEvent.change(screen.getByPlaceholderText('请输入账号'), { target: { value: 'admin' } });
  fireEvent.change(screen.getByPlaceholderText('请输入密码'), { target: { value: 'a-long-password' } });
  fireEvent.change(screen.getByPlaceholderText('请输入验证码'), { target: { value: 'abcd' } });
  await click(screen.getByRole('button', { name: '登录' }));
  await screen.findByText('请输入动态验证码');
}

const secondSteps = () => sent.filter((r) => r.url === '/api/admin/login/2fa').map((r) => r.body);

describe('login, second step', () => {
  it('asks for the code when the password step answers a challenge, and keeps the token away until then', async () => {
    await passPasswordStep();

    expect(screen.getByLabelText('动态验证码')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '使用恢复码' })).toBeInTheDocument();
    expect(localStorage.getItem('adminToken')).toBeNull();
    expect(history.location.pathname).toBe('/login');
  });

  it('signs in with the challenge and the code, as a normal login does', async () => {
    secondReply = { status: 200, body: envelope({ token: 'jwt-token', data: superAdmin }) };
    await passPasswordStep();

    fireEvent.change(screen.getByLabelText('动态验证码'), { target: { value: '123456' } });
    await click(screen.getByRole('button', { name: '验证' }));

    await waitFor(() => expect(localStorage.getItem('adminToken')).toBe('jwt-token'));
    expect(secondSteps()).toEqual([{ challenge: CHALLENGE, code: '123456' }]);
    expect(await screen.findByText('欢迎回来，超级管理员', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(history.location.pathname).toBe('/home');
  });

  it('says 动态验证码不正确 on a wrong code and lets the admin try again', async () => {
    secondReply = refusal(400, '动态验证码不正确');
    await passPasswordStep();

    fireEvent.change(screen.getByLabelText('动态验证码'), { target: { value: '000000' } });
    await click(screen.getByRole('button', { name: '验证' }));

    expect(await screen.findByText('动态验证码不正确')).toBeInTheDocument();
    expect(screen.getByText('请输入动态验证码')).toBeInTheDocument();
    expect(localStorage.getItem('adminToken')).toBeNull();
  });

  it('takes a recovery code instead after 使用恢复码', async () => {
    secondReply = { status: 200, body: envelope({ token: 'jwt-token', data: superAdmin }) };
    await passPasswordStep();

    await click(screen.getByRole('button', { name: '使用恢复码' }));
    expect(screen.getByText('请输入恢复码')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('恢复码'), { target: { value: ' abcd-efgh-ijkl ' } });
    await click(screen.getByRole('button', { name: '验证' }));

    await waitFor(() => expect(localStorage.getItem('adminToken')).toBe('jwt-token'));
    expect(secondSteps()).toEqual([{ challenge: CHALLENGE, recoveryCode: 'abcd-efgh-ijkl' }]);
  });

  it('goes back to the password step with a new captcha when the challenge has expired', async () => {
    secondReply = refusal(400, '验证已过期，请重新登录', 'CHALLENGE_EXPIRED');
    await passPasswordStep();

    fireEvent.change(screen.getByLabelText('动态验证码'), { target: { value: '123456' } });
    await click(screen.getByRole('button', { name: '验证' }));

    expect(await screen.findByText('验证已过期，请重新登录')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('请输入动态验证码')).toBeNull());
    expect(screen.getByPlaceholderText('请输入账号')).toHaveValue('admin');
    expect(captchaFetch).toHaveBeenCalledTimes(2);
  });
});
