import { ProForm, ProFormText } from '@ant-design/pro-components';
import { Space } from 'antd';
import RichEditor from '@/components/RichEditor';
import { richTextRequired } from '@/components/RichEditor/rules';
import TypeSelect from '@/components/TypeSelect';
import type { CreateInterviewBody } from '#contract/interview';

export const LIST_PATH = '/interview/interviewList';

export const EMPTY_INTERVIEW: CreateInterviewBody = { interviewTitle: '', interviewContent: '', typeId: '' };

interface InterviewFormProps {
  initialValues?: CreateInterviewBody;
  submitText: string;
  /** Resolves once the server has answered; a refusal has been shown by the request layer. */
  onFinish: (fields: CreateInterviewBody) => Promise<void>;
}

/** The question form of the add and edit pages. */
export default function InterviewForm({ initialValues = EMPTY_INTERVIEW, submitText, onFinish }: InterviewFormProps) {
  return (
    <ProForm<CreateInterviewBody>
      layout="horizontal"
      labelCol={{ span: 3 }}
      wrapperCol={{ span: 18 }}
      initialValues={initialValues}
      onFinish={async (values) => {
        await onFinish({
          interviewTitle: values.interviewTitle.trim(),
          interviewContent: values.interviewContent,
          typeId: values.typeId,
        });
      }}
      submitter={{
        searchConfig: { submitText, resetText: '重置' },
        render: (_, [reset, submit]) => (
          <ProForm.Item wrapperCol={{ offset: 3, span: 18 }}>
            <Space>
              {submit}
              {reset}
            </Space>
          </ProForm.Item>
        ),
      }}
    >
      <ProFormText
        name="interviewTitle"
        label="题目标题"
        placeholder="请输入题目标题"
        rules={[{ required: true, whitespace: true, message: '请输入题目标题' }]}
        fieldProps={{ maxLength: 200 }}
      />
      <ProForm.Item name="typeId" label="题目分类" rules={[{ required: true, message: '请选择题目所属分类' }]}>
        <TypeSelect placeholder="请选择题目所属分类" />
      </ProForm.Item>
      <ProForm.Item name="interviewContent" label="题目内容" required rules={[richTextRequired('请输入题目解答')]}>
        <RichEditor label="题目内容" placeholder="请输入题目解答" />
      </ProForm.Item>
    </ProForm>
  );
}
