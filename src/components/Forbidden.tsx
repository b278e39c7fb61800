import { StopOutlined } from '@ant-design/icons';
import { history, useSelectedRoutes } from '@umijs/max';
import { Button } from 'antd';
import type { AppRoute } from '../../config/routes';
import StatusPage from './StatusPage';

/** The names of src/access.ts's flags as an administrator knows them (docs/screens.md, the 403 page). */
const PERMISSION_NAMES: Record<NonNullable<AppRoute['access']>, string> = {
  canSuperAdmin: '超级管理员',
  canNormalAdmin: '普通管理员',
};

/** The access flag of the deepest matched route that names one: the one that refused. */
function useRequiredAccess(): AppRoute['access'] {
  const matched = useSelectedRoutes();
  for (let i = matched.length - 1; i >= 0; i--) {
    const access = (matched[i].route as { access?: AppRoute['access'] }).access;
    if (access) return access;
  }
  return undefined;
}

/** The page a route shows when the admin's permission does not reach it, naming what it needs. */
export default function Forbidden() {
  const access = useRequiredAccess();
  return (
    <StatusPage
      icon={<StopOutlined style={{ color: '#ff4d4f' }} />}
      title="403"
      description="抱歉，你无权访问该页面"
      detail={access && `该页面需要「${PERMISSION_NAMES[access]}」权限`}
      action={
        <Button type="primary" onClick={() => history.push('/home')}>
          返回首页
        </Button>
      }
    />
  );
}
