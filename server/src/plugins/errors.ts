import { type IncomingMessage, type Server, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_CODES } from '#contract/envelope';
import { FIELD_LABELS } from '#contract/fields';
import { UPLOAD_MESSAGES } from '#contract/upload';
import { COUNTERS, increment } from '../lib/counters';
import { AppError, isForeignKeyViolation, sqlState } from '../lib/errors';
import { fail } from '../lib/http';

interface AjvIssue {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

function fieldName(issue: AjvIssue): string {
  const missing = issue.params.missingProperty;
  // A field missing inside an object is named with its object's path (response.id).
  const parts = issue.instancePath.split('/').filter(Boolean);
  const path = (typeof missing === 'string' ? [...parts, missing] : parts).join('.');
  const leaf = path.split('.').pop() ?? '';
  const label = FIELD_LABELS[leaf];
  // "分类名称（typeName）": the screen's word for the administrator, the key for the developer.
  return label && label !== leaf ? `${label}（${path}）` : `字段 ${path || '请求内容'} `;
}

const RECORD_NOT_FOUND = '记录不存在';

/** A Chinese sentence that names the field, for a schema validation failure. */
export function validationMessage(issues: AjvIssue[]): string {
  const issue = issues[0];
  if (!issue) return '请求参数不正确';
  const field = fieldName(issue);
  // The body itself is not an object (an array, a string, null, nothing).
  if (issue.keyword === 'type' && issue.instancePath === '' && typeof issue.params.missingProperty !== 'string')
    return '请求内容应为 JSON 对象';
  switch (issue.keyword) {
    case 'required':
      return `缺少必填字段：${field.trim()}`;
    case 'minLength':
      return issue.params.limit === 1 ? `${field}不能为空` : `${field}长度至少 ${issue.params.limit} 个字符`;
    case 'maxLength':
      return `${field}长度不能超过 ${issue.params.limit} 个字符`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `${field}超出允许的范围`;
    case 'type':
      return `${field}类型不正确`;
    case 'pattern':
    case 'format':
      return `${field}格式不正确`;
    case 'const':
    case 'enum':
    case 'anyOf':
      return `${field}取值不正确`;
    case 'additionalProperties':
      return `不支持的字段：${String(issue.params.additionalProperty ?? '')}`;
    default:
      return `${field}不符合要求`;
  }
}

// Errors that mean "the database cannot answer right now", not "this request is wrong": among
// them a statement or lock wait past its time-out (57014, 55P03; see DatabaseTimeouts).
const UNAVAILABLE_CODES = new Set([
  '57014',
  '55P03',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08006',
  '53300',
]);

export function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = sqlState(error);
  if (code && UNAVAILABLE_CODES.has(code)) return true;
  // drizzle wraps the driver's error: look through the chain of causes.
  // `Query read timeout`: pg's own query_timeout, the bound on a statement without the `watch` layer.
  for (let current: unknown = error; typeof current === 'object' && current !== null; current = (current as { cause?: unknown }).cause) {
    const { message } = current as { message?: unknown };
    if (
      typeof message === 'string' &&
      /Connection terminated|connection timeout|Query read timeout|Client has encountered a connection error|timeout exceeded when trying to connect|ECONNREFUSED/i.test(
        message,
      )
    ) {
      return true;
    }
  }
  return false;
}

const CLIENT_ERRORS: Record<string, [number, string]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: [413, '请求内容过大'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, '不支持的请求内容类型'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, '请求体不能为空'],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, '请求体不是合法的 JSON'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, '请求长度不正确'],
  FST_REQ_FILE_TOO_LARGE: [413, UPLOAD_MESSAGES.tooLarge],
  FST_PARTS_LIMIT: [413, '上传内容过多'],
  FST_FILES_LIMIT: [400, '一次只能上传一个文件'],
  FST_FIELDS_LIMIT: [400, '上传内容过多'],
  FST_INVALID_MULTIPART_CONTENT_TYPE: [415, '请以 multipart/form-data 上传文件'],
  FST_PROTO_VIOLATION: [400, '请求内容不合法'],
};

