import FormPage from '@/components/FormPage';
import { createInterview } from '@/services/interview';
import type { CreateInterviewBody } from '#contract/interview';
import InterviewForm, { LIST_PATH } from './components/InterviewForm';

export default function AddInterview() {
  return (
    <FormPage title="添加题目" listPath={LIST_PATH} save={(fields: CreateInterviewBody) => createInterview(fields)} saved="新增题目成功">
      {(onFinish) => <InterviewForm submitText="确认新增" onFinish={onFinish} />}
    </FormPage>
  );
}
