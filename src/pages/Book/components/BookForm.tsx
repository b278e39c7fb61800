import { ProForm, ProFormSelect, ProFormText } from '@ant-design/pro-components';
import type { Rule } from 'antd/es/form';
import { PageForm } from '@/components/FormPage';
import ImageUpload from '@/components/ImageUpload';
import RichEditor from '@/components/RichEditor';
import { richTextRequired } from '@/components/RichEditor/rules';
import TypeSelect from '@/components/TypeSelect';
import type { CreateBookBody } from '#contract/book';

export const LIST_PATH = '/book/bookList';

const POINT_OPTIONS = [10, 20, 30, 40].map((points) => ({ label: String(points), value: points }));

/** The server's own rule for downloadLink (docs/api.md: an http or https URL). */
const DOWNLOAD_LINK = /^https?:\/\/[^\s]+$/;

const linkIsUrl: Rule = {
  async validator(_, value: string | undefined) {
    const link = value?.trim() ?? '';
    if (link !== '' && !DOWNLOAD_LINK.test(link)) {
      throw new Error('请输入以 http:// 或 https:// 开头的有效链接');
    }
  },
};

/** What the form holds before the first answer: the selects start unchosen. */
type BookDraft = Omit<CreateBookBody, 'requirePoints' | 'typeId'> & {
  requirePoints?: number;
  typeId?: string;
};

const EMPTY_BOOK: BookDraft = { bookTitle: '', bookIntro: '', downloadLink: '', bookPic: '' };

interface BookFormProps {
  initialValues?: CreateBookBody;
  submitText: string;
  /** The form page's save (components/FormPage). */
  onFinish: (fields: CreateBookBody) => Promise<void>;
}

/** The book form of the add and edit pages. */
export default function BookForm({ initialValues, submitText, onFinish }: BookFormProps) {
  return (
    <PageForm<CreateBookBody>
      labelSpan={3}
      fieldSpan={18}
      initialValues={initialValues ?? EMPTY_BOOK}
      submitText={submitText}
      onFinish={async (values) => {
        await onFinish({
          bookTitle: values.bookTitle.trim(),
          bookIntro: values.bookIntro,
          downloadLink: values.downloadLink.trim(),
          requirePoints: values.requirePoints,
          typeId: values.typeId,
          // An empty cover is sent as '' so that the server puts its default cover in.
          bookPic: values.bookPic?.trim() ?? '',
        });
      }}
    >
      <ProFormText
        name="bookTitle"
        label="书籍标题"
        placeholder="请输入书名"
        rules={[{ required: true, whitespace: true, message: '请输入书名' }]}
        fieldProps={{ maxLength: 100 }}
      />
      <ProForm.Item name="bookIntro" label="书籍介绍" required rules={[richTextRequired('请输入书本相关的介绍')]}>
        <RichEditor label="书籍介绍" placeholder="请输入书本相关的介绍" />
      </ProForm.Item>
      <ProFormText
        name="downloadLink"
        label="下载链接"
        placeholder="请输入书籍链接"
        rules={[{ required: true, whitespace: true, message: '请输入书籍链接' }, linkIsUrl]}
        fieldProps={{ maxLength: 2048 }}
      />
      <ProFormSelect
        name="requirePoints"
        label="所需积分"
        placeholder="请选择下载所需积分"
        options={POINT_OPTIONS}
        rules={[{ required: true, message: '请选择下载所需积分' }]}
        fieldProps={{ allowClear: false }}
      />
      <ProForm.Item name="typeId" label="书籍分类" rules={[{ required: true, message: '请选择书籍分类' }]}>
        <TypeSelect placeholder="请选择书籍分类" />
      </ProForm.Item>
      <ProForm.Item name="bookPic" label="书籍封面">
        <ImageUpload aspect={3 / 4} addressLabel="封面地址" />
      </ProForm.Item>
    </PageForm>
  );
}
