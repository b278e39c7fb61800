// Plain JavaScript on purpose: a jest.config.ts is loaded through ts-node, which type-checks it
// and what it imports on every jest start (about 10 s of each run, bench/NOTES.md).
const path = require('node:path');
const { configUmiAlias, createConfig } = require('@umijs/max/test');

/** @typedef {import('jest').Config} Config */

// contract/ by its alias (package.json "imports"), in every project.
const CONTRACT = { '^#contract/(.*)$': path.join(__dirname, 'contract/$1') };

/** @returns {Promise<Config>} */
module.exports = async () => {
  // testTimeout is a global option in jest 29; @umijs/test puts it in each project.
  // The app's .tsx files rely on the automatic JSX runtime (tsconfig `react-jsx`), as Umi's build does.
  const { testTimeout: _webTimeout, ...browserBase } = createConfig({
    target: 'browser',
    // `supported`: jest sees a dynamic import() of a transformed module as an ES module whose
    // default is the whole CommonJS exports object, which React.lazy cannot render; as a
    // require() wrapped in a promise (how Umi's own test routes load pages) it gets the component.
    jsTransformerOpts: { jsx: 'automatic', supported: { 'dynamic-import': false } },
  });
  /** @type {Config} */
  const web = await configUmiAlias({
    ...browserBase,
    displayName: 'web',
    testMatch: ['<rootDir>/src/**/*.test.{ts,tsx}'],
    setupFilesAfterEnv: ['<rootDir>/src/setupTests.ts'],
    moduleNameMapper: {
      // Umi's runtime (ESM syntax in .js files, so transformed to CommonJS) imports Babel's ESM
      // helpers; under --experimental-vm-modules jest refuses to require an ESM file, so they
      // map to Babel's CommonJS twins.
      '^@babel/runtime/helpers/esm/(.*)$': '@babel/runtime/helpers/$1',
      // antd-img-crop's CommonJS build uses what antd/es/* modules export as the components
      // themselves; its ES build, transformed like the app's code, reads their default exports.
      '^antd-img-crop$': '<rootDir>/node_modules/antd-img-crop/dist/antd-img-crop.esm.js',
      // Tests load `antd` as antd/lib; antd/es would be a second copy whose Upload.LIST_IGNORE
      // (a per-copy value) the app's Upload does not recognise.
      '^antd/es/(.*)$': 'antd/lib/$1',
      ...browserBase.moduleNameMapper,
      ...CONTRACT,
    },
  });

  const { testTimeout: _nodeTimeout, ...node } = createConfig({ target: 'node' });
  /** @type {Config} */
  const server = {
    ...node,
    displayName: 'server',
    rootDir: __dirname,
    testMatch: ['<rootDir>/server/**/*.test.ts'],
    testEnvironment: 'node',
    // node_modules load as they are: jest runs with --experimental-vm-modules (PGlite imports
    // node built-ins dynamically), so the server reaches ESM-only packages such as file-type
    // through `await import()`.
    transformIgnorePatterns: ['/node_modules/'],
    moduleNameMapper: {
      // mock/server.ts (loaded by server/test/mock-contract.test.ts) only needs umi's identity defineMock.
      '^@umijs/max$': '<rootDir>/node_modules/umi/dist/defineMock.js',
      ...CONTRACT,
    },
  };

  /** @type {Config} */
  const e2e = {
    ...node,
    displayName: 'e2e',
    rootDir: __dirname,
    testMatch: ['<rootDir>/e2e/**/*.e2e.ts'],
    testEnvironment: 'node',
    transformIgnorePatterns: ['/node_modules/'],
    moduleNameMapper: CONTRACT,
  };

  // The built server as a child process, killed, restarted and stopped (`npm run test:faults`).
  /** @type {Config} */
  const faults = {
    ...node,
    displayName: 'faults',
    rootDir: __dirname,
    testMatch: ['<rootDir>/server/test/faults/**/*.fault.ts'],
    testEnvironment: 'node',
    transformIgnorePatterns: ['/node_modules/'],
    moduleNameMapper: CONTRACT,
  };

  // 60 s: a file's first hook starts an embedded PostgreSQL, which takes well over 30 s on a busy 2-core machine.
  // workerIdleMemoryLimit: a worker past 1 GB after a file is replaced; left alone they grow to
  // 2.5–3 GB and spend the time in garbage collection (npm test 724 → 565 s, bench/NOTES.md).
  return { testTimeout: 60_000, workerIdleMemoryLimit: '1GB', projects: [web, server, e2e, faults] };
};
