import type { ActionType, ProColumns } from '@ant-design/pro-components';
import { PageContainer, ProTable } from '@ant-design/pro-components';
import { Link } from '@umijs/max';
import { Card, Descriptions, Modal, Popconfirm, Radio, Tag } from 'antd';
import { useRef, useState } from 'react';
import HtmlView from '@/components/HtmlView';
import { useTypeOptions } from '@/hooks/useTypeOptions';
import { listComments, removeComment } from '@/services/comment';
import type { Comment, CommentType } from '@/types/api';
import { message } from '@/utils/feedback';
import { formatDate, plainExcerpt } from '@/utils/format';

export default function CommentList() {
  const actionRef = useRef<ActionType>();
  const { valueEnum, nameOf } = useTypeOptions();
  const [commentType, setCommentType] = useState<CommentType>(1);
  const [paging, setPaging] = useState({ current: 1, pageSize: 10 });
  const [detail, setDetail] = useState<Comment | null>(null);
  const targetTitle = commentType === 1 ? '问题标题' : '书籍标题';

  const onDelete = async (comment: Comment) => {
    try {
      await removeComment(comment._id);
      message.success('删除评论成功');
      await actionRef.current?.reload();
    } catch {
      // Shown by the global error handler.
    }
  };

  const targetLink = (comment: Comment) => {
    if (!comment.target) return '-';
    const to =
      comment.commentType === 1 ? `/issue/${comment.target._id}` : `/book/editBook/${comment.target._id}`;
    return <Link to={to}>{comment.target.title}</Link>;
  };

  const columns: ProColumns<Comment>[] = [
    {
      title: '序号',
      key: 'serial',
      width: 72,
      align: 'center',
      search: false,
      render: (_, __, index) => (paging.current - 1) * paging.pageSize + index + 1,
    },
    { title: targetTitle, key: 'target', search: false, render: (_, comment) => targetLink(comment) },
    {
      title: '评论内容',
      dataIndex: 'commentContent',
      render: (_, comment) => plainExcerpt(comment.commentContent, 30),
    },
    { title: '评论用户', key: 'user', search: false, render: (_, comment) => comment.user?.nickname ?? '-' },
    {
      title: '评论分类',
      dataIndex: 'typeId',
      valueType: 'select',
      valueEnum,
      render: (_, comment) => <Tag color="purple">{nameOf(comment.typeId)}</Tag>,
    },
    {
      title: '评论日期',
      dataIndex: 'commentDate',
      search: false,
      render: (_, comment) => formatDate(comment.commentDate),
    },
    {
      title: '操作',
      valueType: 'option',
      key: 'option',
      render: (_, comment) => [
        <a key="detail" onClick={() => setDetail(comment)}>
          详情
        </a>,
        <Popconfirm
          key="delete"
          title="是否要删除该条评论？"
          okText="删除"
          cancelText="取消"
          onConfirm={() => onDelete(comment)}
        >
          <a>删除</a>
        </Popconfirm>,
      ],
    },
  ];

  return (
    <PageContainer>
      <Card style={{ marginBottom: 16 }}>
        <Radio.Group
          value={commentType}
          // The table's params carry the kind, so changing it fetches afresh.
          onChange={(event) => setCommentType(event.target.value as CommentType)}
        >
          <Radio.Button value={1}>问答评论</Radio.Button>
          <Radio.Button value={2}>书籍评论</Radio.Button>
        </Radio.Group>
      </Card>
      <ProTable<Comment>
        headerTitle="评论列表"
        rowKey="_id"
        actionRef={actionRef}
        columns={columns}
        params={{ commentType }}
        request={({ commentType: kind, ...params }) => {
          setPaging({ current: params.current ?? 1, pageSize: params.pageSize ?? 10 });
          return listComments(kind as CommentType, params);
        }}
        pagination={{
          defaultPageSize: 10,
          pageSizeOptions: [10, 20, 50, 100],
          showSizeChanger: true,
          showQuickJumper: true,
        }}
        options={{ density: false, setting: false }}
      />
      <Modal
        title="评论详情"
        open={detail !== null}
        onCancel={() => setDetail(null)}
        footer={null}
        destroyOnClose
      >
        {detail && (
          <Descriptions column={1} bordered size="small">
            <Descriptions.Item label={detail.commentType === 1 ? '问题标题' : '书籍标题'}>
              {detail.target?.title ?? '-'}
            </Descriptions.Item>
            <Descriptions.Item label="评论用户">{detail.user?.nickname ?? '-'}</Descriptions.Item>
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
