import FormPage from '@/components/FormPage';
import { createBook } from '@/services/book';
import type { CreateBookBody } from '#contract/book';
import BookForm, { LIST_PATH } from './components/BookForm';

export default function AddBook() {
  return (
    <FormPage title="添加书籍" listPath={LIST_PATH} save={(fields: CreateBookBody) => createBook(fields)} saved="添加书籍成功">
      {(onFinish) => <BookForm submitText="确认新增" onFinish={onFinish} />}
    </FormPage>
  );
}
