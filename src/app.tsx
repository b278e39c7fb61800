import type { RequestConfig, RunTimeLayoutConfig } from '@umijs/max';
import { history, useDispatch, useModel } from '@umijs/max';
import { ConfigProvider } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import { type ReactNode, useEffect } from 'react';
import Forbidden from '@/components/Forbidden';
import SessionLoadFailed from '@/components/SessionLoadFailed';
import { describeRequestError, errorStatus, requestConfig } from '@/requestErrorConfig';
import { logout, whoami } from '@/services/admin';
import { message, MessageBridge } from '@/utils/feedback';
import { clearToken, expireSession, getToken, type InitialState, LOGIN_PATH, toInitialState } from '@/utils/session';

const WARNING_READ_MS = 1200;

/** On /login a live session sends the admin back where they came from (docs/requirements.md, session). */
async function leaveLoginIfSignedIn(): Promise<InitialState> {
  if (!getToken()) return {};
  try {
    const admin = await whoami();
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
      const admin = await whoami();
      if (admin) return toInitialState(admin);
    } catch (error) {
      if (errorStatus(error) !== 401) {
        message.error(describeRequestError(error));
        throw error;
      }
    }
  }
  expireSession();
  return {};
}

export async function getInitialState(): Promise<InitialState> {
  return history.location.pathname === LOGIN_PATH ? leaveLoginIfSignedIn() : loadSession();
}

export const layout: RunTimeLayoutConfig = ({ error, refresh, setInitialState }) => ({
  logo: '/logo.svg',
  title: 'coder station',
  // A header across the top holds the admin's avatar, nickname and 退出登录; the menu stays at the side.
  layout: 'mix',
  menu: { locale: false },
  logout: async () => {
    try {
      await logout();
    } catch {
      // The session ends here whatever the server answers; its token dies with its expiry.
    }
    clearToken();
    history.push(LOGIN_PATH);
    message.success('退出登录成功');
    await setInitialState({});
  },
  unAccessible: error ? <SessionLoadFailed onRetry={refresh} /> : <Forbidden />,
});

export const request: RequestConfig = requestConfig;

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
  },
};

export function rootContainer(container: ReactNode) {
  return (
    <ConfigProvider locale={zhCN} theme={theme} button={{ autoInsertSpace: false }}>
      <MessageBridge />
      {container}
    </ConfigProvider>
  );
}

/*
 * initialState alone owns the signed-in admin: it is loaded above and changed only through
 * setInitialState (login, logout, an edit of oneself). The dva `admin` model keeps `adminInfo`
 * because docs/requirements.md gives it "set current admin info"; this mirror is the one place that sets it,
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

/** Inside the providers of initialState and dva, around every page. */
export function innerProvider(container: ReactNode) {
  return (
    <>
      <AdminInfoMirror />
      {container}
    </>
  );
}
