import type { RequestConfig, RunTimeLayoutConfig } from '@umijs/max';
import { getRequestInstance, history, Link, useDispatch, useModel } from '@umijs/max';
import { ConfigProvider } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import { lazy, type ReactNode, startTransition, Suspense, useEffect, useState } from 'react';
import Forbidden from '@/components/Forbidden';
import SessionLoadFailed from '@/components/SessionLoadFailed';
import { describeRequestError, errorCodeOf, errorStatus, reauthInterceptor, requestConfig } from '@/requestErrorConfig';
import { logout, whoami } from '@/services/admin';
import { dropEarly, startEarly, takeEarly } from '@/services/early';
import { fetchFirstPageEarly } from '@/services/table';
import { message, MessageBridge } from '@/utils/feedback';
import { clearToken, expireSession, getToken, type InitialState, LOGIN_PATH, toInitialState } from '@/utils/session';
import { isTwoFactorSetupPage, onMustSetUp2fa, TWO_FACTOR_SETUP_PATH } from '@/utils/twoFactorGate';
import { isPasswordChangePage, onMustChangePassword, PASSWORD_CHANGE_PATH } from '@/utils/trustGate';
import ReauthHost from '@/components/ReauthDialog';

const WARNING_READ_MS = 1200;

/** The screens whose first call is the unfiltered first page of a list, and that list. */
const FIRST_PAGE_OF: Record<string, string> = { '/user/userList': '/api/user' };

/** whoami, or the one app.tsx's `render` already started (services/early.ts). */
const sessionOfToken = () => takeEarly<Awaited<ReturnType<typeof whoami>>>('session', 'whoami') ?? whoami();

// Its Dropdown (antd's Menu) belongs with the layout, which /login never loads: kept out of umi.js.
const HeaderAccount = lazy(() => import('@/components/HeaderAccount'));
// Its own chunk: the badge and its live stream load beside the menu, not before it.
const ReviewBadge = lazy(() => import('@/components/ReviewBadge'));
const REVIEW_PATH = '/review';

/** On /login a live session sends the admin back where they came from (docs/requirements.md, session). */
async function leaveLoginIfSignedIn(): Promise<InitialState> {
  if (!getToken()) return {};
  try {
    const admin = await sessionOfToken();
    if (!admin) {
      clearToken();
      return {};
    }
    message.warning('请先退出后再登录');
    // Going back usually leaves this document (the address was typed or reloaded), which would
    // take the warning with it before anyone could read it.
    await new Promise((resolve) => {
      setTimeout(resolve, WARNING_READ_MS);
    });
    // A tab opened straight on /login has nowhere to go back to.
    if (window.history.length > 1) history.back();
    else history.replace('/');
    return toInitialState(admin);
  } catch (error) {
    if (errorStatus(error) === 401) clearToken();
    return {};
  }
}

/**
 * Everywhere else the session must be live. A 401 (or no token at all) ends it; any other
 * failure is rethrown so that the initial-state plugin stores it and the layout offers a retry.
 */
async function loadSession(): Promise<InitialState> {
  if (getToken()) {
    try {
      const admin = await sessionOfToken();
      if (admin) return toInitialState(admin);
    } catch (error) {
      if (errorStatus(error) !== 401) {
        message.error(describeRequestError(error));
        throw error;
      }
      expireSession(errorCodeOf(error));
      return {};
    }
  }
  expireSession();
  return {};
}

/**
 * Umi's runtime `render`, before the first render: with a token, whoami and the page's first list
 * are asked for now, beside the layout's and the page's chunks (which Umi's preload helper has
 * already asked for), instead of one after the other once each has rendered.
 */
export function render(oldRender: () => void) {
  const { pathname } = history.location;
  if (getToken()) {
    startEarly('session', 'whoami', whoami);
    const list = FIRST_PAGE_OF[pathname];
    if (list) fetchFirstPageEarly(list);
  }
  if (pathname !== LOGIN_PATH) {
    // Chunks the layout would ask for only once it has rendered: the header's account menu and,
    // for a page inside a menu group, Umi's route of the group (which its preload helper skips,
    // having no file of ours). Asked for now, they are there when the layout gets to them.
    import('@/components/HeaderAccount');
    if (pathname.indexOf('/', 1) > 0) import('@@/core/EmptyRoute');
  }
  history.listen(dropEarly);
  oldRender();
}

export async function getInitialState(): Promise<InitialState> {
  return history.location.pathname === LOGIN_PATH ? leaveLoginIfSignedIn() : loadSession();
}

