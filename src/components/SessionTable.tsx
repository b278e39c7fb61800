import { Button, Popconfirm, Space, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useCallback, useEffect, useState } from 'react';
import { alreadyShown } from '@/services/api';
import type { AdminSession } from '#contract/account';
import { message } from '@/utils/feedback';
import { formatDate } from '@/utils/format';
import { ConfirmAction } from './RowAction';

interface SessionTableProps {
  load: () => Promise<AdminSession[]>;
  /** Ends one session; absent when only all of them can be ended (another admin's). */
  endOne?: (id: string) => Promise<void>;
  /** Ends the sessions the button names: the others (one's own) or all (another admin's). */
  endAll: () => Promise<void>;
  endAllText: string;
}

/** The live sessions of an admin: 个人设置 → 登录设备, and the super admin's 登录设备 of another admin. */
export default function SessionTable({ load, endOne, endAll, endAllText }: SessionTableProps) {
  const [sessions, setSessions] = useState<AdminSession[]>([]);
  const [loading, setLoading] = useState(true);

  const reload = useCallback(() => {
    setLoading(true);
    return load()
      .then(setSessions)
      .catch(alreadyShown)
      .finally(() => setLoading(false));
  }, [load]);

  useEffect(() => {
    reload();
  }, [reload]);

  const end = async (run: () => Promise<void>, done: string) => {
    try {
      await run();
    } catch {
      return;
    }
    message.success(done);
    await reload();
  };

  const columns: ColumnsType<AdminSession> = [
    {
      title: '浏览器',
      dataIndex: 'browser',
      render: (browser: string, session) => (
        <Space>
          {browser || '未知'}
          {session.current ? <Tag color="green">当前设备</Tag> : null}
        </Space>
      ),
    },
    { title: '地址', dataIndex: 'ip' },
    { title: '登录时间', dataIndex: 'createdAt', render: (ms: number) => formatDate(ms) },
    { title: '最近活动', dataIndex: 'lastSeenAt', render: (ms: number) => formatDate(ms) },
  ];
  if (endOne) {
    columns.push({
      title: '操作',
      key: 'action',
      render: (_, session) =>
        session.current ? null : (
          <ConfirmAction
            label="退出"
            okText="确定"
            title="确定让这台设备退出登录？"
            onConfirm={() => end(() => endOne(session.id), '该设备已退出登录')}
          />
        ),
    });
  }
  const others = sessions.some((session) => !session.current);

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Popconfirm title={`确定${endAllText}？`} onConfirm={() => end(endAll, '已退出登录')} disabled={!others}>
        <Button danger disabled={!others}>
          {endAllText}
        </Button>
      </Popconfirm>
      <Table<AdminSession> rowKey="id" size="middle" columns={columns} dataSource={sessions} loading={loading} pagination={false} />
    </Space>
  );
}
