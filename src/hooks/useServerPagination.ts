import { useCallback, useMemo, useState } from 'react';
import { serverPagination } from '@/components/listColumns';
import type { TableResult } from '@/services/table';

/**
 * docs/screens.md's paging of a server-paged list with a search, and its total as the server
 * answered it: ProTable's own 「第 1-10 条/总共 N 条」, or 「第 1-10 条/约 22,000 条」 when the count is
 * an estimate (a search matching more rows than the server counts exactly: `countEstimated`,
 * docs/api.md). `track` wraps the table's `request` to learn which it was.
 */
export function useServerPagination() {
  const [estimated, setEstimated] = useState(false);

  const track = useCallback(
    <P, T>(request: (params: P) => Promise<TableResult<T>>) =>
      async (params: P): Promise<TableResult<T>> => {
        const result = await request(params);
        setEstimated(result.countEstimated === true);
        return result;
      },
    [],
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
