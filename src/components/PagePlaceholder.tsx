import { PageContainer } from '@ant-design/pro-components';
import { Card, Empty } from 'antd';

interface PagePlaceholderProps {
  /** What the screen will manage, e.g. 「用户列表」. */
  title: string;
}

/** Stands in for a content screen that a later issue builds. */
export default function PagePlaceholder({ title }: PagePlaceholderProps) {
  return (
    <PageContainer title={title}>
      <Card>
        <Empty description={`「${title}」页面正在建设中`} />
      </Card>
    </PageContainer>
  );
}
