import { history } from '@umijs/max';
import { Button, Result } from 'antd';

/** The page a route shows when the admin's permission does not reach it. */
export default function Forbidden() {
  return (
    <Result
      status="403"
      title="403"
      subTitle="抱歉，你无权访问该页面"
      extra={
        <Button type="primary" onClick={() => history.push('/home')}>
          返回首页
        </Button>
      }
    />
  );
}
