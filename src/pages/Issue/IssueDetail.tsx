import type { ProColumns } from '@ant-design/pro-components';
import { PageContainer, ProTable } from '@ant-design/pro-components';
import { useParams } from '@umijs/max';
import { Card, Descriptions, Space, Switch, Tag, Typography } from 'antd';
import { useCallback, useState } from 'react';
import HtmlView from '@/components/HtmlView';
import { actionsWidth, COLUMN_WIDTH, oneLine } from '@/components/listColumns';
import HistoryButton from '@/components/HistoryDrawer';
import LoadFailed from '@/components/LoadFailed';
import { useListTable } from '@/hooks/useListTable';
import { useLoaded } from '@/hooks/useLoaded';
import { useTypeOptions } from '@/hooks/useTypeOptions';
import { listIssueComments, removeComment } from '@/services/comment';
import { getIssue, updateIssue } from '@/services/issue';
import { staleSwitchMessage } from '@/components/ConflictDialog';
import { conflictOf } from '@/requestErrorConfig';
import type { CommentRow } from '#contract/comment';
import type { Issue } from '#contract/issue';
import { DEFAULT_PAGE_SIZE, FIRST_PAGE } from '#contract/values/paging';
import { message } from '@/utils/feedback';
import { formatDate } from '@/utils/format';
import { ConfirmAction } from '@/components/RowAction';

const LIST_PATH = '/issue';

/** Wide enough for four characters on one line. */
const DETAIL_LABEL = { width: 112, whiteSpace: 'nowrap' } as const;

interface CommentColumnContext {
  serial: (index: number) => number;
  onDelete: (comment: CommentRow) => void;
}

function issueCommentColumns(ctx: CommentColumnContext): ProColumns<CommentRow>[] {
  return [
    {
      title: '序号',
      key: 'serial',
      width: COLUMN_WIDTH.serial,
      align: 'center',
      render: (_, __, index) => ctx.serial(index),
    },
    {
      title: '评论内容',
      dataIndex: 'commentContent',
      render: (_, comment) => <HtmlView html={comment.commentContent} />,
    },
    {
      title: '评论用户',
      key: 'user',
      width: COLUMN_WIDTH.person,
      ...oneLine<CommentRow>(),
      render: (_, comment) => comment.user?.nickname ?? '-',
    },
    {
      title: '评论日期',
      dataIndex: 'commentDate',
      width: COLUMN_WIDTH.date,
      render: (_, comment) => formatDate(comment.commentDate),
    },
    {
      title: '操作',
      valueType: 'option',
      key: 'option',
      width: actionsWidth('删除'),
      render: (_, comment) => [
        <ConfirmAction key="delete" label="删除" danger title="是否要删除该条评论？" onConfirm={() => ctx.onDelete(comment)} />,
      ],
    },
  ];
}

/** The issue's comments, server-paged; `onDeleted` runs after the server removed one. */
function IssueComments({ issueId, onDeleted }: { issueId: string; onDeleted: () => void }) {
  const [paging, setPaging] = useState({ current: FIRST_PAGE, pageSize: DEFAULT_PAGE_SIZE });
  const list = useListTable<CommentRow>({
    request: (params) => {
      setPaging({ current: params.current ?? FIRST_PAGE, pageSize: params.pageSize ?? DEFAULT_PAGE_SIZE });
      return listIssueComments(issueId, params);
    },
    search: false,
  });

  const onDelete = async (comment: CommentRow) => {
    try {
      await removeComment(comment._id);
    } catch {
      // Shown by the global error handler.
      return;
    }
    message.success('删除评论成功');
    onDeleted();
    await list.reload();
  };

  return (
    <ProTable<CommentRow>
      {...list.props(issueCommentColumns({ serial: (index) => (paging.current - 1) * paging.pageSize + index + 1, onDelete }))}
      headerTitle="问答评论"
      options={false}
    />
  );
}

function IssueSummary({ issue, onChange }: { issue: Issue; onChange: (change: (issue: Issue) => Issue) => void }) {
  const { nameOf } = useTypeOptions();
  const [switching, setSwitching] = useState(false);

  const onToggle = async (issueStatus: boolean) => {
    setSwitching(true);
    try {
      const saved = await updateIssue(issue._id, { issueStatus, version: issue.version });
      onChange((current) => ({ ...current, issueStatus, version: saved.version }));
      message.success(issueStatus ? '该问题审核已通过' : '该问题待审核');
    } catch (error) {
      // A conflict is not shown by the request layer: say who changed it and show it as it is now.
      const conflict = conflictOf(error);
      if (conflict) {
        message.warning(staleSwitchMessage(conflict, '该问答'));
        onChange((current) => ({ ...current, ...(conflict.current as Partial<Issue>) }));
      }
    } finally {
      setSwitching(false);
    }
  };

  return (
    <Card>
      <Typography.Title level={2} style={{ margin: '0 0 16px', fontSize: 22 }}>
        {issue.issueTitle}
      </Typography.Title>
      {/*
       * Six facts in rows of three (two on narrower screens), labels never broken (提问用/户), then
       * the description on a row of its own, as wide as the card.
       */}
      <Descriptions bordered column={{ xs: 1, sm: 1, md: 2, lg: 2, xl: 3, xxl: 3 }} styles={{ label: DETAIL_LABEL }}>
        <Descriptions.Item label="提问用户">{issue.user?.nickname ?? '-'}</Descriptions.Item>
        <Descriptions.Item label="提问时间">{formatDate(issue.issueDate)}</Descriptions.Item>
        <Descriptions.Item label="问题分类">
          <Tag color="purple">{nameOf(issue.typeId)}</Tag>
        </Descriptions.Item>
        <Descriptions.Item label="浏览数">{issue.scanNumber}</Descriptions.Item>
        <Descriptions.Item label="评论数">{issue.commentNumber}</Descriptions.Item>
        <Descriptions.Item label="审核状态">
          <Switch
            aria-label="审核状态"
            checkedChildren="已通过"
            unCheckedChildren="待审核"
            checked={issue.issueStatus}
            loading={switching}
            onChange={onToggle}
          />
        </Descriptions.Item>
        <Descriptions.Item label="问题描述" span="filled">
          <HtmlView html={issue.issueContent} />
        </Descriptions.Item>
      </Descriptions>
    </Card>
  );
}

export default function IssueDetail() {
  const { id = '' } = useParams<{ id: string }>();
  const [issue, update, reload] = useLoaded(useCallback(() => getIssue(id), [id]));

  // The server lowered commentNumber in the same transaction as the delete.
  const onCommentDeleted = useCallback(
    () => update((current) => ({ ...current, commentNumber: Math.max(0, current.commentNumber - 1) })),
    [update],
  );

  if (issue.status === 'failed') {
    return (
      <PageContainer title="问答详情">
        <LoadFailed error={issue.error} backTo={LIST_PATH} backText="返回问答列表" />
      </PageContainer>
    );
  }
  return (
    <PageContainer title="问答详情" extra={<HistoryButton entity="issue" id={id} onReverted={reload} />}>
      {issue.status === 'loading' ? (
        <Card loading />
      ) : (
        <Space direction="vertical" size="middle" style={{ width: '100%' }}>
          <IssueSummary issue={issue.value} onChange={update} />
          <IssueComments issueId={issue.value._id} onDeleted={onCommentDeleted} />
        </Space>
      )}
    </PageContainer>
  );
}
