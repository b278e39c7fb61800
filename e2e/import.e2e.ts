import { spawnSync } from 'node:child_process';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { ROOT, signIn, type RunningServer } from './support';
import { browserSuite } from './suite';

const SAMPLE = path.join(ROOT, 'server/test/fixtures/coderstation-sample');

let server: RunningServer;
let page: Page;

browserSuite(
  {
    // As docs/operations.md says: import into a fresh data folder, then the first start. The imported
    // admins are the only ones: there is no first super admin to sign in through the API.
    prepare: (dataDir) => {
      const run = spawnSync(
        path.join(ROOT, 'node_modules/.bin/tsx'),
        [path.join(ROOT, 'server/src/import/cli.ts'), path.join(SAMPLE, 'dump.js'), '--static', path.join(SAMPLE, 'static')],
        { env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' }, encoding: 'utf8', timeout: 120_000 },
      );
      if (run.status !== 0) throw new Error(`import failed (${run.status}):\n${run.stdout}\n${run.stderr}`);
    },
    root: false,
    setupTimeoutMs: 240_000,
  },
  (suite) => {
    ({ server, page } = suite);
  },
);

it('an imported admin signs in with the old password and finds an imported book with its cover', async () => {
  await signIn(page, server.url, 'station', '123456');
  await page.waitForURL(/\/home$/);
  await page.goto(`${server.url}/book/bookList`);
  const cover = page.getByRole('img', { name: '深入浅出 PostgreSQL的封面' });
  await cover.waitFor();
  expect(await cover.getAttribute('src')).toMatch(/^\/static\/uploads\/[0-9a-f]{24}\.png$/);
  // The image really loaded from the server (a broken one has no natural size).
  await page.waitForFunction(
    (img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0,
    await cover.elementHandle(),
  );
  await page.getByRole('img', { name: 'JavaScript 动画入门的封面' }).waitFor();
}, 60_000);