/**
 * Errors the router raises before any route or hook runs (a malformed percent-encoding, a path
 * parameter over 100 characters): Fastify's own answer to them is not the envelope.
 */
export function frameworkErrorHandler(error: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  const msg = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? '请求地址中的参数过长' : '请求地址不正确';
  return reply.status(400).send(fail(400, msg));
}

// Node's HTTP parser refuses these before Fastify sees a request. llhttp has no 414: a request line
// longer than the header limit is a header overflow.
const PARSER_ERRORS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, '请求头或请求地址过长'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, '请求超时，请重试'],
};

/** Each connection's response in progress, from the server's public `request` event until it finishes. */
const answering = new WeakMap<Socket, ServerResponse>();

/**
 * Follows the responses of `server`'s connections, so that clientErrorHandler knows whether one is
 * already being answered (what Node keeps only in a private field of the socket).
 */
export function followAnswers(server: Server) {
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const { socket } = request;
    answering.set(socket, response);
    response.once('finish', () => {
      if (answering.get(socket) === response) answering.delete(socket);
    });
  });
}

/**
 * The answer to what Node's HTTP parser refuses (a 40 KB header, a broken request line, a request
 * that never finishes), written on the socket as the envelope, since no route or reply exists yet.
 */
export function clientErrorHandler(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket) {
  // A reset connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, msg] = (error.code && PARSER_ERRORS[error.code]) || [400, '请求格式不正确'];
  this.log.debug({ err: error }, 'client error');
  // A call already answered (refused before its body was read, say) keeps that one answer: a
  // second one on the same connection would be read as the answer to a request never sent.
  if (socket.writable && !answering.get(socket)?.headersSent) {
    const body = JSON.stringify(fail(status, msg));
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'X-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n' +
        body,
    );
  }
  socket.destroy(error);
}

/**
 * Every error leaves as the envelope with its real status; a 5xx never shows internals. A 403
 * REAUTH_REQUIRED also says how long a proof lasts, for the dialog that asks for it.
 */
export function registerErrorHandling(app: FastifyInstance, { reauthWindowMs }: { reauthWindowMs: number }) {
  const reauthWindowSeconds = Math.round(reauthWindowMs / 1000);
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      if (error.retryAfter !== undefined) reply.header('Retry-After', String(error.retryAfter));
      const envelope = fail(error.statusCode, error.msg, error.errorCode);
      if (error.errorCode === ERROR_CODES.reauthRequired) return reply.status(error.statusCode).send({ ...envelope, reauthWindowSeconds });
      return reply.status(error.statusCode).send(error.extra ? { ...envelope, ...error.extra } : envelope);
    }
    if (error.validation) {
      // An address whose id could not be one names no record (and a path only the site has, such
      // as /api/user/whoami with an admin's token, reaches the admin route's /:id): 404, not 400.
      const issues = error.validation as AjvIssue[];
      if (error.validationContext === 'params' && issues[0]?.instancePath === '/id') {
        return reply.status(404).send(fail(404, RECORD_NOT_FOUND, ERROR_CODES.notFound));
      }
      return reply.status(400).send(fail(400, validationMessage(issues), ERROR_CODES.validationFailed));
    }
    const known = error.code ? CLIENT_ERRORS[error.code] : undefined;
    if (known) return reply.status(known[0]).send(fail(known[0], known[1]));
    if (error instanceof SyntaxError) return reply.status(400).send(fail(400, '请求体不是合法的 JSON'));
    // Checked first by the services; reaching the database here means a concurrent change won.
    if (isForeignKeyViolation(error)) {
      return reply.status(409).send(fail(409, '数据已被其他操作修改，请刷新后重试'));
    }
    if (isDatabaseUnavailable(error)) {
      const code = sqlState(error);
      if (code === '55P03') increment(COUNTERS.lockTimeouts);
      else if (code === '57014') increment(COUNTERS.statementTimeouts);
      request.log.warn({ err: error }, 'database unavailable');
      return reply.status(503).send(fail(503, '服务暂时不可用，请稍后重试'));
    }
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status < 500) return reply.status(status).send(fail(status, '请求不正确'));
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(fail(500, '服务器内部错误，请稍后重试'));
  });
}
