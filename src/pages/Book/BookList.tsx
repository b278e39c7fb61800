import { PlusOutlined } from '@ant-design/icons';
import type { ActionType, ProColumns } from '@ant-design/pro-components';
import { PageContainer, ProTable } from '@ant-design/pro-components';
import { history } from '@umijs/max';
import { Button, Image, Popconfirm, Tag } from 'antd';
import { useRef, useState } from 'react';
import { DEFAULT_BOOK_COVER } from '@/constants';
import { useTypeOptions } from '@/hooks/useTypeOptions';
import { listBooks, removeBook } from '@/services/book';
import type { Book } from '@/types/api';
import { message } from '@/utils/feedback';
import { formatDate, plainExcerpt } from '@/utils/format';

export default function BookList() {
  const actionRef = useRef<ActionType>();
  const { valueEnum, nameOf } = useTypeOptions();
  const [paging, setPaging] = useState({ current: 1, pageSize: 10 });

  const onDelete = async (book: Book) => {
    try {
      await removeBook(book._id);
      message.success('删除书籍成功');
      await actionRef.current?.reload();
    } catch {
      // The global error handler has shown the server's message.
    }
  };

  const columns: ProColumns<Book>[] = [
    {
      title: '序号',
      key: 'serial',
      width: 72,
      align: 'center',
      search: false,
      render: (_, __, index) => (paging.current - 1) * paging.pageSize + index + 1,
    },
    { title: '书籍名称', dataIndex: 'bookTitle' },
    {
      title: '书籍分类',
      dataIndex: 'typeId',
      valueType: 'select',
      valueEnum,
      render: (_, book) => <Tag color="purple">{nameOf(book.typeId)}</Tag>,
    },
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
    {
      title: '上架日期',
      dataIndex: 'onShelfDate',
      search: false,
      render: (_, book) => formatDate(book.onShelfDate),
    },
    {
      title: '操作',
      valueType: 'option',
      key: 'option',
      render: (_, book) => [
        <a key="edit" onClick={() => history.push(`/book/editBook/${book._id}`)}>
          编辑
        </a>,
        <Popconfirm
          key="delete"
          title="是否要删除该书籍以及该书籍对应的评论？"
          okText="删除"
          cancelText="取消"
          onConfirm={() => onDelete(book)}
        >
          <a>删除</a>
        </Popconfirm>,
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
        request={(params) => {
          setPaging({ current: params.current ?? 1, pageSize: params.pageSize ?? 10 });
          return listBooks(params);
        }}
        pagination={{
          defaultPageSize: 10,
          pageSizeOptions: [10, 20, 50, 100],
          showSizeChanger: true,
          showQuickJumper: true,
        }}
        options={{ density: false, setting: false }}
        toolBarRender={() => [
          <Button
            key="add"
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => history.push('/book/addBook')}
          >
            添加书籍
          </Button>,
        ]}
      />
    </PageContainer>
  );
}
