import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { uploads } from '../../src/db/schema';
import { bearer, createTestContext, type TestContext } from '../harness';
import { expectRefusal, gif, jpeg, multipart, png, webp, type FilePart } from './support';

let t: TestContext;
let token: string;
let workDir: string;

beforeAll(async () => {
  // The data folder sits two levels down in an empty folder: a file that a crafted name made the
  // server write, inside it or up to two levels above it, would show up.
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cs-upload-attack-'));
  t = await createTestContext({ DATA_DIR: path.join(workDir, 'a', 'b') });
  token = (await t.createAdmin('attacker', 2)).token;
}, 120_000);

afterAll(async () => {
  await t.close();
  fs.rmSync(workDir, { recursive: true, force: true });
});

const NOT_AN_IMAGE = '只能上传 PNG、JPEG、GIF 或 WebP 图片';
const TOO_MANY_PIXELS = '图片尺寸过大，宽和高不能超过 10000 像素，总像素不能超过 2500 万';

async function upload(files: FilePart[], fields: Record<string, string> = {}) {
  const { payload, contentType } = multipart(files, fields);
  return t.inject({ method: 'POST', url: '/api/upload', payload, headers: { ...bearer(token), 'content-type': contentType } });
}

async function storedCount() {
  return (await t.database.db.select({ id: uploads.id }).from(uploads)).length;
}

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => fs.statSync(path.join(dir, name)).isFile());
}

describe('uploads: content that is not an image is refused, whatever it is called', () => {
  it.each([
    [
      'an SVG with a script',
      'logo.svg',
      'image/svg+xml',
      '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(1)</script></svg>',
    ],
    [
      'an SVG named .png and declared image/png',
      'logo.png',
      'image/png',
      '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    ],
    [
      'an HTML page renamed .png',
      'page.png',
      'image/png',
      '<!doctype html><html><body><script>alert(document.cookie)</script></body></html>',
    ],
    ['HTML behind a PNG signature with no image header', 'sig.png', 'image/png', '\x89PNG\r\n\x1a\n<html><script>alert(1)</script></html>'],
    ['a script declared as a GIF', 'x.gif', 'image/gif', 'alert(1)//'],
  ])('refuses %s with 415 and stores nothing', async (_label, name, type, text) => {
    const before = await storedCount();
    expectRefusal(await upload([{ name, type, data: Buffer.from(text, 'latin1') }]), 415, NOT_AN_IMAGE);
    expect(await storedCount()).toBe(before);
  });
});

describe('uploads: a polyglot (a real PNG with HTML and script after it) can never run as a page', () => {
  it('is served only as image/png, with nosniff and a sandboxing CSP', async () => {
    const polyglot = Buffer.concat([png(1, 1), Buffer.from('<html><body><script>alert(document.domain)</script></body></html>')]);
    const response = await upload([{ name: 'poly.html', type: 'text/html', data: polyglot }]);
    // Refusing it is as good as serving it inert; storing it under any name but .png is not.
    if (response.statusCode !== 200) return expectRefusal(response, 415, NOT_AN_IMAGE);
    const url = response.json().data as string;
    expect(url).toMatch(/^\/static\/uploads\/[0-9a-f]{24}\.png$/);
    const served = await t.inject({ method: 'GET', url });
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['content-security-policy']).toMatch(/default-src 'none'/);
    expect(served.headers['content-security-policy']).toMatch(/sandbox/);
  });
});

