import { bearer, createTestContext, type TestContext } from '../../../test/harness';
import { MAX_UPLOAD_BYTES } from './upload.service';

let t: TestContext;
let token: string;
beforeAll(async () => {
  t = await createTestContext();
  token = (await t.createAdmin('uploader', 2)).token;
});
afterAll(() => t.close());

// The smallest valid images of each accepted kind.
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4b40000000049454e44ae426082',
  'hex',
);
const GIF = Buffer.from('47494638396101000100800000ffffff00000021f90401000000002c00000000010001000002024401003b', 'hex');

function multipart(files: Array<{ field?: string; name: string; type: string; data: Buffer }>) {
  const boundary = '----cs-test-boundary';
  const parts = files.map((f) =>
    Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${f.field ?? 'file'}"; filename="${f.name}"\r\nContent-Type: ${f.type}\r\n\r\n`,
      ),
      f.data,
      Buffer.from('\r\n'),
    ]),
  );
  return {
    payload: Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, ...bearer(token) },
  };
}

async function upload(files: Parameters<typeof multipart>[0]) {
  return t.inject({ method: 'POST', url: '/api/upload', ...multipart(files) });
}

describe('POST /api/upload', () => {
  it('stores a PNG and serves it with its real type, nosniff and a long cache lifetime', async () => {
    const response = await upload([{ name: 'cover.png', type: 'image/png', data: PNG }]);
    expect(response.statusCode).toBe(200);
    const url = response.json().data as string;
    expect(url).toMatch(/^\/static\/uploads\/[0-9a-f]{24}\.png$/);
    const served = await t.inject({ method: 'GET', url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['cache-control']).toMatch(/max-age=31536000/);
    expect(served.rawPayload.equals(PNG)).toBe(true);
  });

  it('judges the type by the bytes, not the name: a GIF named .png is stored as .gif', async () => {
    const response = await upload([{ name: 'looks.png', type: 'image/png', data: GIF }]);
    expect(response.json().data).toMatch(/\.gif$/);
  });

  it.each([
    ['an SVG', 'image.svg', 'image/svg+xml', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')],
    ['an HTML file renamed .png', 'page.png', 'image/png', Buffer.from('<!doctype html><html><script>alert(1)</script></html>')],
    ['a PDF', 'doc.png', 'image/png', Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n')],
  ])('refuses %s with 415', async (_label, name, type, data) => {
    const response = await upload([{ name, type, data }]);
    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({
      success: false,
      code: 415,
      msg: '只能上传 PNG、JPEG、GIF 或 WebP 图片',
      errorCode: 'UNSUPPORTED_MEDIA_TYPE',
      data: null,
    });
  });

  it('refuses a file of 2 MB + 1 byte with 413', async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(MAX_UPLOAD_BYTES + 1 - PNG.length)]);
    const response = await upload([{ name: 'big.png', type: 'image/png', data: big }]);
    expect(response.statusCode).toBe(413);
    expect(response.json().msg).toBe('上传文件失败，请检查文件的大小，控制在 2MB 以内');
  });

  it('accepts a file of exactly 2 MB', async () => {
    const exact = Buffer.concat([PNG, Buffer.alloc(MAX_UPLOAD_BYTES - PNG.length)]);
    expect((await upload([{ name: 'exact.png', type: 'image/png', data: exact }])).statusCode).toBe(200);
  });

  it('refuses two files, or none', async () => {
    const two = await upload([
      { name: 'a.png', type: 'image/png', data: PNG },
      { name: 'b.png', type: 'image/png', data: PNG },
    ]);
    expect(two.statusCode).toBe(400);
    const none = await upload([]);
    expect(none.statusCode).toBe(400);
  });

  it('needs a signed-in admin', async () => {
    const { payload, headers } = multipart([{ name: 'a.png', type: 'image/png', data: PNG }]);
    const response = await t.inject({ method: 'POST', url: '/api/upload', payload, headers: { 'content-type': headers['content-type'] } });
    expect(response.statusCode).toBe(401);
  });

  it('answers 404 for an unknown upload', async () => {
    expect((await t.inject({ method: 'GET', url: '/static/uploads/0123456789abcdef01234567.png' })).statusCode).toBe(404);
    expect((await t.inject({ method: 'GET', url: '/static/uploads/..%2f..%2fetc%2fpasswd' })).statusCode).toBe(404);
  });
});