export const layout: RunTimeLayoutConfig = ({ error, refresh, setInitialState }) => {
  const signOut = async () => {
    try {
      await logout();
    } catch {
      // The session ends here whatever the server answers; its token dies with its expiry.
    }
    clearToken();
    history.push(LOGIN_PATH);
    message.success('退出登录成功');
    await setInitialState({});
  };
  return {
    // Sized, so that nothing moves when it loads.
    logo: <img src="/logo.svg" alt="logo" width={22} height={22} />,
    title: 'coder station',
    // A header across the top holds the admin's avatar, nickname and its menu (个人设置, 退出登录);
    // the menu stays at the side.
    layout: 'mix',
    menu: { locale: false },
    // As Umi's layout draws a menu entry (a link unless it is the page shown), with 审核台's live count.
    menuItemRender: (item, defaultDom) => {
      const dom =
        item.path === REVIEW_PATH ? (
          // One line: the entry's own title, then the badge at the end of the row.
          <span style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', minWidth: 0 }}>
            {defaultDom}
            <Suspense fallback={null}>
              <ReviewBadge />
            </Suspense>
          </span>
        ) : (
          defaultDom
        );
      if (item.isUrl || item.children || !item.path || history.location.pathname === item.path) return dom;
      return <Link to={item.path}>{dom}</Link>;
    },
    logout: signOut,
    rightRender: (initialState: InitialState | undefined) => (
      <Suspense fallback={null}>
        <HeaderAccount initialState={initialState} onLogout={signOut} />
      </Suspense>
    ),
    unAccessible: error ? <SessionLoadFailed onRetry={refresh} /> : <Forbidden />,
  };
};

// A call refused for want of a fresh proof is sent again, once, after the ReauthDialog (requestErrorConfig.ts).
export const request: RequestConfig = {
  ...requestConfig,
  responseInterceptors: [
    [(response) => response, reauthInterceptor((config) => getRequestInstance().request(config)) as (error: unknown) => Promise<never>],
  ],
};

/*
 * A refused effect reaches the code that dispatched it through the dispatch's promise
 * (services/api.ts), once the request layer has shown the message. dva's default onError throws
 * instead, before that promise settles: the caller would wait for ever, dva-loading would keep the
 * effect spinning, and the error would escape into the model's saga.
 */
export const dva = {
  config: {
    onError(_error: unknown) {},
  },
};

/*
 * Chinese texts for antd's own words (pagination, Popconfirm, empty tables), buttons that keep
 * their texts exactly (「登录」, not 「登 录」) as docs/screens.md quotes them, and the message instance
 * every part of the app uses (see utils/feedback). The theme's blue (links follow colorInfo) has
 * a contrast of 6.8:1 with white text (4.7:1 in its hover shade); antd's #1677ff has 4.1:1.
 */
const theme = {
  token: {
    colorPrimary: '#0052cc',
    colorInfo: '#0052cc',
    // antd's secondary text (statistic titles, breadcrumbs, descriptions, character counts, empty
    // tables) is rgba(0, 0, 0, 0.45): 3.4:1 on white and 3.1:1 on the layout's grey, under WCAG
    // AA's 4.5:1. At 0.65 it reads at 7:1 and 6.4:1.
    colorTextDescription: 'rgba(0, 0, 0, 0.65)',
    colorTextTertiary: 'rgba(0, 0, 0, 0.65)',
    // antd draws its focus ring (buttons, switches, checkboxes, menu items) in colorPrimaryBorder,
    // a pale blue of 1.6:1 on white; the primary blue in 2 px matches src/global.less's ring.
    colorPrimaryBorder: '#0052cc',
    lineWidthFocus: 2,
    // Red text (删除 and the other destructive actions, the 更多 menu's 重置两步验证, form errors)
    // and white on red (a danger confirmation): antd's #ff4d4f has 3.3:1 with white, red-7 5.9:1.
    colorError: '#cf1322',
  },
  components: {
    // An unchecked switch is drawn in colorTextQuaternary (0.25 black): its white label (待审核)
    // reads at 1.9:1. At 0.55 it reads at 4.7:1.
    Switch: { colorTextQuaternary: 'rgba(0, 0, 0, 0.55)' },
  },
};

/**
 * The app's first render as a transition. Rendered at once, the layout and the page (antd's
 * styles worked out component by component on the way) took one task of 150-200 ms on the
 * benchmark's machine, the page's largest source of blocking time; as a transition React renders
 * in slices of a few milliseconds and lets the browser handle input and paint in between.
 */