describe('uploads: the server names the file', () => {
  it.each(['../../x.png', '..\\..\\x.png', '/etc/x.png', '%2e%2e%2fx.png', 'x.png\u0000.html', 'x.php.png'])(
    'a file called %s is stored under a generated name and nothing is written on disk',
    async (name) => {
      const response = await upload([{ name, type: 'image/png', data: png(2, 2) }]);
      expect(response.statusCode).toBe(200);
      expect(response.json().data).toMatch(/^\/static\/uploads\/[0-9a-f]{24}\.png$/);
      const dataDir = path.join(workDir, 'a', 'b');
      const strays = filesUnder(workDir).filter(
        (file) => !path.join(workDir, file).startsWith(dataDir + path.sep) || !/^[0-9a-f]{24}\.png$/.test(path.basename(file)),
      );
      expect(strays).toEqual([]);
    },
  );

  it.each(['..%2f..%2fx.png', '..%5c..%5cx.png', '%2e%2e%2f%2e%2e%2fetc%2fpasswd', 'x.png%00.html'])(
    'GET /static/uploads/%s finds nothing',
    async (name) => {
      const response = await t.inject({ method: 'GET', url: `/static/uploads/${name}` });
      expect([400, 404]).toContain(response.statusCode);
      expectRefusal(response, response.statusCode);
    },
  );
});

describe('uploads: one file, in the field "file"', () => {
  it('refuses two files and stores neither', async () => {
    const before = await storedCount();
    expectRefusal(
      await upload([
        { name: 'a.png', type: 'image/png', data: png(1, 1) },
        { name: 'b.png', type: 'image/png', data: png(1, 1) },
      ]),
      400,
      '一次只能上传一个文件',
    );
    expect(await storedCount()).toBe(before);
  });

  it('refuses a form with no file, even with other fields', async () => {
    expectRefusal(await upload([], { name: 'x.png' }), 400, '请选择要上传的图片');
  });

  it('refuses a file under another field name', async () => {
    expectRefusal(await upload([{ field: 'avatar', name: 'a.png', type: 'image/png', data: png(1, 1) }]), 400);
  });

  it.each([
    ['no boundary', 'multipart/form-data', "' OR '1'='1"],
    ['a boundary over 256 characters', `multipart/form-data; boundary=${'b'.repeat(300)}`, '--b--'],
    [
      'a body cut off before its closing boundary',
      'multipart/form-data; boundary=x',
      '--x\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\n\x89PNG',
    ],
  ])('refuses a broken form (%s) with 400, not a server error', async (_label, contentType, payload) => {
    const response = await t.inject({
      method: 'POST',
      url: '/api/upload',
      headers: { ...bearer(token), 'content-type': contentType },
      payload,
    });
    expectRefusal(response, 400, '上传内容不完整或格式不正确');
  });

  it('refuses a body that is not multipart with 415', async () => {
    const response = await t.inject({ method: 'POST', url: '/api/upload', headers: bearer(token), payload: { file: 'x' } });
    expectRefusal(response, 415);
  });
});

describe('uploads: pixel bombs are refused by their declared size', () => {
  it.each([
    ['a PNG', () => png(100_000, 100_000)],
    ['a PNG 10001 pixels wide', () => png(10_001, 1)],
    ['a PNG of 5001 × 5001 (over 25 million pixels)', () => png(5001, 5001)],
    ['a GIF', () => gif(65_535, 65_535)],
    ['a JPEG', () => jpeg(65_000, 65_000)],
    ['a WebP', () => webp(1_000_000, 1_000_000)],
  ])('%s declaring a huge picture: 413, nothing stored', async (_label, make) => {
    const before = await storedCount();
    const bomb = make();
    expect(bomb.length).toBeLessThan(200);
    expectRefusal(await upload([{ name: 'bomb.png', type: 'image/png', data: bomb }]), 413, TOO_MANY_PIXELS);
    expect(await storedCount()).toBe(before);
  });

  it.each([
    ['PNG', () => png(10_000, 2500), 'png'],
    ['GIF', () => gif(640, 480), 'gif'],
    ['JPEG', () => jpeg(4000, 3000), 'jpg'],
    ['WebP', () => webp(1920, 1080), 'webp'],
  ])('a %s of an ordinary size is accepted', async (_label, make, ext) => {
    const response = await upload([{ name: 'fine', type: 'application/octet-stream', data: make() }]);
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatch(new RegExp(`\\.${ext}$`));
  });

  it('refuses a PNG that declares no size (zero width)', async () => {
    expectRefusal(await upload([{ name: 'zero.png', type: 'image/png', data: png(0, 10) }]), 415, NOT_AN_IMAGE);
  });
});
