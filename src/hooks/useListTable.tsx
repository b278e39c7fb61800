import type { ActionType, ProColumns, ProFormInstance, ProTableProps } from '@ant-design/pro-components';
import { history } from '@umijs/max';
import type { CheckboxProps } from 'antd';
import { type Key, type ReactNode, useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { type ActiveFilter, ActiveFilters } from '@/components/ActiveFilters';
import { BatchBar, type BatchOptions } from '@/components/BatchBar';
import { searchOptions, serverPagination, tableOptions, tableScrollX, useActionsInView } from '@/components/listColumns';
import { useServerPagination } from '@/hooks/useServerPagination';
import { DEFAULT_PAGE_SIZE, type TableResult } from '@/services/table';
import { zoneDay } from '@/utils/format';

/**
 * What ProTable hands a list's `request`: its paging and `params` (`U`), and the search form's
 * filters, untyped here (each list's service types them).
 */
type RequestParams<U> = U & { current?: number; pageSize?: number; keyword?: string };

/**
 * A search field whose search `transform` sends other keys than its own name (a time range sent
 * as `from` and `to`): how those keys, as the address holds them, become the field and its tag.
 */
export interface CompositeFilter {
  field: string;
  keys: string[];
  toField: (values: string[]) => unknown;
  text: (values: string[]) => string;
}

/**
 * A range of whole days searched as epoch milliseconds under `keys` (the audit log's from and to):
 * the address's instants become the installation's calendar days the picker shows.
 */
export function dayRangeFilter(field: string, keys: [string, string]): CompositeFilter {
  const day = (ms: string) => zoneDay(Number(ms));
  return {
    field,
    keys,
    toField: (values) => values.map(day),
    text: ([from, to]) => `${day(from).format('YYYY-MM-DD')} ~ ${day(to).format('YYYY-MM-DD')}`,
  };
}

export interface ListTableOptions<T, U> {
  /** The service's list function (wrapped as it needs, e.g. by the export button's `track`). */
  request: (params: RequestParams<U>) => Promise<TableResult<T>>;
  /** Row selection and the bulk bar, for the lists that have bulk actions. */
  batch?: BatchOptions;
  composite?: CompositeFilter[];
  /** A filter value's name in its tag where the column's valueEnum does not give it (an admin's id). */
  valueText?: Record<string, (value: string) => string | undefined>;
  /** `false`: the table has no search form (a detail page's list). */
  search?: false;
}

// antd's row checkboxes have no name of their own: a screen reader (and axe) needs one. The props
// reach the <input> (rc-checkbox passes the rest on), though antd's type omits aria-*.
const ROW_CHECKBOX = { 'aria-label': '选择此行' } as unknown as CheckboxProps;
const SELECT_ALL = { 'aria-label': '全选' };

/**
 * With `scroll.x`, antd lays a hidden copy of the header titles in the body to measure the columns
 * (an aria-hidden row): a copy of the 全选 checkbox there is focusable yet hidden from assistive
 * technology. The title shows its checkbox in the real header only.
 */
function HeaderOnly({ children }: { children: ReactNode }) {
  const ref = useRef<HTMLSpanElement>(null);
  const [inHeader, setInHeader] = useState(false);
  useLayoutEffect(() => setInHeader(Boolean(ref.current?.closest('thead'))), []);
  return <span ref={ref}>{inHeader ? children : null}</span>;
}

const selectAllTitle = (checkbox: ReactNode) => <HeaderOnly>{checkbox}</HeaderOnly>;

/**
 * The address that reproduces a request: its filters, its `params` (the comment list's kind) and
 * the page, the default page and page size left out so that a plain list keeps a plain address.
 */
export function listSearch(params: Record<string, unknown>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (key === 'keyword' || (key === 'current' && Number(value) === 1) || (key === 'pageSize' && Number(value) === DEFAULT_PAGE_SIZE)) {
      continue;
    }
    const text = value === undefined || value === null ? '' : String(value).trim();
    if (text !== '') query.set(key, text);
  }
  const text = query.toString();
  return text ? `?${text}` : '';
}

/** The page and page size an address asks for; anything else is the first page of 10. */
export function pageOf(query: URLSearchParams): { current: number; pageSize: number } {
  const current = Number(query.get('current'));
  const pageSize = Number(query.get('pageSize'));
  return {
    current: Number.isInteger(current) && current >= 1 ? current : 1,
    pageSize: serverPagination.pageSizeOptions.includes(pageSize) ? pageSize : DEFAULT_PAGE_SIZE,
  };
}

/** The columns of the search form, by the name of their field. */
function searchFields<T>(columns: ProColumns<T>[]): { field: string; column: ProColumns<T> }[] {
  return columns
    .filter(
      (column) => column.search !== false && !column.hideInSearch && column.valueType !== 'option' && typeof column.dataIndex === 'string',
    )
    .map((column) => ({ field: column.dataIndex as string, column }));
}

/** The search form's values that an address gives (a shared link, a reload, Back). */
function fieldsOf<T>(columns: ProColumns<T>[], query: URLSearchParams, composite: CompositeFilter[] = []): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const { field } of searchFields(columns)) {
    const range = composite.find((filter) => filter.field === field);
    if (range) {
      const parts = range.keys.map((key) => query.get(key) ?? '');
      if (parts.every(Boolean)) values[field] = range.toField(parts);
    } else if (query.get(field)) {
      values[field] = query.get(field);
    }
  }
  return values;
}

function valueName<T>(column: ProColumns<T>, value: string): string {
  const valueEnum = column.valueEnum;
  const entry = valueEnum instanceof Map ? valueEnum.get(value) : typeof valueEnum === 'object' ? valueEnum[value] : undefined;
  if (typeof entry === 'string') return entry;
  if (entry && typeof entry === 'object' && 'text' in entry && entry.text !== undefined) return String(entry.text);
  return value;
}

