import { TestBrowser } from '@@/testBrowser';
import { history } from '@umijs/max';
import { act, render, screen } from '@testing-library/react';
import { envelope, installFakeNetwork, refusal } from '@/testing/fakeNetwork';
import type { Permission, WhoAmI } from '#contract/admin';

/** The id that `:id` in a route path is replaced with. */
export const SAMPLE_ID = '65f1a2b3c4d5e6f708192a3b';

export const adminWith = (permission: Permission): WhoAmI => ({
  _id: SAMPLE_ID,
  loginId: permission === 1 ? 'root' : 'editor',
  nickname: permission === 1 ? '超级管理员' : '内容编辑',
  avatar: '',
  permission,
});

/**
 * The whole app over a fake network on which whoami answers the admin given to `open` and every
 * other GET an empty list, so that screens mount quietly. Call once at a test file's top level.
 */
export function signedInApp() {
  let signedIn: WhoAmI;
  installFakeNetwork((req) => {
    if (req.url === '/api/admin/whoami') return { status: 200, body: envelope(signedIn) };
    if (req.method === 'GET') return { status: 200, body: envelope([]) };
    return refusal(404, '请求的资源不存在');
  });

  return {
    /**
     * Renders the app as `as`, on /home (waiting for its greeting) or on `pathname` (waiting for
     * the header's nickname).
     */
    async open(as: WhoAmI, pathname = '/home') {
      signedIn = as;
      localStorage.setItem('adminToken', 'live-token');
      render(<TestBrowser location={{ pathname }} />);
      if (pathname === '/home') await screen.findByText(`欢迎回来，${as.nickname}`, {}, { timeout: 10_000 });
      else await screen.findAllByText(as.nickname, {}, { timeout: 10_000 });
    },
    async visit(path: string) {
      await act(async () => {
        history.push(path.replace(/:id\b/, SAMPLE_ID));
      });
    },
  };
}