function RenderInSlices({ children }: { children: ReactNode }) {
  const [started, setStarted] = useState(false);
  useEffect(() => startTransition(() => setStarted(true)), []);
  return started ? children : null;
}

export function rootContainer(container: ReactNode) {
  return (
    <ConfigProvider locale={zhCN} theme={theme} button={{ autoInsertSpace: false }}>
      <MessageBridge />
      <RenderInSlices>{container}</RenderInSlices>
    </ConfigProvider>
  );
}

/*
 * initialState alone owns the signed-in admin: it is loaded above and changed only through
 * setInitialState (login, logout, an edit of oneself). The dva `admin` model keeps `adminInfo`
 * because docs/screens.md ("dva models") gives it one; this mirror is the one place that sets it,
 * each time initialState changes, so that nothing else can push a second version around.
 */
function AdminInfoMirror() {
  const { initialState } = useModel('@@initialState');
  const dispatch = useDispatch();
  const adminInfo = initialState?.adminInfo ?? null;
  useEffect(() => {
    dispatch({ type: 'admin/setAdminInfo', payload: adminInfo });
  }, [adminInfo, dispatch]);
  return null;
}

/**
 * A page reached without a session (Back after 退出登录 leads to the page left) goes to /login as
 * an expired session does, rather than drawing the layout with a 403 for nobody.
 */
function SignedOutGuard() {
  const { initialState } = useModel('@@initialState');
  const [{ pathname }, setLocation] = useState(() => history.location);
  useEffect(() => history.listen(({ location }) => setLocation(location)), []);
  const signedIn = Boolean(initialState?.adminInfo);
  useEffect(() => {
    if (!signedIn && pathname !== LOGIN_PATH && !getToken()) expireSession(undefined, { replace: true });
  }, [signedIn, pathname]);
  return null;
}

/**
 * An admin who must set up two-step sign-in (utils/twoFactorGate) is led to 个人设置 → 两步验证 and
 * kept there until whoami says otherwise; the server refuses the rest anyway.
 */
function TwoFactorGuard() {
  const { initialState, setInitialState } = useModel('@@initialState');
  // Outside the router (innerProvider), so the address is followed through history itself.
  const [{ pathname, search }, setLocation] = useState(() => history.location);
  useEffect(() => history.listen(({ location }) => setLocation(location)), []);
  const adminInfo = initialState?.adminInfo;
  // The initial password is changed first (PasswordChangeGuard); the two-step setup comes after.
  const mustSetUp = adminInfo?.mustSetUp2fa === true && adminInfo.mustChangePassword !== true;

  useEffect(
    () =>
      onMustSetUp2fa(() => {
        if (adminInfo && !adminInfo.mustSetUp2fa) {
          setInitialState({ ...initialState, adminInfo: { ...adminInfo, mustSetUp2fa: true } });
        }
      }),
    [adminInfo, initialState, setInitialState],
  );

  useEffect(() => {
    if (mustSetUp && pathname !== LOGIN_PATH && !isTwoFactorSetupPage(pathname, search)) {
      history.replace(TWO_FACTOR_SETUP_PATH);
    }
  }, [mustSetUp, pathname, search]);
  return null;
}

/**
 * An admin signed in with a generated password (whoami's mustChangePassword, or a 403
 * PASSWORD_CHANGE_REQUIRED) is led to 个人设置 → 修改密码 and kept there until it is changed.
 */
function PasswordChangeGuard() {
  const { initialState, setInitialState } = useModel('@@initialState');
  const [{ pathname, search }, setLocation] = useState(() => history.location);
  useEffect(() => history.listen(({ location }) => setLocation(location)), []);
  const adminInfo = initialState?.adminInfo;
  const mustChange = adminInfo?.mustChangePassword === true;

  useEffect(
    () =>
      onMustChangePassword(() => {
        if (adminInfo && !adminInfo.mustChangePassword) {
          setInitialState({ ...initialState, adminInfo: { ...adminInfo, mustChangePassword: true } });
        }
      }),
    [adminInfo, initialState, setInitialState],
  );

  useEffect(() => {
    if (mustChange && pathname !== LOGIN_PATH && !isPasswordChangePage(pathname, search)) history.replace(PASSWORD_CHANGE_PATH);
  }, [mustChange, pathname, search]);
  return null;
}

/** Inside the providers of initialState and dva, around every page. */
export function innerProvider(container: ReactNode) {
  return (
    <>
      <AdminInfoMirror />
      <SignedOutGuard />
      <PasswordChangeGuard />
      <TwoFactorGuard />
      <ReauthHost />
      {container}
    </>
  );
}
