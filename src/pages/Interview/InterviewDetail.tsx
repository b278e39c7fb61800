import { EditOutlined } from '@ant-design/icons';
import { PageContainer } from '@ant-design/pro-components';
import { history, useParams } from '@umijs/max';
import { Button, Card, Skeleton, Space, Tag, Typography } from 'antd';
import { useCallback } from 'react';
import HistoryButton from '@/components/HistoryDrawer';
import HtmlView from '@/components/HtmlView';
import LoadFailed from '@/components/LoadFailed';
import { useLoaded } from '@/hooks/useLoaded';
import { useTypeOptions } from '@/hooks/useTypeOptions';
import { getInterview } from '@/services/interview';
import { formatDate } from '@/utils/format';
import { LIST_PATH } from './components/InterviewForm';

export default function InterviewDetail() {
  const { id = '' } = useParams<{ id: string }>();
  const [loaded, , reload] = useLoaded(useCallback(() => getInterview(id), [id]));
  const { nameOf } = useTypeOptions();

  return (
    <PageContainer
      title="题目详情"
      onBack={() => history.push(LIST_PATH)}
      extra={
        <Space>
          {/* Not tied to the loaded record: it stays, drawer open, while the record loads again. */}
          <HistoryButton entity="interview" id={id} onReverted={reload} />
          {loaded.status === 'ready' && (
            <Button type="primary" icon={<EditOutlined />} onClick={() => history.push(`/interview/editInterview/${loaded.value._id}`)}>
              编辑
            </Button>
          )}
        </Space>
      }
    >
      {loaded.status === 'failed' ? (
        <LoadFailed error={loaded.error} backTo={LIST_PATH} backText="返回题目列表" />
      ) : (
        <Card>
          {loaded.status === 'loading' ? (
            <Skeleton active />
          ) : (
            <>
              {/* Under the layout's own h1 (coder station): one level down, as axe's heading-order asks. */}
              <Typography.Title level={2} style={{ fontSize: 24 }}>
                {loaded.value.interviewTitle}
              </Typography.Title>
              <Space style={{ marginBottom: 16 }}>
                <Tag color="purple">{nameOf(loaded.value.typeId)}</Tag>
                <Typography.Text type="secondary">上架日期：{formatDate(loaded.value.onShelfDate)}</Typography.Text>
              </Space>
              <HtmlView html={loaded.value.interviewContent} />
            </>
          )}
        </Card>
      )}
    </PageContainer>
  );
}
