import { Type } from '@sinclair/typebox';

/**
 * In an answer, one of a few integers (a permission, a comment type): an `enum` rather than a union
 * of constants, which the server's serializer would try branch by branch with a validator for every
 * value it writes. What a request may send keeps its union (and its validation messages).
 */
export const IntegerOf = <T extends number>(values: readonly T[], options: { description?: string } = {}) =>
  Type.Unsafe<T>({ type: 'integer', enum: [...values], ...options });

/**
 * An account name (admins and users alike): no white space and no invisible characters (zero-width
 * spaces and joiners, soft hyphens, variation selectors: the default-ignorable code points), which
 * would make two names that look the same.
 */
export const LoginId = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: '^[^\\s\\p{Default_Ignorable_Code_Point}]+$',
  description: '不能包含空白或不可见字符',
});

/** An image the screens show (avatar, cover): a site path or an http(s) address; empty means the default. */
export const ImagePath = Type.String({
  maxLength: 512,
  pattern: '^(|/[^/\\\\].*|https?://.+)$',
  description: '站内路径（/static/...）或 http(s) 地址',
});

/** A field holding HTML from a rich editor; the server sanitises it before storing (docs/api.md "HTML content"). */
export const HtmlField = (maxLength: number) => Type.String({ minLength: 1, maxLength, description: 'HTML，保存前按白名单净化' });

/** Chinese labels for field names (validation messages, the audit log): kept in labels.ts, which the front end imports too. */
export { FIELD_LABELS } from './labels';