/** The filters a request applied, as tags: 「审核状态：待审核」, type names rather than ids. */
function activeFilters<T>(
  columns: ProColumns<T>[],
  params: Record<string, unknown>,
  { composite = [], valueText = {} }: Pick<ListTableOptions<T, unknown>, 'composite' | 'valueText'>,
): ActiveFilter[] {
  const given = (key: string) => {
    const value = params[key];
    return value === undefined || value === null ? '' : String(value).trim();
  };
  const filters: ActiveFilter[] = [];
  for (const { field, column } of searchFields(columns)) {
    const label = typeof column.title === 'string' ? column.title : field;
    const range = composite.find((filter) => filter.field === field);
    if (range) {
      const parts = range.keys.map(given);
      if (parts.every(Boolean)) filters.push({ field, text: `${label}：${range.text(parts)}` });
      continue;
    }
    const value = given(field);
    if (value) filters.push({ field, text: `${label}：${valueText[field]?.(value) ?? valueName(column, value)}` });
  }
  return filters;
}

/**
 * What every server-paged list does with its ProTable, in one place:
 *
 * - the address holds the page, the page size, the filters and the table's `params`, so that Back,
 *   a reload and a shared link show the same rows; they are read when the list opens;
 * - the selection is only ever rows on the screen: a new page, page size, search, reset or tab
 *   clears it, and a reload keeps only the ticked rows it still shows;
 * - the bulk bar comes after the table (after the rows in the tab order), 取消选择 is a button and
 *   the header checkbox is named 全选;
 * - the filters in force show as removable tags above the table;
 * - the columns keep their widths and minimums, and a narrow screen scrolls the table inside its
 *   card rather than the page;
 * - docs/screens.md's paging and estimated totals (useServerPagination).
 *
 * `props(columns)` gives the ProTable its wiring; the page adds its title, toolbar and `params`.
 */
export function useListTable<T extends { _id: string }, U extends Record<string, unknown> = Record<string, unknown>>(
  options: ListTableOptions<T, U>,
) {
  const actionRef = useRef<ActionType>();
  const formRef = useRef<ProFormInstance>();
  const paging = useServerPagination(actionRef);
  const actionsInView = useActionsInView<T>();
  const [{ arrival, pathname }] = useState(() => ({
    arrival: new URLSearchParams(history.location.search),
    pathname: history.location.pathname,
  }));
  // The address fills the search form once, when the list opens: 重置 then empties it.
  const [opened, setOpened] = useState(false);
  const [applied, setApplied] = useState<Record<string, unknown>>({});
  const [selected, setSelected] = useState<Key[]>([]);
  const lastSearch = useRef<string>();
  const latest = useRef(options);
  latest.current = options;

  const reload = useCallback(() => actionRef.current?.reload(), []);
  const clearSelection = useCallback(() => setSelected([]), []);

  const request = useMemo(
    () =>
      paging.track(async (params: RequestParams<U>): Promise<TableResult<T>> => {
        const search = listSearch(params);
        if (search !== lastSearch.current) {
          lastSearch.current = search;
          setSelected([]);
        }
        // Replaced, not pushed: Back leaves the list rather than stepping through its pages.
        if (history.location.pathname === pathname && history.location.search !== search) history.replace({ pathname, search });
        setApplied(params);
        setOpened(true);
        const result = await latest.current.request(params);
        if (result.success) {
          const shown = new Set<Key>(result.data.map((row) => row._id));
          setSelected((keys) => (keys.every((key) => shown.has(key)) ? keys : keys.filter((key) => shown.has(key))));
        }
        return result;
      }),
    [paging.track, pathname],
  );

  const removeFilter = (field: string) => {
    formRef.current?.setFieldsValue({ [field]: undefined });
    formRef.current?.submit();
  };

  const props = (columns: ProColumns<T>[]): ProTableProps<T, U> => {
    const { batch, composite, valueText, search } = options;
    const arrivalFields = fieldsOf(columns, arrival, composite);
    const filters = activeFilters(columns, applied, { composite, valueText });
    const page = pageOf(arrival);
    return {
      rowKey: '_id',
      actionRef,
      formRef,
      columns: actionsInView(columns),
      request,
      tableLayout: 'fixed',
      scroll: { x: tableScrollX(columns, Boolean(batch)) },
      pagination: { ...paging.pagination, defaultCurrent: page.current, defaultPageSize: page.pageSize },
      options: tableOptions,
      // A filter given by the address is in view even when it sits behind 展开.
      search: search === false ? false : { ...searchOptions, defaultCollapsed: Object.keys(arrivalFields).length === 0 },
      form: { initialValues: opened ? undefined : arrivalFields },
      tableExtraRender: filters.length ? () => <ActiveFilters filters={filters} onRemove={removeFilter} /> : undefined,
      ...(batch && {
        rowSelection: {
          selectedRowKeys: selected,
          onChange: setSelected,
          preserveSelectedRowKeys: false,
          getCheckboxProps: () => ROW_CHECKBOX,
          getTitleCheckboxProps: () => SELECT_ALL,
          columnTitle: selectAllTitle,
        },
        tableAlertRender: false,
        // The table's footer: after the header checkbox and the rows, where the keyboard goes next.
        footer: selected.length
          ? () => <BatchBar {...batch} selectedKeys={selected} onClear={clearSelection} onDone={reload} />
          : undefined,
      }),
    };
  };

  return { actionRef, formRef, reload, query: arrival, props };
}
