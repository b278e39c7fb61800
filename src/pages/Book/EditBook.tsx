import { PageContainer } from '@ant-design/pro-components';
import { history, useParams } from '@umijs/max';
import { Card, Skeleton } from 'antd';
import { useCallback } from 'react';
import LoadFailed from '@/components/LoadFailed';
import { useLoaded } from '@/hooks/useLoaded';
import { getBook, updateBook } from '@/services/book';
import type { CreateBookBody } from '../../../contract/book';
import { message } from '@/utils/feedback';
import BookForm, { LIST_PATH } from './components/BookForm';

export default function EditBook() {
  const { id = '' } = useParams<{ id: string }>();
  const [loaded] = useLoaded(useCallback(() => getBook(id), [id]));

  const onFinish = async (fields: CreateBookBody) => {
    try {
      await updateBook(id, fields);
    } catch {
      // Shown by the global error handler; the form keeps the edits.
      return;
    }
    message.success('书籍信息修改成功');
    history.push(LIST_PATH);
  };

  if (loaded.status === 'failed') {
    return (
      <PageContainer title="编辑书籍信息">
        <LoadFailed error={loaded.error} backTo={LIST_PATH} backText="返回书籍列表" />
      </PageContainer>
    );
  }
  return (
    <PageContainer title="编辑书籍信息">
      <Card>
        {loaded.status === 'loading' ? (
          <Skeleton active />
        ) : (
          <BookForm
            // The form reads its initial values once: another book needs a fresh form.
            key={loaded.value._id}
            initialValues={{
              bookTitle: loaded.value.bookTitle,
              bookIntro: loaded.value.bookIntro,
              downloadLink: loaded.value.downloadLink,
              requirePoints: loaded.value.requirePoints,
              typeId: loaded.value.typeId,
              bookPic: loaded.value.bookPic,
            }}
            submitText="确认修改"
            onFinish={onFinish}
          />
        )}
      </Card>
    </PageContainer>
  );
}
