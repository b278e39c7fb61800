import type { ProColumns } from '@ant-design/pro-components';
import { ProTable } from '@ant-design/pro-components';
import { Tag } from 'antd';
import { dateColumn, serverPagination } from '@/components/listColumns';
import { listMyLogins } from '@/services/account';
import type { LoginRecord } from '#contract/account';

const columns: ProColumns<LoginRecord>[] = [
  dateColumn<LoginRecord>('时间', 'at'),
  { title: '地址', dataIndex: 'ip' },
  { title: '浏览器', dataIndex: 'browser', render: (_, row) => row.browser || '未知' },
  {
    title: '结果',
    dataIndex: 'result',
    render: (_, row) => <Tag color={row.succeeded ? 'green' : 'red'}>{row.result}</Tag>,
  },
];

/** 登录记录: this account's sign-ins, successful and failed, for 90 days (kept by the server). */
export default function LoginsTab() {
  return (
    <ProTable<LoginRecord>
      rowKey="id"
      columns={columns}
      request={listMyLogins}
      search={false}
      options={false}
      pagination={serverPagination}
      headerTitle="最近 90 天的登录记录"
    />
  );
}
