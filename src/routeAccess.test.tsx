import { history } from '@umijs/max';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import routes, { type AppRoute } from '../config/routes';
import { adminWith as admin, SAMPLE_ID, signedInApp } from '@/testing/signedInApp';

const REFUSED = '抱歉，你无权访问该页面';

const { open: openApp, visit } = signedInApp();

/** Every route of config/routes.ts that shows a screen, with its access key (inherited in groups). */
function screenRoutes(list: AppRoute[], inherited?: AppRoute['access']): { path: string; access?: AppRoute['access'] }[] {
  return list.flatMap((route) => {
    const access = route.access ?? inherited;
    // The catch-all ('/*') is no screen of its own: it answers the addresses the others do not.
    const own = route.component && route.layout !== false && !route.path.includes('*') ? [{ path: route.path, access }] : [];
    return [...own, ...screenRoutes(route.routes ?? [], access)];
  });
}

/** The top-level menu entries; a group's children show once it is open. */
const topMenuLabels = routes.flatMap((route) => (route.name && !route.hideInMenu ? [route.name] : []));

const sideMenu = () => within(document.querySelector('.ant-pro-sider') as HTMLElement);

describe('route access from config/routes.ts and access.ts', () => {
  it('hides the admin group from a normal admin and refuses its routes, but allows every other route', async () => {
    await openApp(admin(2));
    const superOnly = screenRoutes(routes).filter((r) => r.access === 'canSuperAdmin');
    const others = screenRoutes(routes).filter((r) => r.access !== 'canSuperAdmin');
    expect(superOnly.map((r) => r.path)).toEqual(['/admin/adminList', '/admin/addAdmin']);

    expect(sideMenu().queryByText('管理员')).toBeNull();
    expect(sideMenu().queryByText('管理员列表')).toBeNull();
    expect(sideMenu().queryByText('添加管理员')).toBeNull();
    for (const label of ['首页', '用户', '书籍', '面试题', '问答', '评论', '类型']) {
      expect(sideMenu().getByText(label)).toBeInTheDocument();
    }

    for (const { path } of superOnly) {
      await visit(path);
      expect(await screen.findByText(REFUSED)).toBeInTheDocument();
      // The refusal names the permission the route needs.
      expect(screen.getByText('该页面需要「超级管理员」权限')).toBeInTheDocument();
    }
    for (const { path } of others) {
      await visit(path);
      await waitFor(() => expect(history.location.pathname).toBe(path.replace(/:id\b/, SAMPLE_ID)));
      expect(screen.queryByText(REFUSED)).toBeNull();
      expect(screen.queryByText('抱歉，你访问的页面不存在')).toBeNull();
    }
  });

  it('shows a super admin every menu entry and every route', async () => {
    await openApp(admin(1));

    await visit('/admin/adminList');
    await screen.findAllByText('管理员列表');
    for (const label of [...topMenuLabels, '管理员列表', '添加管理员']) {
      expect(sideMenu().getByText(label)).toBeInTheDocument();
    }
    for (const { path } of screenRoutes(routes)) {
      await visit(path);
      expect(screen.queryByText(REFUSED)).toBeNull();
    }
  });

  it('shows a 404 page with a way home for an address no route knows', async () => {
    // Opened there directly: /home's charts need a canvas, which jsdom lacks.
    await openApp(admin(2), '/no/such/page');

    expect(await screen.findByText('抱歉，你访问的页面不存在', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByText('404')).toBeInTheDocument();
    expect(screen.queryByText(REFUSED)).toBeNull();
    // Still inside the shell: the menu is there.
    expect(sideMenu().getByText('首页')).toBeInTheDocument();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: '返回首页' }));
    });
    await waitFor(() => expect(history.location.pathname).toBe('/home'));
  });
});
