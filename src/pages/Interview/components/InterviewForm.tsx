import { ProForm, ProFormText } from '@ant-design/pro-components';
import { Space } from 'antd';
import type { Rule } from 'antd/es/form';
import RichEditor from '@/components/RichEditor';
import TypeSelect from '@/components/TypeSelect';
import type { InterviewFields } from '@/types/api';

export const LIST_PATH = '/interview/interviewList';

export const EMPTY_INTERVIEW: InterviewFields = { interviewTitle: '', interviewContent: '', typeId: '' };

/**
 * An editor left empty still holds markup such as `<p></p>`: the answer counts as given when it
 * shows some text or an image.
 */
export function hasVisibleContent(html: string | undefined): boolean {
  const doc = new DOMParser().parseFromString(html ?? '', 'text/html');
  return (doc.body.textContent ?? '').trim() !== '' || doc.body.querySelector('img') !== null;
}

const contentRequired: Rule = {
  async validator(_, value: string | undefined) {
    if (!hasVisibleContent(value)) throw new Error('请输入题目解答');
  },
};

interface InterviewFormProps {
  initialValues?: InterviewFields;
  submitText: string;
  /** Resolves once the server has answered; a refusal has been shown by the request layer. */
  onFinish: (fields: InterviewFields) => Promise<void>;
}

/** The question form of the add and edit pages. */
export default function InterviewForm({
  initialValues = EMPTY_INTERVIEW,
  submitText,
  onFinish,
}: InterviewFormProps) {
  return (
    <ProForm<InterviewFields>
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
      <ProForm.Item
        name="typeId"
        label="题目分类"
        rules={[{ required: true, message: '请选择题目所属分类' }]}
      >
        <TypeSelect placeholder="请选择题目所属分类" />
      </ProForm.Item>
      <ProForm.Item
        name="interviewContent"
        label="题目内容"
        required
        rules={[contentRequired]}
      >
        <RichEditor placeholder="请输入题目解答" />
      </ProForm.Item>
    </ProForm>
  );
}
