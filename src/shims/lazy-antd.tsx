// antd as seen by a few ProComponents parts that import a heavy component for a feature these
// screens never turn on: the Tabs of PageContainer (tabList), ProCard (tabs) and ProTable's toolbar
// (toolbar.menu), ProTable's column-setting Tree (options.setting) and copyable / ellipsis
// Typography, ProForm's StepsForm Steps, the Modal of ModalForm, the Drawer of DrawerForm and of
// ProLayout's menu on a phone-sized window. .umirc.ts gives
// them this module for 'antd': everything else is antd itself; those components are fetched the
// first time one renders (~30 KB gzipped less on every list page).
import type { ReactNode } from 'react';
import { lazyPart, part } from './lazyPart';

export * from 'antd';

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
const asText = ({ children }: { children?: ReactNode }) => <span>{children}</span>;
export const Typography = {
  Text: lazyPart(part(typography, (module) => module.default.Text), asText),
  Paragraph: lazyPart(part(typography, (module) => module.default.Paragraph), asText),
  Title: lazyPart(part(typography, (module) => module.default.Title), asText),
  Link: lazyPart(part(typography, (module) => module.default.Link), asText),
};
