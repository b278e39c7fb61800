import { AppstoreOutlined, CommentOutlined, EditOutlined, ProfileOutlined, ReadOutlined, TeamOutlined } from '@ant-design/icons';
import { PageContainer } from '@ant-design/pro-components';
import { Link, useModel } from '@umijs/max';
import { Alert, Card, Col, Row, Skeleton, Statistic } from 'antd';
import { lazy, type ReactNode, Suspense } from 'react';
import { useLoaded } from '@/hooks/useLoaded';
import type { StatsCounts } from '#contract/stats';
import { getStats } from '@/services/stats';

// Its own chunk: the cards show as soon as the numbers arrive, the charts when the library has.
const DailyCharts = lazy(() => import('./components/DailyCharts'));

/** Where 「待审核问答」 leads: the issue list, filtered by the query it reads on opening. */
const WAITING_ISSUES_PATH = '/issue?issueStatus=false';

interface CardSpec {
  key: keyof StatsCounts;
  title: string;
  icon: ReactNode;
  to?: string;
}

const CARDS: CardSpec[] = [
  { key: 'users', title: '用户', icon: <TeamOutlined /> },
  { key: 'books', title: '书籍', icon: <ReadOutlined /> },
  { key: 'interviews', title: '面试题', icon: <EditOutlined /> },
  { key: 'issuesWaiting', title: '待审核问答', icon: <ProfileOutlined />, to: WAITING_ISSUES_PATH },
  { key: 'comments', title: '评论', icon: <CommentOutlined /> },
  { key: 'types', title: '类型', icon: <AppstoreOutlined /> },
];

function StatCard({ spec, counts }: { spec: CardSpec; counts?: StatsCounts }) {
  const card = (
    <Card hoverable={Boolean(spec.to)}>
      <Statistic title={spec.title} value={counts?.[spec.key] ?? '-'} prefix={spec.icon} loading={!counts} />
    </Card>
  );
  return spec.to ? <Link to={spec.to}>{card}</Link> : card;
}

export default function Home() {
  const { initialState } = useModel('@@initialState');
  const [stats] = useLoaded(getStats);
  const ready = stats.status === 'ready' ? stats.value : undefined;

  return (
    <PageContainer title="首页" content={`欢迎回来，${initialState?.adminInfo?.nickname ?? ''}`}>
      {stats.status === 'failed' && (
        <Alert type="error" showIcon message={`统计数据加载失败：${stats.error}`} style={{ marginBottom: 16 }} />
      )}
      <Row gutter={[16, 16]}>
        {CARDS.map((spec) => (
          <Col key={spec.key} xs={12} md={8} xl={4}>
            <StatCard spec={spec} counts={ready?.counts} />
          </Col>
        ))}
      </Row>
      {ready && (
        <div style={{ marginTop: 16 }}>
          <Suspense fallback={<Skeleton active paragraph={{ rows: 6 }} />}>
            <DailyCharts daily={ready.daily} />
          </Suspense>
        </div>
      )}
    </PageContainer>
  );
}
