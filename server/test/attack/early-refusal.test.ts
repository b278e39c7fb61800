import net from 'node:net';
import { AUTH_MESSAGES } from '#contract/auth';
import { listeningApp } from './support';

/**
 * A call refused before its body is read (no token on POST /api/upload) while the caller is still
 * sending a large body, slowly, over a real socket: the caller must read the whole 401 envelope,
 * not see its connection reset mid-send (issue 26, a new user's first upload after a session ended).
 */

const server = listeningApp();

const BOUNDARY = 'slowsenderboundary';
const TOTAL = 3 * 1024 * 1024;
const CHUNK = 64 * 1024;
const PAUSE_MS = 10;

/** Writes a `TOTAL`-byte multipart upload in chunks with pauses; answers what was read until the server closed. */
function slowUpload(
  headers: Record<string, string> = {},
  readAfterSending = false,
): Promise<{ text: string; error: string | null; sentAll: boolean }> {
  return new Promise((resolve) => {
    const socket = net.connect(server.port(), '127.0.0.1');
    const chunks: Buffer[] = [];
    let error: string | null = null;
    let sentAll = false;
    const head = Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
    const body = Buffer.concat([head, Buffer.alloc(TOTAL - head.length - tail.length, 0x61), tail]);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (e: NodeJS.ErrnoException) => {
      error = e.code ?? e.message;
    });
    socket.on('close', () => resolve({ text: Buffer.concat(chunks).toString('utf8'), error, sentAll }));
    // A browser reads the answer only once it has sent the body (or could not send more).
    if (readAfterSending) socket.pause();
    socket.on('connect', async () => {
      const extra = Object.entries(headers)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('');
      socket.write(
        `POST /api/upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\n` +
          `Content-Length: ${body.length}\r\n${extra}\r\n`,
      );
      for (let offset = 0; offset < body.length && !socket.destroyed && socket.writable; offset += CHUNK) {
        socket.write(body.subarray(offset, offset + CHUNK));
        await new Promise((r) => setTimeout(r, PAUSE_MS));
      }
      sentAll = !socket.destroyed && socket.writable;
      if (sentAll) socket.end();
      socket.resume();
    });
  });
}

function parse(text: string) {
  const at = text.indexOf('\r\n\r\n');
  expect(at).toBeGreaterThan(0);
  const [statusLine, ...lines] = text.slice(0, at).split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body: text.slice(at + 4) };
}

describe('a call refused before its body is read', () => {
  it('an anonymous 3 MB upload sent slowly reads the complete 401 envelope', async () => {
    const answer = await slowUpload();
    const { status, headers, body } = parse(answer.text);
    expect(status).toBe(401);
    expect(headers['content-type']).toMatch(/^application\/json/);
    // The whole body, as long as the server said: nothing cut off by a reset.
    expect(Buffer.byteLength(body)).toBe(Number(headers['content-length']));
    expect(JSON.parse(body)).toEqual({
      success: false,
      code: 401,
      msg: AUTH_MESSAGES.sessionExpired,
      data: null,
      errorCode: 'SESSION_EXPIRED',
    });
    expect(AUTH_MESSAGES.sessionExpired).toBe('登录过期，请重新登录');
    // Closed past the limit with a FIN after the answer, not reset; and not read to its end.
    expect(answer.error).toBeNull();
    expect(answer.sentAll).toBe(false);
  }, 60_000);

  it('through a proxy that asks to close (Connection: close): the answer comes once the body is in', async () => {
    const answer = await slowUpload({ Connection: 'close' });
    const { status, headers, body } = parse(answer.text);
    expect(status).toBe(401);
    expect(Buffer.byteLength(body)).toBe(Number(headers['content-length']));
    expect(JSON.parse(body)).toEqual({ success: false, code: 401, msg: '登录过期，请重新登录', data: null, errorCode: 'SESSION_EXPIRED' });
  }, 60_000);

  it.each([
    ['keeping the connection', {}],
    ['asking to close it', { Connection: 'close' }],
  ])(
    'a caller that reads only after sending, %s, still reads the 401',
    async (_label, headers) => {
      const answer = await slowUpload(headers, true);
      const { status, body } = parse(answer.text);
      expect(status).toBe(401);
      expect(JSON.parse(body)).toEqual({
        success: false,
        code: 401,
        msg: '登录过期，请重新登录',
        data: null,
        errorCode: 'SESSION_EXPIRED',
      });
    },
    60_000,
  );

  it('the same with a token that is no longer valid', async () => {
    const answer = await slowUpload({ Authorization: 'Bearer not-a-token' });
    const { status, body } = parse(answer.text);
    expect(status).toBe(401);
    expect(JSON.parse(body)).toEqual({ success: false, code: 401, msg: '登录过期，请重新登录', data: null, errorCode: 'SESSION_EXPIRED' });
  }, 60_000);
});
