import type { ActionType } from '@ant-design/pro-components';
import { type MutableRefObject, useCallback, useMemo, useState } from 'react';
import { serverPagination } from '@/components/listColumns';
import type { TableResult } from '@/services/table';

/**
 * docs/screens.md's paging of a server-paged list with a search, and its total as the server
 * answered it: ProTable's own 「第 1-10 条/总共 N 条」, or 「第 1-10 条/约 22,000 条」 when the count is
 * an estimate (a search matching more rows than the server counts exactly: `countEstimated`,
 * docs/api.md). `track` wraps the table's `request` to learn which it was.
 *
 * A page past the end (the last page of an estimate that was too high, or a last page whose rows
 * were deleted meanwhile) answers no rows and the exact count: given the table's `actionRef`, the
 * table then moves to the last page that count has, instead of showing an empty page.
 */
export function useServerPagination(actionRef?: MutableRefObject<ActionType | undefined>) {
  const [estimated, setEstimated] = useState(false);

  const track = useCallback(
    <P extends { current?: number; pageSize?: number }, T>(request: (params: P) => Promise<TableResult<T>>) =>
      async (params: P): Promise<TableResult<T>> => {
        const result = await request(params);
        setEstimated(result.countEstimated === true);
        const { current = 1, pageSize = serverPagination.defaultPageSize } = params;
        const last = Math.ceil(result.total / pageSize);
        if (result.success && !result.data.length && !result.countEstimated && last >= 1 && last < current) {
          // After ProTable has taken this answer: it writes the page it asked for back as it does.
          setTimeout(() => actionRef?.current?.setPageInfo?.({ current: last }), 0);
        }
        return result;
      },
    [actionRef],
  );

  // ProTable puts its own showTotal under the one given, so an exact count keeps its text.
  const pagination = useMemo(
    () =>
      estimated
        ? {
            ...serverPagination,
            showTotal: (total: number, range: [number, number]) => `第 ${range[0]}-${range[1]} 条/约 ${total.toLocaleString('zh-CN')} 条`,
          }
        : serverPagination,
    [estimated],
  );

  return { pagination, track };
}
