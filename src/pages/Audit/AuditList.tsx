import type { ProColumns } from '@ant-design/pro-components';
import { PageContainer, ProTable } from '@ant-design/pro-components';
import { useAccess } from '@umijs/max';
import { Tag } from 'antd';
import { useCallback, useState } from 'react';
import { ChangeLine } from '@/components/HistoryDrawer';
import { indexColumn } from '@/components/listColumns';
import { epochRangeFilter, useListTable } from '@/hooks/useListTable';
import { listAdmins } from '@/services/admin';
import { listAudit } from '@/services/audit';
import type { FilterKey } from '@/services/table';
import type { AuditAction, AuditEntity, AuditEntry, AuditListQuery } from '../../../contract/audit';
import { formatDate } from '@/utils/format';

// The contract's names, repeated here because the front end imports only its types; the
// `satisfies` makes a name the contract drops or renames fail the type check.
export const ENTITY_NAMES = {
  admin: '管理员',
  user: '用户',
  book: '书籍',
  interview: '面试题',
  issue: '问答',
  comment: '评论',
  type: '分类',
  upload: '图片',
  session: '登录',
  import: '数据导入',
  setting: '安全设置',
} satisfies Record<AuditEntity, string>;

export const ACTIONS = [
  '新增',
  '修改',
  '删除',
  '恢复',
  '彻底删除',
  '审核通过',
  '取消审核',
  '启用',
  '禁用',
  '批量删除',
  '批量启用',
  '批量禁用',
  '批量审核通过',
  '批量取消审核',
  '导出',
  '导入',
  '登录',
  '退出',
  '设置两步验证',
  '开启两步验证',
  '关闭两步验证',
  '重置两步验证',
  '结束会话',
  '修改安全设置',
] satisfies AuditAction[];

const entityEnum = Object.fromEntries(Object.entries(ENTITY_NAMES).map(([key, text]) => [key, { text }]));
const actionEnum = Object.fromEntries(ACTIONS.map((action) => [action, { text: action }]));

async function adminOptions() {
  return (await listAdmins()).map((admin) => ({ label: admin.loginId, value: admin._id }));
}

const TIME_RANGE = [epochRangeFilter('at', ['from', 'to'])];

/** 操作日志: who did what, newest first; a normal admin sees their own entries only. */
export default function AuditList() {
  const access = useAccess();
  // The admins' accounts by id, for the 管理员 filter's tag.
  const [admins, setAdmins] = useState<Record<string, string>>({});
  const loadAdmins = useCallback(async () => {
    const options = await adminOptions();
    setAdmins(Object.fromEntries(options.map((option) => [option.value, option.label])));
    return options;
  }, []);
  const list = useListTable<AuditEntry>({
    request: listAudit,
    composite: TIME_RANGE,
    valueText: { adminId: (id) => admins[id] },
  });

  const columns: ProColumns<AuditEntry>[] = [
    indexColumn(),
    {
      title: '时间',
      key: 'at',
      dataIndex: 'at',
      valueType: 'dateTimeRange',
      render: (_, entry) => formatDate(entry.at),
      search: {
        transform: ([from, to]: [string, string]) => ({
          from: new Date(from).getTime(),
          to: new Date(to).getTime(),
        }),
      },
    },
    {
      title: '管理员',
      dataIndex: 'adminId' satisfies FilterKey<AuditListQuery>,
      valueType: 'select',
      // Only a super admin may look at another admin's entries (and list the admins).
      hideInSearch: !access.canSuperAdmin,
      request: access.canSuperAdmin ? loadAdmins : undefined,
      render: (_, entry) => entry.adminLoginId,
    },
    {
      title: '对象',
      dataIndex: 'entity' satisfies FilterKey<AuditListQuery>,
      valueType: 'select',
      valueEnum: entityEnum,
      render: (_, entry) => ENTITY_NAMES[entry.entity],
    },
    {
      title: '操作',
      dataIndex: 'action' satisfies FilterKey<AuditListQuery>,
      valueType: 'select',
      valueEnum: actionEnum,
      render: (_, entry) => <Tag>{entry.action}</Tag>,
    },
    { title: '记录', dataIndex: 'title', search: false, ellipsis: true },
    {
      title: '变更',
      key: 'changes',
      search: false,
      render: (_, entry) =>
        entry.changes?.length ? entry.changes.map((change) => <ChangeLine key={change.field} change={change} />) : '-',
    },
  ];

  return (
    <PageContainer>
      <ProTable<AuditEntry> {...list.props(columns)} headerTitle="操作日志" />
    </PageContainer>
  );
}
