import { PageContainer } from '@ant-design/pro-components';
import { history, useAccess, useLocation } from '@umijs/max';
import { Card, Tabs } from 'antd';
import LoginsTab from './components/LoginsTab';
import NotificationsTab from './components/NotificationsTab';
import PasskeysTab from './components/PasskeysTab';
import PasswordTab from './components/PasswordTab';
import ProfileTab from './components/ProfileTab';
import SecurityTab from './components/SecurityTab';
import SessionsTab from './components/SessionsTab';
import TwoFactorTab from './components/TwoFactorTab';

export const SETTINGS_PATH = '/settings';
export const TWO_FACTOR_TAB = 'twoFactor';
export const PASSKEYS_TAB = 'passkeys';

/** 个人设置: every admin's own account (issue 13). The tab is in the address, so a link can open one. */
export default function Settings() {
  const { canSuperAdmin } = useAccess();
  const { search } = useLocation();
  const tabs = [
    { key: 'profile', label: '基本资料', children: <ProfileTab /> },
    { key: 'password', label: '修改密码', children: <PasswordTab /> },
    { key: TWO_FACTOR_TAB, label: '两步验证', children: <TwoFactorTab /> },
    { key: PASSKEYS_TAB, label: '通行密钥', children: <PasskeysTab /> },
    { key: 'sessions', label: '登录设备', children: <SessionsTab /> },
    { key: 'logins', label: '登录记录', children: <LoginsTab /> },
    ...(canSuperAdmin
      ? [
          { key: 'security', label: '安全设置', children: <SecurityTab /> },
          { key: 'notifications', label: '通知', children: <NotificationsTab /> },
        ]
      : []),
  ];
  const asked = new URLSearchParams(search).get('tab');
  const active = tabs.some((tab) => tab.key === asked) ? (asked as string) : 'profile';

  return (
    <PageContainer>
      <Card>
        {/* A narrower gap than antd's 32 px: all eight tabs fit a tablet's width without the overflow menu. */}
        <Tabs
          activeKey={active}
          items={tabs}
          tabBarGutter={16}
          destroyOnHidden
          onChange={(key) => history.replace(`${SETTINGS_PATH}?tab=${key}`)}
        />
      </Card>
    </PageContainer>
  );
}
