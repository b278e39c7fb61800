import type { TSchema } from '@sinclair/typebox';
import { Envelope, ErrorEnvelope, errorCodeForStatus, type ErrorCode } from '#contract/envelope';

/** Response schemas for a route: the success body plus the error envelope for every 4xx and 5xx. */
export const responses = <T extends TSchema>(data: T) => ({
  200: Envelope(data),
  '4xx': ErrorEnvelope,
  '5xx': ErrorEnvelope,
});

/** The same for a route that creates something and answers 201. */
export const createdResponses = <T extends TSchema>(data: T) => ({
  201: Envelope(data),
  '4xx': ErrorEnvelope,
  '5xx': ErrorEnvelope,
});

export function ok<T>(data: T) {
  return { success: true as const, code: 0 as const, msg: '', data };
}

/** The error envelope; its errorCode is the status's unless a more specific one is given. */
export function fail(code: number, msg: string, errorCode: ErrorCode = errorCodeForStatus(code)) {
  return { success: false as const, code, msg, errorCode, data: null };
}
