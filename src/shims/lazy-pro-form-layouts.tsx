// Stands in for ProForm's DrawerForm, LightFilter, ModalForm and StepsForm where BetaSchemaForm
// imports them (.umirc.ts): ProTable's search form is a BetaSchemaForm, which keeps every layout
// it could be asked for in one table, so each list carried all four (~13 KB gzipped) to show a
// QueryFilter. A layout is fetched the first time a schema form asks for it. Pages that import a
// layout themselves get the real one.
import { lazyPart, part } from './lazyPart';

const drawerForm = () => import('@ant-design/pro-form/es/layouts/DrawerForm');
const lightFilter = () => import('@ant-design/pro-form/es/layouts/LightFilter');
const modalForm = () => import('@ant-design/pro-form/es/layouts/ModalForm');
const stepsForm = () => import('@ant-design/pro-form/es/layouts/StepsForm');

export const DrawerForm = lazyPart(part(drawerForm, (module) => module.DrawerForm));
export const LightFilter = lazyPart(part(lightFilter, (module) => module.LightFilter));
export const ModalForm = lazyPart(part(modalForm, (module) => module.ModalForm));
export const StepsForm = Object.assign(
  lazyPart(part(stepsForm, (module) => module.StepsForm)),
  { StepForm: lazyPart(part(stepsForm, (module) => module.StepsForm.StepForm)) },
);
