// antd Table's filter menu imports Tree for tree-shaped filters, which no list here has.
export { Tree as default } from './lazy-antd';
