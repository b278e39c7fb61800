import { TestBrowser } from '@@/testBrowser';
import { history } from '@umijs/max';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import routes, { type AppRoute } from '../config/routes';
import { envelope, installFakeNetwork, refusal } from '@/testing/fakeNetwork';
import type { AdminInfo, Permission } from '@/types/api';

const REFUSED = '抱歉，你无权访问该页面';
const SAMPLE_ID = '65f1a2b3c4d5e6f708192a3b';

let signedIn: AdminInfo;
installFakeNetwork((req) => {
  if (req.url === '/api/admin/whoami') return { status: 200, body: envelope(signedIn) };
  // Screens load their data on mount; an empty answer keeps them quiet.
  if (req.method === 'GET') return { status: 200, body: envelope([]) };
  return refusal(404, '请求的资源不存在');
});

/** Every route of config/routes.ts that shows a screen, with its access key (inherited in groups). */
function screenRoutes(list: AppRoute[], inherited?: AppRoute['access']): { path: string; access?: AppRoute['access'] }[] {
  return list.flatMap((route) => {
    const access = route.access ?? inherited;
    const own = route.component && route.layout !== false ? [{ path: route.path, access }] : [];
    return [...own, ...screenRoutes(route.routes ?? [], access)];
  });
}

/** The top-level menu entries; a group's children show once it is open. */
const topMenuLabels = routes.flatMap((route) => (route.name && !route.hideInMenu ? [route.name] : []));

const admin = (permission: Permission): AdminInfo => ({
  _id: SAMPLE_ID,
  loginId: permission === 1 ? 'root' : 'editor',
  nickname: permission === 1 ? '超级管理员' : '内容编辑',
  avatar: '',
  permission,
});

async function openApp(as: AdminInfo) {
  signedIn = as;
  localStorage.setItem('adminToken', 'live-token');
  render(<TestBrowser location={{ pathname: '/home' }} />);
  await screen.findByText(`欢迎回来，${as.nickname}`, {}, { timeout: 10_000 });
}

const sideMenu = () => within(document.querySelector('.ant-pro-sider') as HTMLElement);

async function visit(path: string) {
  await act(async () => {
    history.push(path.replace(/:id\b/, SAMPLE_ID));
  });
}

// Its own file, so its own router: after another test of routeAccess.test.tsx has rendered the app,
// a push to / no longer reaches the redirect route in jsdom.
describe('route access: the root redirect', () => {
  it('sends / to /home', async () => {
    await openApp(admin(2));

    await visit('/');

    // The redirect renders inside the lazily loaded layout; on a loaded machine that takes seconds.
    await waitFor(() => expect(history.location.pathname).toBe('/home'), { timeout: 20_000 });
  });
});
