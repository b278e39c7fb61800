import type { ProColumns } from '@ant-design/pro-components';
import { PageContainer, ProTable } from '@ant-design/pro-components';
import { history } from '@umijs/max';
import { Image } from 'antd';
import { actionsWidth, COLUMN_WIDTH, dateColumn, indexColumn, typeColumn, oneLine } from '@/components/listColumns';
import { useListExport } from '@/components/ExportButton';
import { useListTable } from '@/hooks/useListTable';
import { AddButton, DeleteAction } from '@/components/ListActions';
import { DEFAULT_BOOK_COVER } from '@/constants';
import { useTypeOptions } from '@/hooks/useTypeOptions';
import { listBooks, removeBook } from '@/services/book';
import type { FilterKey } from '@/services/table';
import type { Book, BookListQuery } from '#contract/book';
import { plainExcerpt } from '@/utils/format';
import { RowAction } from '@/components/RowAction';

interface ColumnContext {
  types: ReturnType<typeof useTypeOptions>;
  reload: () => unknown;
}

function bookColumns(ctx: ColumnContext): ProColumns<Book>[] {
  return [
    indexColumn(),
    { title: '书籍名称', dataIndex: 'bookTitle' satisfies FilterKey<BookListQuery>, ...oneLine<Book>((book) => book.bookTitle) },
    typeColumn('书籍分类', ctx.types),
    {
      title: '书籍简介',
      dataIndex: 'bookIntro',
      ...oneLine<Book>(),
      search: false,
      render: (_, book) => plainExcerpt(book.bookIntro, 15),
    },
    {
      title: '书籍封面',
      dataIndex: 'bookPic',
      width: 100,
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
    { title: '浏览数', dataIndex: 'scanNumber', width: COLUMN_WIDTH.count, search: false },
    { title: '评论数', dataIndex: 'commentNumber', width: COLUMN_WIDTH.count, search: false },
    dateColumn('上架日期', 'onShelfDate'),
    {
      title: '操作',
      valueType: 'option',
      key: 'option',
      width: actionsWidth('编辑', '删除'),
      render: (_, book) => [
        <RowAction key="edit" onClick={() => history.push(`/book/editBook/${book._id}`)}>
          编辑
        </RowAction>,
        <DeleteAction
          key="delete"
          title="是否要删除该书籍以及该书籍对应的评论？"
          remove={() => removeBook(book._id)}
          done="删除书籍成功"
          onDeleted={ctx.reload}
        />,
      ],
    },
  ];
}

export default function BookList() {
  const exporter = useListExport('book');
  const list = useListTable<Book>({
    request: exporter.track(listBooks),
    batch: { resource: 'book', actions: [{ action: 'delete', label: '删除', danger: true }] },
  });
  const types = useTypeOptions();

  return (
    // The table's header names the list; a page heading would say it a second time.
    <PageContainer title={false}>
      <ProTable<Book>
        {...list.props(bookColumns({ types, reload: list.reload }))}
        headerTitle="书籍列表"
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
