import type { ActionType, ProColumns } from '@ant-design/pro-components';
import { PageContainer, ProTable } from '@ant-design/pro-components';
import { history } from '@umijs/max';
import { Image } from 'antd';
import { useRef } from 'react';
import { useListExport } from '@/components/ExportButton';
import { dateColumn, indexColumn, serverPagination, tableOptions, typeColumn } from '@/components/listColumns';
import { AddButton, DeleteAction } from '@/components/ListActions';
import { DEFAULT_BOOK_COVER } from '@/constants';
import { useTypeOptions } from '@/hooks/useTypeOptions';
import { listBooks, removeBook } from '@/services/book';
import type { FilterKey } from '@/services/table';
import type { Book, BookListQuery } from '../../../contract/book';
import { plainExcerpt } from '@/utils/format';

export default function BookList() {
  const actionRef = useRef<ActionType>();
  const exporter = useListExport('book');
  const types = useTypeOptions();

  const columns: ProColumns<Book>[] = [
    indexColumn(),
    { title: '书籍名称', dataIndex: 'bookTitle' satisfies FilterKey<BookListQuery> },
    typeColumn('书籍分类', types),
    {
      title: '书籍简介',
      dataIndex: 'bookIntro',
      search: false,
      render: (_, book) => plainExcerpt(book.bookIntro, 15),
    },
    {
      title: '书籍封面',
      dataIndex: 'bookPic',
      search: false,
      render: (_, book) => (
        <Image
          src={book.bookPic || DEFAULT_BOOK_COVER}
          fallback={DEFAULT_BOOK_COVER}
          alt={`${book.bookTitle}的封面`}
          width={60}
          height={80}
          style={{ objectFit: 'cover', borderRadius: 4 }}
        />
      ),
    },
    { title: '浏览数', dataIndex: 'scanNumber', search: false },
    { title: '评论数', dataIndex: 'commentNumber', search: false },
    dateColumn('上架日期', 'onShelfDate'),
    {
      title: '操作',
      valueType: 'option',
      key: 'option',
      render: (_, book) => [
        <a key="edit" onClick={() => history.push(`/book/editBook/${book._id}`)}>
          编辑
        </a>,
        <DeleteAction
          key="delete"
          title="是否要删除该书籍以及该书籍对应的评论？"
          remove={() => removeBook(book._id)}
          done="删除书籍成功"
          onDeleted={() => actionRef.current?.reload()}
        />,
      ],
    },
  ];

  return (
    <PageContainer>
      <ProTable<Book>
        headerTitle="书籍列表"
        rowKey="_id"
        actionRef={actionRef}
        columns={columns}
        request={exporter.track(listBooks)}
        pagination={serverPagination}
        options={tableOptions}
        toolBarRender={() => [
          exporter.button,
          <AddButton key="add" to="/book/addBook">
            添加书籍
          </AddButton>,
        ]}
      />
    </PageContainer>
  );
}
