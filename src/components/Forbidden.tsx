import { StopOutlined } from '@ant-design/icons';
import { history } from '@umijs/max';
import { Button } from 'antd';
import StatusPage from './StatusPage';

/** The page a route shows when the admin's permission does not reach it. */
export default function Forbidden() {
  return (
    <StatusPage
      icon={<StopOutlined style={{ color: '#ff4d4f' }} />}
      title="403"
      description="抱歉，你无权访问该页面"
      action={
        <Button type="primary" onClick={() => history.push('/home')}>
          返回首页
        </Button>
      }
    />
  );
}
