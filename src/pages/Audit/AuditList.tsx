import type { ProColumns } from '@ant-design/pro-components';
import { PageContainer, ProTable } from '@ant-design/pro-components';
import { Link, useAccess } from '@umijs/max';
import { Alert, Button, Tag } from 'antd';
import { type ReactNode, useCallback, useState } from 'react';
import HistoryButton, { EntryChanges } from '@/components/HistoryDrawer';
import { useListExport } from '@/components/ExportButton';
import { COLUMN_WIDTH, indexColumn, oneLine } from '@/components/listColumns';
import { dayRangeFilter, useListTable } from '@/hooks/useListTable';
import { listAdmins } from '@/services/admin';
import { listAudit, listSecurityEvents, verifyAuditChain } from '@/services/audit';
import type { FilterKey } from '@/services/table';
import type { AuditChainReport, AuditEntry, AuditListQuery, SecurityEvent } from '#contract/audit';
import { AUDIT_ACTIONS, AUDIT_ENTITIES, type AuditAction } from '#contract/values/audit';
import { dayRange, dayRangePresets, formatDate, timeZoneTooltip } from '@/utils/format';
import { ERROR_CODE_LABELS, type ErrorCode } from '#contract/values/envelope';

// The contract's plain values (no schema library in the bundle).
export const ENTITY_NAMES = AUDIT_ENTITIES;
export const ACTIONS: AuditAction[] = Object.values(AUDIT_ACTIONS);

const entityEnum = Object.fromEntries(Object.entries(ENTITY_NAMES).map(([key, text]) => [key, { text }]));
const actionEnum = Object.fromEntries(ACTIONS.map((action) => [action, { text: action }]));

async function adminOptions() {
  return (await listAdmins()).map((admin) => ({ label: admin.loginId, value: admin._id }));
}

/**
 * Where an entry's record is shown: its edit or detail page (a comment's is its issue or book),
 * or nothing for what has no page of its own (sign-ins, settings, exports) or may not be opened.
 */
export function recordPath(entry: AuditEntry, canSuperAdmin: boolean): string | null {
  const id = encodeURIComponent(entry.entityId);
  switch (entry.entity) {
    case 'user':
      return `/user/editUser/${id}`;
    case 'book':
      return `/book/editBook/${id}`;
    case 'interview':
      return `/interview/interviewList/${id}`;
    case 'issue':
      return `/issue/${id}`;
    case 'comment':
      if (!entry.parentId) return null;
      return entry.parentEntity === 'book' ? `/book/editBook/${entry.parentId}` : `/issue/${entry.parentId}`;
    case 'type':
      return '/typeList';
    case 'admin':
      return canSuperAdmin ? '/admin/adminList' : null;
    default:
      return null;
  }
}

/** 记录: a link to the record's page while it exists; once gone or in the bin, its history. */
function RecordCell({ entry, canSuperAdmin }: { entry: AuditEntry; canSuperAdmin: boolean }) {
  const title = entry.title || '-';
  if (entry.recordExists === undefined) return <>{title}</>;
  const path = entry.recordExists ? recordPath(entry, canSuperAdmin) : null;
  if (path) return <Link to={path}>{title}</Link>;
  return <HistoryButton entity={entry.entity} id={entry.entityId} link label={title} />;
}

const TIME_RANGE = [dayRangeFilter('at', ['from', 'to'])];

/** What 核对日志链 found, in a sentence. */
export function chainSummary(report: AuditChainReport): string {
  const purged = report.purged ? `，另有 ${report.purged} 条已按保留期清理` : '';
  if (report.ok) return `日志链完整：核对了 ${report.count} 条记录${purged}。`;
  const broken = report.broken!;
  const which = broken.id ? `日志编号 ${broken.id}（${formatDate(broken.at)}）` : `链中第 ${broken.seq} 条`;
  return `日志链在${which}处断开：${broken.reason}。此前 ${report.count} 条核对无误${purged}。`;
}

/**
 * 核对日志链 (a super admin's): checks the hash chain; what it found stays on the page, above the
 * table, until closed (an alert a screen reader announces, no dialog to trap the keyboard).
 */
function useChainCheck() {
  const [checking, setChecking] = useState(false);
  const [report, setReport] = useState<AuditChainReport | null>(null);
  const verify = async () => {
    setChecking(true);
    try {
      setReport(await verifyAuditChain());
    } catch {
      // The request layer has shown the failure.
    } finally {
      setChecking(false);
    }
  };
  const button = (
    <Button key="verify" loading={checking} onClick={verify}>
      核对日志链
    </Button>
  );
  const alert = report && (
    <Alert
      style={{ marginBottom: 16 }}
      type={report.ok ? 'success' : 'error'}
      showIcon
      closable
      onClose={() => setReport(null)}
      message={chainSummary(report)}
    />
  );
  return { button, alert };
}

