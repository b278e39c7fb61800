import type { ActionType, ProColumns } from '@ant-design/pro-components';
import { PageContainer, ProTable } from '@ant-design/pro-components';
import { history } from '@umijs/max';
import { Switch } from 'antd';
import { useRef } from 'react';
import { useListExport } from '@/components/ExportButton';
import { indexColumn, serverPagination, tableOptions, typeColumn } from '@/components/listColumns';
import { DeleteAction } from '@/components/ListActions';
import { usePendingIds } from '@/hooks/usePendingIds';
import { useTypeOptions } from '@/hooks/useTypeOptions';
import { listIssues, removeIssue, updateIssue } from '@/services/issue';
import type { FilterKey } from '@/services/table';
import type { Issue, IssueListQuery } from '../../../contract/issue';
import { message } from '@/utils/feedback';
import { cut, plainExcerpt } from '@/utils/format';

export default function IssueList() {
  const actionRef = useRef<ActionType>();
  const exporter = useListExport('issue');
  const types = useTypeOptions();
  const { isPending, whilePending } = usePendingIds();
  const initialStatus = new URLSearchParams(history.location.search).get('issueStatus');
  const reload = () => actionRef.current?.reload();

  const onToggle = (issue: Issue, issueStatus: boolean) =>
    whilePending(issue._id, async () => {
      try {
        await updateIssue(issue._id, { issueStatus });
        message.success(issueStatus ? '该问题审核已通过' : '该问题待审核');
        await reload();
      } catch {
        // The global error handler has shown the server's message.
      }
    });

  const columns: ProColumns<Issue>[] = [
    indexColumn(),
    {
      title: '问答标题',
      dataIndex: 'issueTitle' satisfies FilterKey<IssueListQuery>,
      render: (_, issue) => <span title={issue.issueTitle}>{cut(issue.issueTitle, 22)}</span>,
    },
    {
      title: '问答描述',
      dataIndex: 'issueContent',
      search: false,
      render: (_, issue) => plainExcerpt(issue.issueContent, 30),
    },
    { title: '提问用户', key: 'user', search: false, render: (_, issue) => issue.user.nickname },
    { title: '浏览数', dataIndex: 'scanNumber', search: false },
    { title: '评论数', dataIndex: 'commentNumber', search: false },
    typeColumn('问题分类', types),
    {
      title: '审核状态',
      dataIndex: 'issueStatus' satisfies FilterKey<IssueListQuery>,
      valueType: 'select',
      valueEnum: { false: { text: '待审核' }, true: { text: '已通过' } },
      initialValue: initialStatus ?? undefined,
      render: (_, issue) => (
        <Switch
          size="small"
          aria-label={`${issue.issueTitle} 审核状态`}
          checked={issue.issueStatus}
          loading={isPending(issue._id)}
          onChange={(checked) => onToggle(issue, checked)}
        />
      ),
    },
    {
      title: '操作',
      valueType: 'option',
      key: 'option',
      render: (_, issue) => [
        <a key="detail" onClick={() => history.push(`/issue/${issue._id}`)}>
          详情
        </a>,
        <DeleteAction
          key="delete"
          title="是否要删除该问答以及该问答对应的评论？"
          remove={() => removeIssue(issue._id)}
          done="删除问答成功"
          onDeleted={reload}
        />,
      ],
    },
  ];

  return (
    <PageContainer>
      <ProTable<Issue>
        headerTitle="问答列表"
        rowKey="_id"
        actionRef={actionRef}
        columns={columns}
        request={exporter.track(listIssues)}
        toolBarRender={() => [exporter.button]}
        pagination={serverPagination}
        options={tableOptions}
      />
    </PageContainer>
  );
}
