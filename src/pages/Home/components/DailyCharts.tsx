import { Column } from '@ant-design/plots';
import { Card, Col, Row } from 'antd';
import type { DailyCount } from '#contract/stats';
import { countScale } from './countAxis';

const SERIES = [
  { field: 'users', title: '近 30 天新增用户', name: '新增用户', color: '#1677ff' },
  { field: 'issues', title: '近 30 天新增问答', name: '新增问答', color: '#d46b08' },
  { field: 'comments', title: '近 30 天新增评论', name: '新增评论', color: '#389e0d' },
] as const;

/** `2024-05-01` → `05-01`: thirty labels fit under a third of the page only without the year. */
const monthDay = (date: string) => date.slice(5);

/**
 * The per-day charts, as columns: a day with a few new records among empty ones stands as a bar of
 * its own, where a line would draw a thin spike. Loaded on its own (React.lazy on the home page)
 * so that the charts library stays out of the bundle every other page loads.
 */
export default function DailyCharts({ daily }: { daily: DailyCount[] }) {
  return (
    <Row gutter={[16, 16]}>
      {SERIES.map(({ field, title, name, color }) => {
        const { domainMin, domainMax, ticks } = countScale(daily.map((day) => day[field]));
        return (
          <Col key={field} xs={24} xl={8}>
            <Card title={title}>
              <Column
                data={daily}
                xField="date"
                yField={field}
                height={260}
                style={{ fill: color, maxWidth: 16, radiusTopLeft: 2, radiusTopRight: 2 }}
                scale={{ y: { domainMin, domainMax, tickMethod: () => ticks } }}
                axis={{ x: { labelFormatter: monthDay, labelAutoHide: true }, y: { title: false } }}
                tooltip={{ title: 'date', items: [{ channel: 'y', name }] }}
              />
            </Card>
          </Col>
        );
      })}
    </Row>
  );
}
