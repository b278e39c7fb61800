import { Type } from '@sinclair/typebox';

// List filters arrive as query strings; an empty one means "no filter" (docs/api.md).

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
