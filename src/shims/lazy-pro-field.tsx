// Stands in for the value-type components of @ant-design/pro-field that no list or search form here
// shows (.umirc.ts swaps them in, the component's name as this module's query). ProField imports
// every value type up front, so any ProTable or ProForm would otherwise carry the date, time,
// colour, cascader, tree, slider, number and rate pickers and the image with its preview (~140 kB
// gzipped on /user/userList).
// Each one is still there, fetched the first time something renders it.
import { forwardRef, lazy, Suspense, type ComponentType, type Ref } from 'react';

declare const __resourceQuery: string;

type FieldModule = { default: ComponentType<any>; FieldTimeRangePicker?: ComponentType<any> };

const loaders: Record<string, () => Promise<FieldModule>> = {
  Cascader: () => import('@ant-design/pro-field/es/components/Cascader'),
  Code: () => import('@ant-design/pro-field/es/components/Code'),
  ColorPicker: () => import('@ant-design/pro-field/es/components/ColorPicker'),
  DatePicker: () => import('@ant-design/pro-field/es/components/DatePicker'),
  Digit: () => import('@ant-design/pro-field/es/components/Digit'),
  DigitRange: () => import('@ant-design/pro-field/es/components/DigitRange'),
  FromNow: () => import('@ant-design/pro-field/es/components/FromNow'),
  Image: () => import('@ant-design/pro-field/es/components/Image'),
  Money: () => import('@ant-design/pro-field/es/components/Money'),
  Percent: () => import('@ant-design/pro-field/es/components/Percent'),
  Progress: () => import('@ant-design/pro-field/es/components/Progress'),
  Radio: () => import('@ant-design/pro-field/es/components/Radio'),
  RangePicker: () => import('@ant-design/pro-field/es/components/RangePicker'),
  Rate: () => import('@ant-design/pro-field/es/components/Rate'),
  Second: () => import('@ant-design/pro-field/es/components/Second'),
  Segmented: () => import('@ant-design/pro-field/es/components/Segmented'),
  Slider: () => import('@ant-design/pro-field/es/components/Slider'),
  TimePicker: () => import('@ant-design/pro-field/es/components/TimePicker'),
  TreeSelect: () => import('@ant-design/pro-field/es/components/TreeSelect'),
};

function lazyField(load: () => Promise<{ default: ComponentType<any> }>) {
  const Field = lazy(load);
  return forwardRef(function LazyField(props: Record<string, unknown>, ref: Ref<unknown>) {
    return (
      <Suspense fallback={null}>
        <Field {...props} ref={ref} />
      </Suspense>
    );
  });
}

const name = __resourceQuery.slice(1);
const load = loaders[name];
if (!load) throw new Error(`lazy-pro-field: no loader for the value type component "${name}"`);

export default lazyField(load);

/** TimePicker's second export, the time range picker. */
export const FieldTimeRangePicker = lazyField(() =>
  load().then((module) => ({ default: module.FieldTimeRangePicker as ComponentType<any> })),
);
