import type { ProColumns } from '@ant-design/pro-components';
import { PageContainer, ProTable } from '@ant-design/pro-components';
import { useAccess } from '@umijs/max';
import { Tag } from 'antd';
import { useState } from 'react';
import { actionsWidth, COLUMN_WIDTH, dateColumn, indexColumn, oneLine } from '@/components/listColumns';
import { ConfirmAction } from '@/components/RowAction';
import { useListTable } from '@/hooks/useListTable';
import { listTrash, purgeTrash, restoreTrash } from '@/services/trash';
import type { FilterKey } from '@/services/table';
import type { TrashEntry, TrashListQuery } from '#contract/trash';
import { TRASH_ENTITY_LABELS } from '#contract/values/trash';
import { message } from '@/utils/feedback';

const ENTITY_LABELS = TRASH_ENTITY_LABELS;

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
    // One line, cut with an ellipsis at the column's width (the whole title in its tooltip).
    { title: '标题', dataIndex: 'title', search: false, ...oneLine<TrashEntry>((entry) => entry.title) },
    { title: '一并删除', dataIndex: 'cascaded', search: false, width: 96, render: (_, entry) => `${entry.cascaded} 条` },
    { title: '删除人', key: 'deletedBy', search: false, width: COLUMN_WIDTH.person, render: (_, entry) => entry.deletedBy.loginId },
    dateColumn<TrashEntry>('删除时间', 'deletedAt'),
    dateColumn<TrashEntry>('到期时间', 'expiresAt'),
    {
      title: '操作',
      valueType: 'option',
      key: 'option',
      width: actionsWidth('恢复', '彻底删除'),
      render: (_, entry) => [
        // Restoring a user needs what deleting one needed: a super admin.
        entry.entity !== 'user' || access.canSuperAdmin ? (
          <ConfirmAction
            key="restore"
            label="恢复"
            title="恢复这条记录以及随它删除的记录？"
            busy={busy === entry._id}
            onConfirm={() => run(entry, restoreTrash, '恢复成功')}
          />
        ) : null,
        access.canSuperAdmin ? (
          <ConfirmAction
            key="purge"
            label="彻底删除"
            danger
            // It cannot be undone: the keyboard lands on 取消, not on the button that does it.
            focus="cancel"
            title={
              entry.cascaded > 0
                ? `彻底删除后无法恢复，随它删除的 ${entry.cascaded} 条记录也将一并删除，确定吗？`
                : '彻底删除后无法恢复，确定吗？'
            }
            okButtonProps={{ danger: true }}
            busy={busy === entry._id}
            onConfirm={() => run(entry, purgeTrash, '彻底删除成功')}
          />
        ) : null,
      ],
    },
  ];

  return (
    // The table's header names the list; a page heading would say it a second time.
    <PageContainer title={false}>
      <ProTable<TrashEntry> {...list.props(columns)} headerTitle="回收站" />
    </PageContainer>
  );
}
