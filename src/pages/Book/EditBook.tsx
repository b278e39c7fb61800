import { PageContainer } from '@ant-design/pro-components';
import { history, useParams } from '@umijs/max';
import { Button, Card, Empty, Skeleton } from 'antd';
import { useEffect, useState } from 'react';
import { describeRequestError } from '@/requestErrorConfig';
import { getBook, updateBook } from '@/services/book';
import type { Book, BookFields } from '@/types/api';
import { message } from '@/utils/feedback';
import BookForm, { LIST_PATH } from './components/BookForm';

type Loading = { state: 'loading' } | { state: 'failed'; msg: string } | { state: 'ready'; book: Book };

function useBook(id: string): Loading {
  const [loading, setLoading] = useState<Loading>({ state: 'loading' });
  useEffect(() => {
    let current = true;
    setLoading({ state: 'loading' });
    getBook(id).then(
      (book) => current && setLoading({ state: 'ready', book }),
      (error: unknown) => current && setLoading({ state: 'failed', msg: describeRequestError(error) }),
    );
    // An answer for a book the page has left must not fill the form of the next one.
    return () => {
      current = false;
    };
  }, [id]);
  return loading;
}

export default function EditBook() {
  const { id = '' } = useParams<{ id: string }>();
  const loading = useBook(id);

  const onFinish = async (fields: BookFields) => {
    try {
      await updateBook(id, fields);
    } catch {
      // Shown by the global error handler; the form keeps the edits.
      return;
    }
    message.success('书籍信息修改成功');
    history.push(LIST_PATH);
  };

  return (
    <PageContainer title="编辑书籍信息">
      <Card>
        {loading.state === 'loading' && <Skeleton active />}
        {loading.state === 'failed' && (
          <Empty description={loading.msg}>
            <Button type="primary" onClick={() => history.push(LIST_PATH)}>
              返回书籍列表
            </Button>
          </Empty>
        )}
        {loading.state === 'ready' && (
          <BookForm
            // The form reads its initial values once: another book needs a fresh form.
            key={loading.book._id}
            initialValues={{
              bookTitle: loading.book.bookTitle,
              bookIntro: loading.book.bookIntro,
              downloadLink: loading.book.downloadLink,
              requirePoints: loading.book.requirePoints,
              typeId: loading.book.typeId,
              bookPic: loading.book.bookPic,
            }}
            submitText="确认修改"
            onFinish={onFinish}
          />
        )}
      </Card>
    </PageContainer>
  );
}
