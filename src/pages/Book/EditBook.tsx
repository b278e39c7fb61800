import { useParams } from '@umijs/max';
import { useCallback } from 'react';
import FormPage from '@/components/FormPage';
import { useLoaded } from '@/hooks/useLoaded';
import { getBook, updateBook } from '@/services/book';
import type { CreateBookBody } from '#contract/book';
import BookForm, { LIST_PATH } from './components/BookForm';

export default function EditBook() {
  const { id = '' } = useParams<{ id: string }>();
  const [loaded, , reload] = useLoaded(useCallback(() => getBook(id), [id]));

  return (
    <FormPage
      title="编辑书籍信息"
      listPath={LIST_PATH}
      record={{ loaded, backText: '返回书籍列表', reload }}
      historyOf={{ entity: 'book', id }}
      save={(fields: CreateBookBody, book) => updateBook(id, { ...fields, version: book.version })}
      saved="书籍信息修改成功"
    >
      {(onFinish, book) => (
        <BookForm
          // The form reads its initial values once: another book needs a fresh form.
          key={book._id}
          initialValues={{
            bookTitle: book.bookTitle,
            bookIntro: book.bookIntro,
            downloadLink: book.downloadLink,
            requirePoints: book.requirePoints,
            typeId: book.typeId,
            bookPic: book.bookPic,
          }}
          submitText="确认修改"
          onFinish={onFinish}
        />
      )}
    </FormPage>
  );
}
