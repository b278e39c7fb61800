import { Type } from '@sinclair/typebox';
import { eq, ilike, type Column, type SQL } from 'drizzle-orm';

// List filters arrive as query strings; an empty one means "no filter" (CONTRACT.md).

export const TextFilter = (description: string) =>
  Type.Optional(Type.String({ maxLength: 100, description: `${description}（包含即可，不分大小写）` }));

export const IdFilter = (description: string) =>
  Type.Optional(Type.String({ pattern: '^(|[0-9a-f]{24})$', description }));

export const BooleanFilter = (description: string) =>
  Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false'), Type.Literal('')], { description }));

export function booleanFilter(value: 'true' | 'false' | '' | undefined): boolean | undefined {
  return value === 'true' ? true : value === 'false' ? false : undefined;
}

/** An ILIKE pattern matching `text` anywhere, with `%`, `_` and `\` taken literally. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, '\\$&')}%`;
}

export function contains(column: Column, text: string | undefined): SQL | undefined {
  return text ? ilike(column, likePattern(text)) : undefined;
}

export function equalTo<T extends string | number | boolean>(column: Column, value: T | '' | undefined): SQL | undefined {
  return value === undefined || value === '' ? undefined : eq(column, value);
}
