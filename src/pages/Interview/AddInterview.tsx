import { PageContainer } from '@ant-design/pro-components';
import { history } from '@umijs/max';
import { Card } from 'antd';
import { createInterview } from '@/services/interview';
import type { CreateInterviewBody } from '../../../contract/interview';
import { message } from '@/utils/feedback';
import InterviewForm, { LIST_PATH } from './components/InterviewForm';

export default function AddInterview() {
  const onFinish = async (fields: CreateInterviewBody) => {
    try {
      await createInterview(fields);
    } catch {
      // The global error handler has shown the server's message; the form keeps what was typed.
      return;
    }
    message.success('新增题目成功');
    history.push(LIST_PATH);
  };

  return (
    <PageContainer title="添加题目">
      <Card>
        <InterviewForm submitText="确认新增" onFinish={onFinish} />
      </Card>
    </PageContainer>
  );
}
