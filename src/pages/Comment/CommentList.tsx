import type { ProColumns } from '@ant-design/pro-components';
import { PageContainer, ProTable } from '@ant-design/pro-components';
import { Link } from '@umijs/max';
import { Card, Descriptions, Modal, Radio } from 'antd';
import { useState } from 'react';
import { useListExport } from '@/components/ExportButton';
import { useListTable } from '@/hooks/useListTable';
import HtmlView from '@/components/HtmlView';
import { actionsWidth, COLUMN_WIDTH, dateColumn, indexColumn, typeColumn, oneLine } from '@/components/listColumns';
import { DeleteAction } from '@/components/ListActions';
import { useTypeOptions } from '@/hooks/useTypeOptions';
import { listComments, removeComment } from '@/services/comment';
import type { FilterKey } from '@/services/table';
import type { CommentListQuery, CommentRow, CommentTypeParams } from '#contract/comment';
import { COMMENT_TYPES, type CommentType } from '#contract/values/comment';
import { formatDate, plainExcerpt } from '@/utils/format';
import { RowAction } from '@/components/RowAction';

const TARGET_TITLE: Record<CommentType, string> = { [COMMENT_TYPES.issue]: '问题标题', [COMMENT_TYPES.book]: '书籍标题' };

interface ColumnContext {
  types: ReturnType<typeof useTypeOptions>;
  commentType: CommentType;
  onDetail: (comment: CommentRow) => void;
  reload: () => unknown;
}

/** The issue's or book's title, linking to it. */
function targetLink(comment: CommentRow) {
  if (!comment.target) return '-';
  const to = comment.commentType === COMMENT_TYPES.issue ? `/issue/${comment.target._id}` : `/book/editBook/${comment.target._id}`;
  return (
    <Link to={to} title={comment.target.title}>
      {comment.target.title}
    </Link>
  );
}

function commentColumns(ctx: ColumnContext): ProColumns<CommentRow>[] {
  return [
    indexColumn(),
    {
      title: TARGET_TITLE[ctx.commentType],
      key: 'target',
      ...oneLine<CommentRow>(),
      search: false,
      render: (_, comment) => targetLink(comment),
    },
    {
      title: '评论内容',
      dataIndex: 'commentContent' satisfies FilterKey<CommentListQuery>,
      ...oneLine<CommentRow>(),
      render: (_, comment) => plainExcerpt(comment.commentContent, 30),
    },
    {
      title: '评论用户',
      key: 'user',
      width: COLUMN_WIDTH.person,
      ...oneLine<CommentRow>(),
      search: false,
      render: (_, comment) => comment.user?.nickname ?? '-',
    },
    typeColumn('评论分类', ctx.types),
    dateColumn('评论日期', 'commentDate'),
    {
      title: '操作',
      valueType: 'option',
      key: 'option',
      width: actionsWidth('详情', '删除'),
      render: (_, comment) => [
        <RowAction key="detail" onClick={() => ctx.onDetail(comment)}>
          详情
        </RowAction>,
        <DeleteAction
          key="delete"
          title="是否要删除该条评论？"
          remove={() => removeComment(comment._id)}
          done="删除评论成功"
          onDeleted={ctx.reload}
        />,
      ],
    },
  ];
}

export default function CommentList() {
  const exporter = useListExport('comment');
  const list = useListTable<CommentRow, CommentTypeParams>({
    request: exporter.track(listComments),
    batch: { resource: 'comment', actions: [{ action: 'delete', label: '删除', danger: true }] },
  });
  const types = useTypeOptions();
  // The kind is in the address with the rest of the list's state (a shared link, Back).
  const [commentType, setCommentType] = useState<CommentType>(() =>
    list.query.get('commentType') === String(COMMENT_TYPES.book) ? COMMENT_TYPES.book : COMMENT_TYPES.issue,
  );
  const [detail, setDetail] = useState<CommentRow | null>(null);

  return (
    // The table's header names the list; a page heading would say it a second time.
    <PageContainer title={false}>
      <Card style={{ marginBottom: 16 }}>
        <Radio.Group
          value={commentType}
          // The table's params carry the kind, so changing it fetches afresh.
          onChange={(event) => setCommentType(event.target.value as CommentType)}
        >
          <Radio.Button value={COMMENT_TYPES.issue}>问答评论</Radio.Button>
          <Radio.Button value={COMMENT_TYPES.book}>书籍评论</Radio.Button>
        </Radio.Group>
      </Card>
      <ProTable<CommentRow, CommentTypeParams>
        {...list.props(commentColumns({ types, commentType, onDetail: setDetail, reload: list.reload }))}
        headerTitle="评论列表"
        params={{ commentType }}
        toolBarRender={() => [exporter.button]}
      />
      <Modal title="评论详情" open={detail !== null} onCancel={() => setDetail(null)} footer={null} destroyOnHidden>
        {detail && (
          <Descriptions column={1} bordered size="small">
            <Descriptions.Item label={TARGET_TITLE[detail.commentType]}>{detail.target.title}</Descriptions.Item>
            <Descriptions.Item label="评论用户">{detail.user.nickname}</Descriptions.Item>
            <Descriptions.Item label="评论日期">{formatDate(detail.commentDate)}</Descriptions.Item>
            <Descriptions.Item label="评论内容">
              <HtmlView html={detail.commentContent} />
            </Descriptions.Item>
          </Descriptions>
        )}
      </Modal>
    </PageContainer>
  );
}
