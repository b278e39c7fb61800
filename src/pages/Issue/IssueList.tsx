import type { ProColumns } from '@ant-design/pro-components';
import { PageContainer, ProTable } from '@ant-design/pro-components';
import { history } from '@umijs/max';
import { Switch } from 'antd';
import { actionsWidth, COLUMN_WIDTH, indexColumn, typeColumn, oneLine } from '@/components/listColumns';
import { useListExport } from '@/components/ExportButton';
import { useListTable } from '@/hooks/useListTable';
import { DeleteAction } from '@/components/ListActions';
import { usePendingIds } from '@/hooks/usePendingIds';
import { useTypeOptions } from '@/hooks/useTypeOptions';
import { listIssues, removeIssue, updateIssue } from '@/services/issue';
import type { FilterKey } from '@/services/table';
import type { Issue, IssueListQuery } from '#contract/issue';
import { message } from '@/utils/feedback';
import { cut, plainExcerpt } from '@/utils/format';
import { RowAction } from '@/components/RowAction';
import { staleSwitchMessage } from '@/components/ConflictDialog';
import { conflictOf, errorCodeOf } from '@/requestErrorConfig';

interface ColumnContext {
  types: ReturnType<typeof useTypeOptions>;
  isPending: (id: string) => boolean;
  onToggle: (issue: Issue, issueStatus: boolean) => void;
  reload: () => unknown;
}

function issueColumns(ctx: ColumnContext): ProColumns<Issue>[] {
  return [
    indexColumn(),
    {
      title: '问答标题',
      dataIndex: 'issueTitle' satisfies FilterKey<IssueListQuery>,
      ...oneLine<Issue>(),
      render: (_, issue) => <span title={issue.issueTitle}>{cut(issue.issueTitle, 22)}</span>,
    },
    {
      title: '问答描述',
      dataIndex: 'issueContent',
      ...oneLine<Issue>(),
      search: false,
      render: (_, issue) => plainExcerpt(issue.issueContent, 30),
    },
    {
      title: '提问用户',
      key: 'user',
      width: COLUMN_WIDTH.person,
      ...oneLine<Issue>(),
      search: false,
      render: (_, issue) => issue.user?.nickname ?? '-',
    },
    { title: '浏览数', dataIndex: 'scanNumber', width: COLUMN_WIDTH.count, search: false },
    { title: '评论数', dataIndex: 'commentNumber', width: COLUMN_WIDTH.count, search: false },
    typeColumn('问题分类', ctx.types),
    {
      title: '审核状态',
      dataIndex: 'issueStatus' satisfies FilterKey<IssueListQuery>,
      width: COLUMN_WIDTH.toggle,
      valueType: 'select',
      valueEnum: { false: { text: '待审核' }, true: { text: '已通过' } },
      render: (_, issue) => (
        <Switch
          size="small"
          aria-label={`${issue.issueTitle} 审核状态`}
          checkedChildren="已通过"
          unCheckedChildren="待审核"
          checked={issue.issueStatus}
          loading={ctx.isPending(issue._id)}
          onChange={(checked) => ctx.onToggle(issue, checked)}
        />
      ),
    },
    {
      title: '操作',
      valueType: 'option',
      key: 'option',
      width: actionsWidth('详情', '删除'),
      render: (_, issue) => [
        <RowAction key="detail" onClick={() => history.push(`/issue/${issue._id}`)}>
          详情
        </RowAction>,
        <DeleteAction
          key="delete"
          title="是否要删除该问答以及该问答对应的评论？"
          remove={() => removeIssue(issue._id)}
          done="删除问答成功"
          onDeleted={ctx.reload}
        />,
      ],
    },
  ];
}

export default function IssueList() {
  const exporter = useListExport('issue');
  const list = useListTable<Issue>({
    request: exporter.track(listIssues),
    batch: {
      resource: 'issue',
      actions: [
        { action: 'approve', label: '审核通过' },
        { action: 'unapprove', label: '取消审核' },
        { action: 'delete', label: '删除', danger: true },
      ],
    },
  });
  const types = useTypeOptions();
  const { isPending, whilePending } = usePendingIds();
  const { reload } = list;

  const onToggle = (issue: Issue, issueStatus: boolean) =>
    whilePending(issue._id, async () => {
      try {
        await updateIssue(issue._id, { issueStatus, version: issue.version });
        message.success(issueStatus ? '该问题审核已通过' : '该问题待审核');
        await reload();
      } catch (error) {
        // A conflict is not shown by the request layer: say who changed it and show it as it is now.
        // Anything else the global error handler has shown.
        if (errorCodeOf(error) === 'VERSION_CONFLICT') {
          message.warning(staleSwitchMessage(conflictOf(error), '该问答'));
          await reload();
        }
      }
    });

  return (
    // The table's header names the list; a page heading would say it a second time.
    <PageContainer title={false}>
      <ProTable<Issue>
        {...list.props(issueColumns({ types, isPending, onToggle, reload }))}
        headerTitle="问答列表"
        toolBarRender={() => [exporter.button]}
      />
    </PageContainer>
  );
}
