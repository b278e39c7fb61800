import { dictionary } from '@zxcvbn-ts/language-common';
import { ACCOUNT_MESSAGES, ADMIN_MIN_PASSWORD_LENGTH } from '#contract/account';
import { MIN_PASSWORD_LENGTH } from './defaults';

// zxcvbn-ts's common-passwords dictionary (about 49,000 entries, most common first, all lower
// case), kept by the zxcvbn-ts project from leaked-password corpora. This module is server code
// only (contract/ does not import it), and the Set is built once, on the first check.
let common: Set<string> | null = null;
function isCommon(password: string): boolean {
  common ??= new Set(dictionary['passwords-common'] as string[]);
  return common.has(password.toLowerCase());
}

/** How many common passwords the list holds (tests assert it is a real list). */
export function commonPasswordCount(): number {
  isCommon('');
  return common!.size;
}

// Names shorter than this say nothing about a password that contains them ('a' is in most).
const MIN_NAME_TO_CHECK = 3;

function contains(password: string, name: string | undefined): boolean {
  if (!name) return false;
  const folded = name.normalize('NFKC').toLowerCase();
  return folded.length >= MIN_NAME_TO_CHECK && password.normalize('NFKC').toLowerCase().includes(folded);
}

/**
 * Why an administrator's password is refused, or null: at least ADMIN_MIN_PASSWORD_LENGTH
 * characters, not a common password, not containing the account name or the nickname.
 */
export function adminPasswordProblem(password: string, owner: { loginId: string; nickname?: string }): string | null {
  if (password.length < ADMIN_MIN_PASSWORD_LENGTH) return ACCOUNT_MESSAGES.passwordTooShort;
  if (isCommon(password)) return ACCOUNT_MESSAGES.passwordCommon;
  if (contains(password, owner.loginId)) return ACCOUNT_MESSAGES.passwordHasLoginId;
  if (contains(password, owner.nickname)) return ACCOUNT_MESSAGES.passwordHasNickname;
  return null;
}

/** Why a user's (public site account's) password is refused, or null: its old length rule, and not common. */
export function userPasswordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return `密码长度至少 ${MIN_PASSWORD_LENGTH} 位`;
  if (isCommon(password)) return ACCOUNT_MESSAGES.passwordCommon;
  return null;
}