const securityColumns: ProColumns<SecurityEvent>[] = [
  indexColumn(),
  {
    title: '时间',
    tooltip: timeZoneTooltip(),
    key: 'lastAt',
    render: (_, event) => (event.count > 1 ? `${formatDate(event.firstAt)} ~ ${formatDate(event.lastAt)}` : formatDate(event.lastAt)),
  },
  { title: '管理员', key: 'adminLoginId', render: (_, event) => event.adminLoginId || '-' },
  { title: '地址', dataIndex: 'address' },
  { title: '接口', key: 'route', render: (_, event) => `${event.method} ${event.route}` },
  { title: '状态', dataIndex: 'status' },
  {
    title: '原因',
    dataIndex: 'reason',
    // In words, the code itself beside it for whoever reads the logs or the API.
    render: (_, event) => {
      const label = ERROR_CODE_LABELS[event.reason as ErrorCode];
      return label ? `${label}（${event.reason}）` : event.reason;
    },
  },
  { title: '次数', dataIndex: 'count' },
];

/** 安全事件: refused calls, a flood counted per minute, newest first. */
function SecurityEvents({ verifyButton }: { verifyButton: ReactNode }) {
  return (
    <ProTable<SecurityEvent>
      rowKey="_id"
      columns={securityColumns}
      search={false}
      request={listSecurityEvents}
      headerTitle="安全事件"
      toolBarRender={() => [verifyButton]}
      pagination={{ defaultPageSize: 10, showSizeChanger: true }}
      scroll={{ x: 'max-content' }}
    />
  );
}

/** 操作日志: who did what, newest first; a normal admin sees their own entries only. */
export default function AuditList() {
  const access = useAccess();
  const [tab, setTab] = useState<'entries' | 'security'>('entries');
  const chain = useChainCheck();
  const exporter = useListExport('audit');
  // The admins' accounts by id, for the 管理员 filter's tag.
  const [admins, setAdmins] = useState<Record<string, string>>({});
  const loadAdmins = useCallback(async () => {
    const options = await adminOptions();
    setAdmins(Object.fromEntries(options.map((option) => [option.value, option.label])));
    return options;
  }, []);
  const list = useListTable<AuditEntry>({
    request: exporter.track(listAudit),
    composite: TIME_RANGE,
    valueText: { adminId: (id) => admins[id] },
  });

  const columns: ProColumns<AuditEntry>[] = [
    indexColumn(),
    // First in the search form, so that it shows while the form is folded: "what happened to this record".
    {
      title: '记录',
      dataIndex: 'record' satisfies FilterKey<AuditListQuery>,
      hideInTable: true,
      fieldProps: { placeholder: '标题的一部分或记录 id' },
    },
    {
      title: '时间',
      tooltip: timeZoneTooltip(),
      key: 'at',
      dataIndex: 'at',
      valueType: 'dateRange',
      fieldProps: { presets: dayRangePresets() },
      render: (_, entry) => formatDate(entry.at),
      // One line: the other columns but 记录 and 变更 have widths, and those two share the rest.
      width: COLUMN_WIDTH.date,
      // Whole days of the installation's calendar, the last included, as epoch ms.
      search: { transform: ([first, last]: [string, string]) => dayRange(first, last) },
    },
    {
      title: '管理员',
      dataIndex: 'adminId' satisfies FilterKey<AuditListQuery>,
      valueType: 'select',
      // Only a super admin may look at another admin's entries (and list the admins).
      hideInSearch: !access.canSuperAdmin,
      request: access.canSuperAdmin ? loadAdmins : undefined,
      render: (_, entry) => entry.adminLoginId,
      width: COLUMN_WIDTH.person + 16,
      ...oneLine<AuditEntry>((entry) => entry.adminLoginId),
    },
    {
      title: '对象',
      dataIndex: 'entity' satisfies FilterKey<AuditListQuery>,
      valueType: 'select',
      valueEnum: entityEnum,
      render: (_, entry) => ENTITY_NAMES[entry.entity],
      width: 96,
    },
    {
      title: '操作',
      dataIndex: 'action' satisfies FilterKey<AuditListQuery>,
      valueType: 'select',
      valueEnum: actionEnum,
      render: (_, entry) => <Tag>{entry.action}</Tag>,
      width: 136,
    },
    {
      title: '记录',
      dataIndex: 'title',
      search: false,
      ellipsis: true,
      render: (_, entry) => <RecordCell entry={entry} canSuperAdmin={Boolean(access.canSuperAdmin)} />,
    },
    {
      title: '变更',
      key: 'changes',
      search: false,
      render: (_, entry) => (entry.changes?.length ? <EntryChanges entry={entry} /> : '-'),
    },
  ];

  return (
    // The table's header names the list; a page heading would say it a second time.
    <PageContainer
      title={false}
      // 安全事件 and 核对日志链 are a super admin's.
      tabList={
        access.canSuperAdmin
          ? [
              { key: 'entries', tab: '操作记录' },
              { key: 'security', tab: '安全事件' },
            ]
          : undefined
      }
      tabActiveKey={tab}
      onTabChange={(key) => setTab(key === 'security' ? 'security' : 'entries')}
    >
      {chain.alert}
      {tab === 'security' && access.canSuperAdmin ? (
        <SecurityEvents verifyButton={chain.button} />
      ) : (
        <ProTable<AuditEntry>
          {...list.props(columns)}
          headerTitle="操作日志"
          toolBarRender={() => (access.canSuperAdmin ? [chain.button, exporter.button] : [exporter.button])}
        />
      )}
    </PageContainer>
  );
}
