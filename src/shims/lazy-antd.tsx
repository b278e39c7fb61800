// antd as seen by a few ProComponents parts that import a heavy component for a feature these
// screens never turn on: the Tabs of PageContainer (tabList), ProCard (tabs) and ProTable's toolbar
// (toolbar.menu), ProTable's column-setting Tree (options.setting) and copyable / ellipsis
// Typography, ProForm's StepsForm Steps, the Modal of ModalForm, the Drawer of DrawerForm and of
// ProLayout's menu on a phone-sized window. .umirc.ts gives
// them this module for 'antd': everything else is antd itself; those components are fetched the
// first time one renders (~30 KB gzipped less on every list page).
import {
  forwardRef,
  lazy,
  Suspense,
  type ComponentType,
  type ReactNode,
  type Ref,
} from 'react';

export * from 'antd';

type Props = Record<string, unknown> & { children?: ReactNode };

function lazyPart(
  load: () => Promise<{ default: ComponentType<any> }>,
  fallback: (props: Props) => ReactNode = () => null,
) {
  const Part = lazy(load);
  return forwardRef(function LazyPart(props: Props, ref: Ref<unknown>) {
    return (
      <Suspense fallback={fallback(props)}>
        <Part {...props} ref={ref} />
      </Suspense>
    );
  });
}

const part = <M,>(load: () => Promise<M>, pick: (module: M) => unknown) => () =>
  load().then((module) => ({ default: pick(module) as ComponentType<any> }));

const tabs = () => import('antd/es/tabs');
export const Tabs = Object.assign(lazyPart(tabs), {
  TabPane: lazyPart(part(tabs, (module) => module.default.TabPane)),
});

export const Modal = lazyPart(() => import('antd/es/modal'));

export const Drawer = lazyPart(() => import('antd/es/drawer'));

export const Tree = lazyPart(() => import('antd/es/tree'));

const steps = () => import('antd/es/steps');
export const Steps = Object.assign(lazyPart(steps), {
  Step: lazyPart(part(steps, (module) => module.default.Step)),
});

// Until it arrives, a text shows as plain text rather than not at all.
const typography = () => import('antd/es/typography');
const asText = ({ children }: Props) => <span>{children}</span>;
export const Typography = {
  Text: lazyPart(part(typography, (module) => module.default.Text), asText),
  Paragraph: lazyPart(part(typography, (module) => module.default.Paragraph), asText),
  Title: lazyPart(part(typography, (module) => module.default.Title), asText),
  Link: lazyPart(part(typography, (module) => module.default.Link), asText),
};
