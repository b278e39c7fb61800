import { booleanFilter, likePattern } from './filters';

describe('likePattern', () => {
  it('wraps the text in % so that it matches anywhere', () => {
    expect(likePattern('vue')).toBe('%vue%');
  });

  it('escapes %, _ and \\ so that they match themselves', () => {
    expect(likePattern('100%')).toBe('%100\\%%');
    expect(likePattern('a_b')).toBe('%a\\_b%');
    expect(likePattern('c:\\dir')).toBe('%c:\\\\dir%');
    expect(likePattern('%_\\')).toBe('%\\%\\_\\\\%');
  });
});

describe('booleanFilter', () => {
  it('reads "true" and "false", and treats an empty or missing value as no filter', () => {
    expect(booleanFilter('true')).toBe(true);
    expect(booleanFilter('false')).toBe(false);
    expect(booleanFilter('')).toBeUndefined();
    expect(booleanFilter(undefined)).toBeUndefined();
  });
});
