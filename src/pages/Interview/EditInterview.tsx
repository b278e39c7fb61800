import { useParams } from '@umijs/max';
import { useCallback } from 'react';
import FormPage from '@/components/FormPage';
import { useLoaded } from '@/hooks/useLoaded';
import { getInterview, updateInterview } from '@/services/interview';
import type { CreateInterviewBody } from '#contract/interview';
import InterviewForm, { LIST_PATH } from './components/InterviewForm';

export default function EditInterview() {
  const { id = '' } = useParams<{ id: string }>();
  const [loaded, , reload] = useLoaded(useCallback(() => getInterview(id), [id]));

  return (
    <FormPage
      title="编辑题目"
      listPath={LIST_PATH}
      record={{ loaded, backText: '返回题目列表', reload }}
      historyOf={{ entity: 'interview', id }}
      save={(fields: CreateInterviewBody, interview) => updateInterview(id, { ...fields, version: interview.version })}
      saved="修改题目成功"
    >
      {(onFinish, interview) => (
        <InterviewForm
          // The form reads its initial values once: another question needs a fresh form.
          key={interview._id}
          initialValues={{
            interviewTitle: interview.interviewTitle,
            interviewContent: interview.interviewContent,
            typeId: interview.typeId,
          }}
          submitText="确认修改"
          onFinish={onFinish}
        />
      )}
    </FormPage>
  );
}
