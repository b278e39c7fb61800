import type { TablePaginationConfig } from 'antd';
import { useState } from 'react';

/**
 * Pagination for a table whose rows are all in memory, plus the 序号 of a row: it counts across
 * pages, which the table's own row index (per page) does not.
 */
export function useLocalPagination(total: number, defaultPageSize = 10) {
  const [page, setPage] = useState({ current: 1, pageSize: defaultPageSize });
  // A delete can empty the last page; fall back to the page that still exists.
  const current = Math.min(page.current, Math.max(1, Math.ceil(total / page.pageSize)));

  const pagination: TablePaginationConfig = {
    current,
    pageSize: page.pageSize,
    showSizeChanger: true,
    pageSizeOptions: [10, 20, 50, 100],
    showTotal: (count) => `共 ${count} 条`,
    onChange: (next, pageSize) => setPage({ current: next, pageSize }),
  };

  return { pagination, serial: (index: number) => (current - 1) * page.pageSize + index + 1 };
}
