import { history } from '@umijs/max';
import { Button, Result } from 'antd';

/** Any address config/routes.ts does not know (its catch-all route). */
export default function NotFound() {
  return (
    <Result
      status="404"
      title="404"
      subTitle="抱歉，你访问的页面不存在"
      extra={
        <Button type="primary" onClick={() => history.push('/home')}>
          返回首页
        </Button>
      }
    />
  );
}
