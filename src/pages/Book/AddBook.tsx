import { PageContainer } from '@ant-design/pro-components';
import { history } from '@umijs/max';
import { Card } from 'antd';
import { createBook } from '@/services/book';
import type { CreateBookBody } from '../../../contract/book';
import { message } from '@/utils/feedback';
import BookForm, { LIST_PATH } from './components/BookForm';

export default function AddBook() {
  const onFinish = async (fields: CreateBookBody) => {
    try {
      await createBook(fields);
    } catch {
      // The global error handler has shown the server's message; the form keeps what was typed.
      return;
    }
    message.success('添加书籍成功');
    history.push(LIST_PATH);
  };

  return (
    <PageContainer title="添加书籍">
      <Card>
        <BookForm submitText="确认新增" onFinish={onFinish} />
      </Card>
    </PageContainer>
  );
}
