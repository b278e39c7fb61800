import { WarningOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import StatusPage from './StatusPage';

interface SessionLoadFailedProps {
  onRetry: () => void;
}

/** Shown when the session could not be checked at all (network, server), not when it expired. */
export default function SessionLoadFailed({ onRetry }: SessionLoadFailedProps) {
  return (
    <StatusPage
      icon={<WarningOutlined style={{ color: '#faad14' }} />}
      title="登录信息加载失败"
      description="请检查网络连接后重试"
      action={
        <Button type="primary" onClick={onRetry}>
          重试
        </Button>
      }
    />
  );
}
