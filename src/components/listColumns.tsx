import { DownOutlined } from '@ant-design/icons';
import type { ProColumns, ProTableProps } from '@ant-design/pro-components';
import { Tag } from 'antd';
import { useState } from 'react';
import type { useTypeOptions } from '@/hooks/useTypeOptions';
import { DEFAULT_PAGE_SIZE } from '@/services/table';
import { formatDate, timeZoneTooltip } from '@/utils/format';
import { RowAction } from './RowAction';

/** docs/screens.md's paging of every server-paged list: 10 a page, 10/20/50/100, quick jumper. */
export const serverPagination = {
  defaultPageSize: DEFAULT_PAGE_SIZE,
  pageSizeOptions: [10, 20, 50, 100],
  showSizeChanger: true,
  showQuickJumper: true,
};

/**
 * Widths of the lists' fixed columns, wide enough that neither a header nor a cell wraps (a cell of
 * links breaking one character per line, 详/情); the titles and texts share what is left and end
 * in an ellipsis.
 */
export const COLUMN_WIDTH = {
  serial: 64,
  person: 104,
  count: 80,
  type: 120,
  date: 180,
  toggle: 96,
} as const;

/**
 * The narrowest a column without a width of its own (a title, a text) may get. Below the sum of
 * the widths and these minimums the table scrolls sideways inside its card (see `tableScrollX`).
 */
export const FLEXIBLE_MIN_WIDTH = 120;

/** antd's selection column: `selectionColumnWidth` is the control height. */
const SELECTION_WIDTH = 32;

/**
 * How wide the table must be for every column to keep its width or its minimum: the table's
 * `scroll.x`. In a fixed layout the flexible columns share whatever is left above that, and a
 * narrower card (a phone, a tablet) scrolls the table, never the page.
 */
export function tableScrollX<T>(columns: ProColumns<T>[], selectable: boolean): number {
  return columns
    .filter((column) => !column.hideInTable)
    .reduce(
      (sum, column) => sum + (typeof column.width === 'number' ? column.width : (column.minWidth ?? FLEXIBLE_MIN_WIDTH)),
      selectable ? SELECTION_WIDTH : 0,
    );
}

const ONE_LINE_STYLE = { whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' } as const;

/**
 * Keeps a column's cells to one line, cut with an ellipsis, the whole text in the cell's tooltip
 * when `fullText` gives it. Needs the table laid out fixed (`tableLayout="fixed"`), where columns
 * without a width share what the fixed ones leave. (ProTable's own `ellipsis` would wrap every
 * cell in a Typography with its tooltip machinery.)
 */
export function oneLine<T>(fullText?: (row: T) => string | undefined): Pick<ProColumns<T>, 'onCell'> {
  return { onCell: (row: T) => ({ style: ONE_LINE_STYLE, title: fullText?.(row) }) };
}

/**
 * The 操作 column's width for RowActions with these labels side by side: 14 px a character and
 * the small button's 16 px of padding and border each, 16 px between them, the cell's padding.
 */
export const actionsWidth = (...labels: string[]) =>
  40 + labels.reduce((sum, label) => sum + label.length * 14 + 16, 0) + (labels.length - 1) * 16;

/**
 * The search form of every list. Its 展开/收起 is a real button, so Tab reaches it and Enter or
 * Space presses it; the click rises to the query filter's own toggle around it.
 */
export const searchOptions: ProTableProps<Record<string, unknown>, Record<string, unknown>>['search'] = {
  collapseRender: (collapsed) => (
    <RowAction aria-expanded={!collapsed} icon={<DownOutlined rotate={collapsed ? 0 : 180} />} iconPosition="end">
      {collapsed ? '展开' : '收起'}
    </RowAction>
  ),
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
    width: COLUMN_WIDTH.serial,
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
    width: COLUMN_WIDTH.type,
    ...oneLine<T>(),
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
    // Which clock the dates are on: the installation's zone, not the browser's.
    tooltip: timeZoneTooltip(),
    dataIndex,
    width: COLUMN_WIDTH.date,
    search: false,
    render: (_, row) => formatDate(row[dataIndex] as number | null | undefined),
  };
}

/**
 * The columns with the 操作 column kept in view at the table's right edge when the table scrolls
 * sideways inside its card (1280 px beside the side menu, a tablet). Not on a phone's width, where
 * a fixed column would leave the rows' data a sliver: there the table scrolls to its actions.
 */
export function useActionsInView<T>(): (columns: ProColumns<T>[]) => ProColumns<T>[] {
  // Read when the list opens, not after a breakpoint hook's first effect: ProTable keeps a
  // column's `fixed` from its first render.
  const [wide] = useState(() => window.matchMedia(WIDE_ENOUGH).matches);
  return (columns) =>
    wide ? columns.map((column) => (column.valueType === 'option' ? { ...column, fixed: 'right' as const } : column)) : columns;
}

/** antd's `md` breakpoint: a tablet's width and wider. */
const WIDE_ENOUGH = '(min-width: 768px)';
