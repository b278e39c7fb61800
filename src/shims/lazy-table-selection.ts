// Stands in for antd Table's row-selection hook where the table imports it (.umirc.ts). No list
// here selects rows, and the hook brings Radio, the checkbox column and rc-tree's tree utilities
// (for tree data) into every table's first load (~12 KB gzipped). A table given `rowSelection`
// when it first renders suspends until the real hook has been fetched and from then on uses it.
// Two limits, neither met by these screens: a table mounted without `rowSelection` that is given
// one later keeps no selection column (its hooks are fixed at mount, and it logs an error), and
// `Table.SELECTION_COLUMN` is this module's marker, not the real hook's.
import { useRef } from 'react';

type UseSelection = typeof import('antd/es/table/hooks/useSelection').default;

export const SELECTION_COLUMN = {};
export const SELECTION_ALL = 'SELECT_ALL';
export const SELECTION_INVERT = 'SELECT_INVERT';
export const SELECTION_NONE = 'SELECT_NONE';

let real: UseSelection | undefined;
let loading: Promise<void> | undefined;
const load = () =>
  (loading ??= import('antd/es/table/hooks/useSelection').then((module) => {
    real = module.default;
  }));

const noColumns = <T>(columns: T) => columns;
const noKeys: Set<unknown> = new Set();

function useSelection(...args: Parameters<UseSelection>): ReturnType<UseSelection> {
  const [, rowSelection] = args;
  // Whether this table got the real hook when it mounted: its hooks must stay the same after.
  const withReal = useRef(real !== undefined);
  if (withReal.current && real) return real(...args);
  if (!rowSelection) return [noColumns, noKeys] as unknown as ReturnType<UseSelection>;
  if (!real) throw load();
  console.error('antd Table: rowSelection given after the table mounted; remount the table (key) to select rows');
  return [noColumns, noKeys] as unknown as ReturnType<UseSelection>;
}

export default useSelection;
