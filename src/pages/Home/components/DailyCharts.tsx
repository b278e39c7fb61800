import { Line } from '@ant-design/plots';
import { Card, Col, Row } from 'antd';
import type { DailyCount } from '../../../../contract/stats';

const SERIES = [
  { field: 'users', title: '近 30 天新增用户', name: '新增用户', color: '#1677ff' },
  { field: 'issues', title: '近 30 天新增问答', name: '新增问答', color: '#fa8c16' },
  { field: 'comments', title: '近 30 天新增评论', name: '新增评论', color: '#52c41a' },
] as const;

/** `2024-05-01` → `05-01`: thirty labels fit under a third of the page only without the year. */
const monthDay = (date: string) => date.slice(5);

/**
 * The per-day charts. Loaded on its own (React.lazy on the home page) so that the charts library
 * stays out of the bundle every other page loads.
 */
export default function DailyCharts({ daily }: { daily: DailyCount[] }) {
  return (
    <Row gutter={[16, 16]}>
      {SERIES.map(({ field, title, name, color }) => (
        <Col key={field} xs={24} xl={8}>
          <Card title={title}>
            <Line
              data={daily}
              xField="date"
              yField={field}
              height={260}
              style={{ stroke: color, lineWidth: 2 }}
              axis={{ x: { labelFormatter: monthDay, labelAutoHide: true }, y: { tickCount: 5 } }}
              tooltip={{ title: 'date', items: [{ channel: 'y', name }] }}
            />
          </Card>
        </Col>
      ))}
    </Row>
  );
}
