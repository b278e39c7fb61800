import type { ProColumns } from '@ant-design/pro-components';
import { Tag } from 'antd';
import type { useTypeOptions } from '@/hooks/useTypeOptions';
import { formatDate } from '@/utils/format';

/** docs/screens.md's paging of every server-paged list: 10 a page, 10/20/50/100, quick jumper. */
export const serverPagination = {
  defaultPageSize: 10,
  pageSizeOptions: [10, 20, 50, 100],
  showSizeChanger: true,
  showQuickJumper: true,
};

/** The toolbar of every list: reload only; density and column settings add nothing here. */
export const tableOptions = { density: false, setting: false };

/**
 * 序号, counting across pages, which the table's row index (per page) does not. A server-paged
 * table knows its page itself; a table of rows held in memory passes its own `serial`.
 */
export function indexColumn<T>(serial?: (index: number) => number): ProColumns<T> {
  return {
    title: '序号',
    key: 'serial',
    width: 72,
    align: 'center',
    search: false,
    render: (_, __, index, action) => {
      if (serial) return serial(index);
      const { current = 1, pageSize = serverPagination.defaultPageSize } = action?.pageInfo ?? {};
      return (current - 1) * pageSize + index + 1;
    },
  };
}

/** The type of a row: a select of the types in the search form, a tag in the table. */
export function typeColumn<T extends { typeId: string }>(
  title: string,
  { valueEnum, nameOf }: ReturnType<typeof useTypeOptions>,
): ProColumns<T> {
  return {
    title,
    dataIndex: 'typeId',
    valueType: 'select',
    valueEnum,
    render: (_, row) => <Tag color="purple">{nameOf(row.typeId)}</Tag>,
  };
}

/**
 * A date shown as `YYYY-MM-DD HH:mm:ss`, not searched. Rendered by formatDate rather than with
 * `valueType: 'dateTime'`, whose read-only field is ProField's date picker, fetched on first use.
 */
export function dateColumn<T>(title: string, dataIndex: keyof T & string): ProColumns<T> {
  return {
    title,
    dataIndex,
    search: false,
    render: (_, row) => formatDate(row[dataIndex] as number | null | undefined),
  };
}
