import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runFromSource } from '../live/source-process';

/**
 * The fixed captcha answer is for automated tests only. The real entry point must refuse to start
 * with it whenever NODE_ENV means production, however it is spelt, before it opens anything.
 */

function start(nodeEnv: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cs-guard-'));
  try {
    return runFromSource('server/src/main.ts', [], {
      NODE_ENV: nodeEnv,
      CAPTCHA_TEST_ANSWER: 'abcd',
      DATA_DIR: dataDir,
      PORT: '0',
      LOG_LEVEL: 'silent',
    });
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

describe('CAPTCHA_TEST_ANSWER in production', () => {
  it.each(['production', 'Production', 'PRODUCTION', ' production '])('NODE_ENV=%j: the server does not start, and says why', (nodeEnv) => {
    const result = start(nodeEnv);
    expect(result.status).not.toBe(0);
    expect(result.stdout).not.toContain('已启动');
    expect(result.stderr).toContain('CAPTCHA_TEST_ANSWER');
  });
});
