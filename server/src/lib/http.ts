import type { TSchema } from '@sinclair/typebox';
import { Envelope, ErrorEnvelope, type ErrorCode } from '../../../contract/envelope';

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

export function fail(code: number, msg: string, errorCode?: ErrorCode) {
  return errorCode ? { success: false as const, code, msg, errorCode, data: null } : { success: false as const, code, msg, data: null };
}
