// Stands in for the value-type components of @ant-design/pro-field that no list or search form here
// shows (config/bundle.ts redirects them here, the component's name as this module's query).
// ProField imports every value type up front, so any ProTable or ProForm would otherwise carry the
// date, time, colour, cascader, tree, slider, number and rate pickers and the image with its
// preview (~140 kB gzipped on /user/userList).
// Each one is still there, fetched the first time something renders it.
import { lazyFieldModule } from './pro-field-loaders';

declare const __resourceQuery: string;

const field = lazyFieldModule(__resourceQuery.slice(1));

export default field.Field;

/** TimePicker's second export, the time range picker. */
export const FieldTimeRangePicker = field.FieldTimeRangePicker;
