import { PageContainer } from '@ant-design/pro-components';
import { history, useParams } from '@umijs/max';
import { Card, Skeleton } from 'antd';
import { useCallback } from 'react';
import LoadFailed from '@/components/LoadFailed';
import { useLoaded } from '@/hooks/useLoaded';
import { getInterview, updateInterview } from '@/services/interview';
import type { CreateInterviewBody } from '../../../contract/interview';
import { message } from '@/utils/feedback';
import InterviewForm, { LIST_PATH } from './components/InterviewForm';

export default function EditInterview() {
  const { id = '' } = useParams<{ id: string }>();
  const [loaded] = useLoaded(useCallback(() => getInterview(id), [id]));

  const onFinish = async (fields: CreateInterviewBody) => {
    try {
      await updateInterview(id, fields);
    } catch {
      // Shown by the global error handler; the form keeps the edits.
      return;
    }
    message.success('修改题目成功');
    history.push(LIST_PATH);
  };

  if (loaded.status === 'failed') {
    return (
      <PageContainer title="编辑题目">
        <LoadFailed error={loaded.error} backTo={LIST_PATH} backText="返回题目列表" />
      </PageContainer>
    );
  }
  return (
    <PageContainer title="编辑题目">
      <Card>
        {loaded.status === 'loading' ? (
          <Skeleton active />
        ) : (
          <InterviewForm
            // The form reads its initial values once: another question needs a fresh form.
            key={loaded.value._id}
            initialValues={{
              interviewTitle: loaded.value.interviewTitle,
              interviewContent: loaded.value.interviewContent,
              typeId: loaded.value.typeId,
            }}
            submitText="确认修改"
            onFinish={onFinish}
          />
        )}
      </Card>
    </PageContainer>
  );
}
