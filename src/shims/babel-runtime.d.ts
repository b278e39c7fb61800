// @babel/runtime ships no types; its regenerator is the runtime object that dva-loading calls.
declare module '@babel/runtime/regenerator' {
  const regeneratorRuntime: object;
  export default regeneratorRuntime;
}
