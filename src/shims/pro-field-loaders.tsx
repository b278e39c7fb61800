// The loaders behind src/shims/lazy-pro-field.tsx, in one module however many value types it
// stands in for (that module is built once per value type).
import { forwardRef, lazy, Suspense, type ComponentType, type Ref } from 'react';

// Value-type components take ProField's props, which differ per type: the stand-in forwards them as they are.
// biome-ignore lint/suspicious/noExplicitAny: see above.
type AnyComponent = ComponentType<any>;
type FieldModule = { default: AnyComponent; FieldTimeRangePicker?: AnyComponent };

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

// Called once per value type when the module loads, never during a render.
function lazyField(load: () => Promise<{ default: AnyComponent }>) {
  const Field = lazy(load);
  // biome-ignore lint/correctness/noComponentHookFactories: see above.
  return forwardRef(function LazyField(props: Record<string, unknown>, ref: Ref<unknown>) {
    return (
      <Suspense fallback={null}>
        <Field {...props} ref={ref} />
      </Suspense>
    );
  });
}

/** The value type component `name` and, for TimePicker, its range picker, each fetched on first use. */
export function lazyFieldModule(name: string) {
  const load = loaders[name];
  if (!load) throw new Error(`lazy-pro-field: no loader for the value type component "${name}"`);
  return {
    Field: lazyField(load),
    FieldTimeRangePicker: lazyField(() => load().then((module) => ({ default: module.FieldTimeRangePicker as AnyComponent }))),
  };
}
