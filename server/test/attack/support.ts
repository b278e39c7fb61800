import { crc32, deflateSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import { ERROR_CODES, errorCodeForStatus } from '#contract/envelope';
import { createTestContext, type TestContext } from '../harness';

/** Error messages are for an administrator who reads Chinese. */
export const CJK = /[\u3400-\u9fff]/;

/** A well-formed id that no record has. */
export const UNKNOWN_ID = 'ffffffffffffffffffffffff';

const CODES_OF_STATUS: Record<number, string[]> = {
  400: [ERROR_CODES.badRequest, ERROR_CODES.validationFailed, ERROR_CODES.challengeExpired],
  401: [ERROR_CODES.unauthorized, ERROR_CODES.sessionExpired, ERROR_CODES.sessionEnded],
  403: [ERROR_CODES.forbidden, ERROR_CODES.twoFactorSetupRequired],
};

/** The envelope of a refusal: the real status, a Chinese message, no data. */
export function expectRefusal(response: LightMyRequestResponse, status: number, msg?: string, code?: string) {
  const body = response.json();
  // Every refusal says why in errorCode: the given one, or one of those its status can carry.
  const errorCode = {
    errorCode: code ?? expect.stringMatching(new RegExp(`^(${(CODES_OF_STATUS[status] ?? [errorCodeForStatus(status)]).join('|')})$`)),
  };
  expect({ status: response.statusCode, body }).toEqual({
    status,
    body: { success: false, code: status, msg: msg ?? expect.stringMatching(CJK), ...errorCode, data: null },
  });
}

/** `/api/book/:id` with its parameters filled in. */
export function fillPath(url: string, params: Record<string, string | number>): string {
  return url.replace(/:(\w+)/g, (_match, name: string) => {
    if (!(name in params)) throw new Error(`no value for :${name} in ${url}`);
    return encodeURIComponent(String(params[name]));
  });
}

export interface FilePart {
  field?: string;
  name: string;
  type: string;
  data: Buffer;
}

/** A multipart/form-data body, written by hand so that tests control every byte of it. */
export function multipart(files: FilePart[], fields: Record<string, string> = {}) {
  const boundary = '----cs-attack-boundary';
  const parts = [
    ...Object.entries(fields).map(([name, value]) =>
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    ),
    ...files.map((f) =>
      Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${f.field ?? 'file'}"; filename="${f.name}"\r\nContent-Type: ${f.type}\r\n\r\n`,
        ),
        f.data,
        Buffer.from('\r\n'),
      ]),
    ),
  ];
  return {
    payload: Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * A PNG whose header declares width × height, with one row of real pixel data: what a pixel
 * bomb looks like (a few dozen bytes that claim to be 100000 × 100000).
 */
export function png(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(Buffer.alloc(1 + 3 * Math.min(width, 4)))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A GIF whose logical screen is width × height. */
export function gif(width: number, height: number): Buffer {
  const bytes = Buffer.from('47494638396101000100800000ffffff00000021f90401000000002c00000000010001000002024401003b', 'hex');
  bytes.writeUInt16LE(width, 6);
  bytes.writeUInt16LE(height, 8);
  return bytes;
}

/** A baseline JPEG header (SOI, APP0, SOF0) declaring width × height. */
export function jpeg(width: number, height: number): Buffer {
  const app0 = Buffer.from('ffe000104a46494600010100000100010000', 'hex');
  const sof0 = Buffer.from('ffc0000b080000000001011100', 'hex');
  sof0.writeUInt16BE(height, 5);
  sof0.writeUInt16BE(width, 7);
  return Buffer.concat([Buffer.from('ffd8', 'hex'), app0, sof0, Buffer.from('ffd9', 'hex')]);
}

/** A WebP (extended format, VP8X) whose canvas is width × height. */
export function webp(width: number, height: number): Buffer {
  const vp8x = Buffer.alloc(10);
  vp8x.writeUIntLE(width - 1, 4, 3);
  vp8x.writeUIntLE(height - 1, 7, 3);
  const chunk = Buffer.concat([Buffer.from('VP8X', 'latin1'), Buffer.from([10, 0, 0, 0]), vp8x]);
  const size = Buffer.alloc(4);
  size.writeUInt32LE(4 + chunk.length, 0);
  return Buffer.concat([Buffer.from('RIFF', 'latin1'), size, Buffer.from('WEBP', 'latin1'), chunk]);
}

/**
 * The app of a fresh test context listening on a free loopback port, for the tests that speak raw
 * HTTP over a socket (what `inject` cannot send: broken requests, slow bodies). Call at file level.
 */
export function listeningApp(): { port: () => number } {
  let t: TestContext;
  let port = 0;
  beforeAll(async () => {
    t = await createTestContext();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
  }, 120_000);
  afterAll(() => t.close());
  return { port: () => port };
}
