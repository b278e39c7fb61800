import type { RequestConfig, RunTimeLayoutConfig } from '@umijs/max';
import { history } from '@umijs/max';
import { ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import type { ReactNode } from 'react';
import Forbidden from '@/components/Forbidden';
import SessionLoadFailed from '@/components/SessionLoadFailed';
import { describeRequestError, errorStatus, requestConfig } from '@/requestErrorConfig';
import { logout, whoami } from '@/services/admin';
import { message, MessageBridge } from '@/utils/feedback';
import {
  clearToken,
  expireSession,
  getToken,
  type InitialState,
  LOGIN_PATH,
  toInitialState,
} from '@/utils/session';

const WARNING_READ_MS = 1200;

/** On /login a live session sends the admin back where they came from (SPEC.md §2). */
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
 * antd's secondary text (statistic titles, breadcrumbs, descriptions, character counts, empty
 * tables) is rgba(0, 0, 0, 0.45): 3.4:1 on white and 3.1:1 on the layout's grey, under WCAG AA's
 * 4.5:1. At 0.65 it reads at 7:1 and 6.4:1.
 */
const READABLE_SECONDARY_TEXT = {
  token: { colorTextDescription: 'rgba(0, 0, 0, 0.65)', colorTextTertiary: 'rgba(0, 0, 0, 0.65)' },
};

/*
 * Chinese texts for antd's own words (pagination, Popconfirm, empty tables), buttons that keep
 * their texts exactly (「登录」, not 「登 录」) as SCREENS.md quotes them, and the message instance
 * every part of the app uses (see utils/feedback).
 */
export function rootContainer(container: ReactNode) {
  return (
    <ConfigProvider locale={zhCN} theme={READABLE_SECONDARY_TEXT} button={{ autoInsertSpace: false }}>
      <MessageBridge />
      {container}
    </ConfigProvider>
  );
}
