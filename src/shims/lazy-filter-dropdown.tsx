// Stands in for antd Table's filter dropdown where the table's filter hook imports it (.umirc.ts):
// it renders only in the title of a column with `filters`, which no list here has, and brings
// Menu, Radio, Checkbox and the filter search (~5 KB gzipped). Fetched the first time one renders.
import { lazyPart } from './lazyPart';

export default lazyPart(() => import('antd/es/table/hooks/useFilter/FilterDropdown'));

type FilterItem = { value: unknown; children?: FilterItem[] };

/** antd's own flattenKeys (FilterDropdown's other export), which the filter hook calls eagerly. */
export function flattenKeys(filters?: FilterItem[]): unknown[] {
  let keys: unknown[] = [];
  (filters || []).forEach(({ value, children }) => {
    keys.push(value);
    if (children) keys = [...keys, ...flattenKeys(children)];
  });
  return keys;
}
