// dva-loading ships no types; Umi's dva plugin uses it for `state.loading`, and the type store's
// tests build the same store.
declare module 'dva-loading' {
  export default function createLoading(): object;
}
