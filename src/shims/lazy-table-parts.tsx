// Parts of antd Table and ProTable that render only for features these lists never turn on
// (.umirc.ts swaps them in where the table imports them; the part's name is this module's
// query): antd's virtual table (`virtual`) and ProTable's column settings (`options.setting`,
// off in listColumns' tableOptions). Each is fetched the first time it renders.
import { lazyPart } from './lazyPart';

declare const __resourceQuery: string;

const name = __resourceQuery.slice(1);

export default name === 'VirtualTable'
  ? lazyPart(() => import('antd/es/table/RcTable/VirtualTable'))
  : lazyPart(() => import('@ant-design/pro-table/es/components/ColumnSetting'));
