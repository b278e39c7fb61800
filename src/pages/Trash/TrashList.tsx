import type { ProColumns } from '@ant-design/pro-components';
import { PageContainer, ProTable } from '@ant-design/pro-components';
import { useAccess } from '@umijs/max';
import { Popconfirm, Tag } from 'antd';
import { useState } from 'react';
import { dateColumn, indexColumn } from '@/components/listColumns';
import { useListTable } from '@/hooks/useListTable';
import { listTrash, purgeTrash, restoreTrash } from '@/services/trash';
import type { FilterKey } from '@/services/table';
import type { TrashEntity, TrashEntry, TrashListQuery } from '../../../contract/trash';
import { message } from '@/utils/feedback';
import { cut } from '@/utils/format';

// The labels of contract/trash.ts's TRASH_ENTITY_LABELS, kept here: contract/ is imported as types only.
const ENTITY_LABELS: Record<TrashEntity, string> = { user: '用户', book: '书籍', interview: '面试题', issue: '问答', comment: '评论' };

export default function TrashList() {
  const list = useListTable<TrashEntry>({ request: listTrash });
  const access = useAccess();
  const [busy, setBusy] = useState<string | null>(null);
  const { reload } = list;

  const run = async (entry: TrashEntry, call: (id: string) => Promise<unknown>, done: string) => {
    setBusy(entry._id);
    try {
      await call(entry._id);
      message.success(done);
      await reload();
    } catch {
      // The global error handler has shown the server's message (a 409 says why it cannot come back).
    } finally {
      setBusy(null);
    }
  };

  const columns: ProColumns<TrashEntry>[] = [
    indexColumn(),
    {
      title: '类型',
      dataIndex: 'entity' satisfies FilterKey<TrashListQuery>,
      valueType: 'select',
      valueEnum: Object.fromEntries(Object.entries(ENTITY_LABELS).map(([key, text]) => [key, { text }])),
      width: 96,
      render: (_, entry) => <Tag>{ENTITY_LABELS[entry.entity]}</Tag>,
    },
    { title: '标题', dataIndex: 'title', search: false, render: (_, entry) => <span title={entry.title}>{cut(entry.title, 30)}</span> },
    { title: '一并删除', dataIndex: 'cascaded', search: false, width: 96, render: (_, entry) => `${entry.cascaded} 条` },
    { title: '删除人', key: 'deletedBy', search: false, render: (_, entry) => entry.deletedBy.loginId },
    dateColumn<TrashEntry>('删除时间', 'deletedAt'),
    dateColumn<TrashEntry>('到期时间', 'expiresAt'),
    {
      title: '操作',
      valueType: 'option',
      key: 'option',
      render: (_, entry) => [
        // Restoring a user needs what deleting one needed: a super admin.
        entry.entity !== 'user' || access.canSuperAdmin ? (
          <Popconfirm
            key="restore"
            title="恢复这条记录以及随它删除的记录？"
            okText="恢复"
            cancelText="取消"
            onConfirm={() => run(entry, restoreTrash, '恢复成功')}
          >
            <a aria-disabled={busy === entry._id}>恢复</a>
          </Popconfirm>
        ) : null,
        access.canSuperAdmin ? (
          <Popconfirm
            key="purge"
            title="彻底删除后无法恢复，确定吗？"
            okText="彻底删除"
            cancelText="取消"
            okButtonProps={{ danger: true }}
            onConfirm={() => run(entry, purgeTrash, '彻底删除成功')}
          >
            <a aria-disabled={busy === entry._id}>彻底删除</a>
          </Popconfirm>
        ) : null,
      ],
    },
  ];

  return (
    <PageContainer>
      <ProTable<TrashEntry> {...list.props(columns)} headerTitle="回收站" />
    </PageContainer>
  );
}
