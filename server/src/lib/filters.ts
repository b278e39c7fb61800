/** A boolean filter as the query carries it (contract/paging.ts); empty means "no filter". */
export function booleanFilter(value: 'true' | 'false' | '' | undefined): boolean | undefined {
  return value === 'true' ? true : value === 'false' ? false : undefined;
}

/** An ILIKE pattern matching `text` anywhere, with `%`, `_` and `\` taken literally. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, '\\$&')}%`;
}
