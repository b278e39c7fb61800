import EmptyText from '@/components/EmptyText';
import { Button, Card, Popconfirm, Table, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { DEFAULT_PAGE_SIZE, FIRST_PAGE } from '#contract/paging';
import { POINTS_REASON_LABELS, type MemberSession, type PointsEntry, type PointsReason } from '#contract/site';
import { alreadyShown } from '@/services/api';
import { endMemberSessions, listMemberSessions, pointsHistory } from '@/services/user';
import { message } from '@/utils/feedback';
import { formatDate } from '@/utils/format';

/** The member's sessions on the community site, with 结束会话 (ends them all at once). */
export function MemberSessionsCard({ userId }: { userId: string }) {
  const [sessions, setSessions] = useState<MemberSession[]>([]);
  const [loading, setLoading] = useState(true);
  const reload = useCallback(() => {
    setLoading(true);
    return listMemberSessions(userId)
      .then(setSessions)
      .catch(alreadyShown)
      .finally(() => setLoading(false));
  }, [userId]);
  useEffect(() => {
    reload();
  }, [reload]);

  const endAll = async () => {
    try {
      await endMemberSessions(userId);
    } catch {
      return;
    }
    message.success('已结束该用户的全部会话');
    await reload();
  };

  return (
    <Card
      size="small"
      title="前台会话"
      extra={
        <Popconfirm title="确定结束该用户在前台的全部会话？" onConfirm={endAll} disabled={!sessions.length}>
          <Button danger size="small" disabled={!sessions.length}>
            结束会话
          </Button>
        </Popconfirm>
      }
    >
      <Table<MemberSession>
        rowKey="id"
        size="small"
        loading={loading}
        dataSource={sessions}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: <EmptyText>没有登录中的会话</EmptyText> }}
        columns={[
          { title: '登录时间', dataIndex: 'createdAt', render: (ms: number) => formatDate(ms) },
          { title: '到期时间', dataIndex: 'expiresAt', render: (ms: number) => formatDate(ms) },
          { title: '地址', dataIndex: 'ip' },
        ]}
      />
    </Card>
  );
}

/** Every change of the member's points, by the server's rules, with the balance it left. */
export function PointsHistoryCard({ userId }: { userId: string }) {
  const [page, setPage] = useState({ current: FIRST_PAGE, pageSize: DEFAULT_PAGE_SIZE });
  const [rows, setRows] = useState<PointsEntry[]>([]);
  const [total, setTotal] = useState(0);
  const [loading, setLoading] = useState(true);
  useEffect(() => {
    setLoading(true);
    pointsHistory(userId, page.current, page.pageSize)
      .then((result) => {
        setRows(result.data);
        setTotal(result.count);
      })
      .catch(alreadyShown)
      .finally(() => setLoading(false));
  }, [userId, page]);

  return (
    <Card size="small" title="积分记录">
      <Table<PointsEntry>
        rowKey="_id"
        size="small"
        loading={loading}
        dataSource={rows}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: <EmptyText>还没有积分变动</EmptyText> }}
        pagination={{
          current: page.current,
          pageSize: page.pageSize,
          total,
          size: 'small',
          onChange: (current, pageSize) => setPage({ current, pageSize }),
        }}
        columns={[
          { title: '时间', dataIndex: 'at', render: (ms: number) => formatDate(ms) },
          { title: '原因', dataIndex: 'reason', render: (reason: string) => POINTS_REASON_LABELS[reason as PointsReason] ?? reason },
          {
            title: '变动',
            dataIndex: 'delta',
            render: (delta: number) => (
              <Typography.Text type={delta < 0 ? 'danger' : 'success'}>{delta > 0 ? `+${delta}` : delta}</Typography.Text>
            ),
          },
          { title: '余额', dataIndex: 'balance' },
        ]}
      />
    </Card>
  );
}
