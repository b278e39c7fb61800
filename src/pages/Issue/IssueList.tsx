import type { ActionType, ProColumns } from '@ant-design/pro-components';
import { PageContainer, ProTable } from '@ant-design/pro-components';
import { history } from '@umijs/max';
import { Popconfirm, Switch, Tag } from 'antd';
import { useRef, useState } from 'react';
import { useTypeOptions } from '@/hooks/useTypeOptions';
import { listIssues, removeIssue, updateIssue } from '@/services/issue';
import type { Issue } from '@/types/api';
import { message } from '@/utils/feedback';
import { cut, plainExcerpt } from '@/utils/format';

export default function IssueList() {
  const actionRef = useRef<ActionType>();
  const { valueEnum, nameOf } = useTypeOptions();
  const [paging, setPaging] = useState({ current: 1, pageSize: 10 });
  const [switching, setSwitching] = useState<ReadonlySet<string>>(new Set());
  const initialStatus = new URLSearchParams(history.location.search).get('issueStatus');

  const onToggle = async (issue: Issue, issueStatus: boolean) => {
    setSwitching((ids) => new Set(ids).add(issue._id));
    try {
      await updateIssue(issue._id, { issueStatus });
      message.success(issueStatus ? '该问题审核已通过' : '该问题待审核');
      await actionRef.current?.reload();
    } catch {
      // The global error handler has shown the server's message.
    } finally {
      setSwitching((ids) => {
        const rest = new Set(ids);
        rest.delete(issue._id);
        return rest;
      });
    }
  };

  const onDelete = async (issue: Issue) => {
    try {
      await removeIssue(issue._id);
      message.success('删除问答成功');
      await actionRef.current?.reload();
    } catch {
      // Shown by the global error handler.
    }
  };

  const columns: ProColumns<Issue>[] = [
    {
      title: '序号',
      key: 'serial',
      width: 72,
      align: 'center',
      search: false,
      render: (_, __, index) => (paging.current - 1) * paging.pageSize + index + 1,
    },
    {
      title: '问答标题',
      dataIndex: 'issueTitle',
      render: (_, issue) => <span title={issue.issueTitle}>{cut(issue.issueTitle, 22)}</span>,
    },
    {
      title: '问答描述',
      dataIndex: 'issueContent',
      search: false,
      render: (_, issue) => plainExcerpt(issue.issueContent, 30),
    },
    { title: '提问用户', key: 'user', search: false, render: (_, issue) => issue.user?.nickname ?? '-' },
    { title: '浏览数', dataIndex: 'scanNumber', search: false },
    { title: '评论数', dataIndex: 'commentNumber', search: false },
    {
      title: '问题分类',
      dataIndex: 'typeId',
      valueType: 'select',
      valueEnum,
      render: (_, issue) => <Tag color="purple">{nameOf(issue.typeId)}</Tag>,
    },
    {
      title: '审核状态',
      dataIndex: 'issueStatus',
      valueType: 'select',
      valueEnum: { false: { text: '待审核' }, true: { text: '已通过' } },
      initialValue: initialStatus ?? undefined,
      render: (_, issue) => (
        <Switch
          size="small"
          aria-label={`${issue.issueTitle} 审核状态`}
          checked={issue.issueStatus}
          loading={switching.has(issue._id)}
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
        <Popconfirm
          key="delete"
          title="是否要删除该问答以及该问答对应的评论？"
          okText="删除"
          cancelText="取消"
          onConfirm={() => onDelete(issue)}
        >
          <a>删除</a>
        </Popconfirm>,
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
        request={(params) => {
          setPaging({ current: params.current ?? 1, pageSize: params.pageSize ?? 10 });
          return listIssues(params);
        }}
        pagination={{
          defaultPageSize: 10,
          pageSizeOptions: [10, 20, 50, 100],
          showSizeChanger: true,
          showQuickJumper: true,
        }}
        options={{ density: false, setting: false }}
      />
    </PageContainer>
  );
}
