import { Button, Result } from 'antd';

interface SessionLoadFailedProps {
  onRetry: () => void;
}

/** Shown when the session could not be checked at all (network, server), not when it expired. */
export default function SessionLoadFailed({ onRetry }: SessionLoadFailedProps) {
  return (
    <Result
      status="warning"
      title="登录信息加载失败"
      subTitle="请检查网络连接后重试"
      extra={
        <Button type="primary" onClick={onRetry}>
          重试
        </Button>
      }
    />
  );
}
