/*
 * A local estimate of a new password, shown as it is typed. The server has the last word: it also
 * refuses the common passwords of its list (issue 13), which the browser does not download; its
 * message reaches the form when the password is sent.
 */

import type { ADMIN_MIN_PASSWORD_LENGTH } from '#contract/account';

/** The administrators' rule (issue 13); users keep their own minimum. Typed by the contract's constant. */
export const ADMIN_MIN_PASSWORD: typeof ADMIN_MIN_PASSWORD_LENGTH = 8;

export const ADMIN_PASSWORD_RULE = `至少 ${ADMIN_MIN_PASSWORD} 个字符，不能是常见密码，不能包含账号或昵称`;

export interface PasswordContext {
  minLength: number;
  /** Parts the password must not contain (the loginId and nickname), compared without case. */
  forbidden?: { label: string; value: string | undefined }[];
}

export type StrengthLevel = 0 | 1 | 2 | 3;

export interface PasswordEstimate {
  /** 0 empty, 1 弱, 2 中, 3 强. */
  level: StrengthLevel;
  /** Why the server would refuse it; empty when the local rules pass. */
  problems: string[];
  /** Advice that does not block (a guessable shape). */
  advice?: string;
}

export const STRENGTH_LABELS = ['', '弱', '中', '强'] as const;

function characterClasses(password: string): number {
  return [/[a-z]/, /[A-Z]/, /[0-9]/, /[^a-zA-Z0-9]/].filter((pattern) => pattern.test(password)).length;
}

/** Repeated characters and runs like abcd or 4321 add length without adding guesses. */
function effectiveLength(password: string): number {
  let length = password.length > 0 ? 1 : 0;
  for (let i = 1; i < password.length; i += 1) {
    const step = password.charCodeAt(i) - password.charCodeAt(i - 1);
    if (step !== 0 && Math.abs(step) !== 1) length += 1;
    else length += 0.25;
  }
  return length;
}

export function estimatePassword(password: string, context: PasswordContext): PasswordEstimate {
  if (!password) return { level: 0, problems: [] };
  const problems: string[] = [];
  if (password.length < context.minLength) problems.push(`至少 ${context.minLength} 个字符`);
  const lower = password.toLowerCase();
  for (const { label, value } of context.forbidden ?? []) {
    const part = value?.trim().toLowerCase();
    if (part && lower.includes(part)) problems.push(`不能包含${label}`);
  }
  const classes = characterClasses(password);
  const length = effectiveLength(password);
  // Roughly log2 of the guesses: each effective character is worth more the more kinds there are.
  const bits = length * Math.log2([1, 10, 36, 62, 94][classes]);
  const guessable = length < password.length * 0.6;
  let level: StrengthLevel = bits >= 60 ? 3 : bits >= 40 ? 2 : 1;
  if (problems.length > 0 || guessable) level = 1;
  const advice = guessable ? '重复或连续的字符很容易被猜到' : level < 3 ? '更长一些，并混合大小写字母、数字和符号会更安全' : undefined;
  return { level, problems, advice };
}
