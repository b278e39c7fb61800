import net from 'node:net';
import { CJK, listeningApp } from './support';
import { ERROR_CODES, errorCodeForStatus } from '#contract/envelope';

/**
 * What Node's HTTP parser refuses before any route runs, sent byte for byte over a real socket:
 * the answer is still the envelope with a Chinese message, never Fastify's own English JSON.
 */

const server = listeningApp();

/** Sends raw bytes and reads everything until the server closes the connection. */
function raw(request: string | Buffer): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(server.port(), '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    // The server may close while the rest of an oversized request is still being written.
    socket.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ECONNRESET' || error.code === 'EPIPE' ? undefined : reject(error),
    );
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head, ...rest] = text.split('\r\n\r\n');
      const [statusLine, ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    });
    socket.write(request);
  });
}

function expectEnvelope(answer: { status: number; headers: Record<string, string>; body: string }, status: number) {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  const body = JSON.parse(answer.body);
  // Every error says why in errorCode (additive; old clients read code and msg only).
  const why = { errorCode: status === 401 ? ERROR_CODES.sessionExpired : errorCodeForStatus(status) };
  expect(body).toEqual({ success: false, code: status, msg: expect.stringMatching(CJK), data: null, ...why });
}

describe('errors of the HTTP parser answer the envelope', () => {
  it('a 40 KB Authorization header: 431', async () => {
    const answer = await raw(`GET /api/admin/whoami HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${'a'.repeat(40_000)}\r\n\r\n`);
    expectEnvelope(answer, 431);
  });

  it('a 40 KB request line (no 414 from llhttp): 431', async () => {
    const answer = await raw(`GET /api/user?nickname=${'a'.repeat(40_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expectEnvelope(answer, 431);
  });

  it.each([
    ['a broken request line', 'GARBAGE\r\n\r\n'],
    ['an unknown method', 'BREW /api/type HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['a space inside a header name', 'GET / HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n'],
    ['two Content-Length headers that disagree', 'POST /api/type HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab'],
    // To a public route: a guarded one refuses an anonymous call before it reads the body (below).
    [
      'a broken chunked body',
      'POST /api/admin/login HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\nzz\r\n',
    ],
  ])('%s: 400', async (_name, request) => {
    expectEnvelope(await raw(request), 400);
  });

  it('an anonymous call to a guarded route is refused before its body is read: 401, even when the body is broken', async () => {
    const request = 'POST /api/type HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\nzz\r\n';
    expectEnvelope(await raw(request), 401);
  });

  it('the server still answers normally afterwards', async () => {
    const answer = await raw('GET /api/admin/whoami HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expectEnvelope(answer, 401);
  });
});
