import unhomoglyph from 'unhomoglyph';

/**
 * An account name's canonical form: the one key two names must not share (admins among admins,
 * users among users). NFKC folds compatibility forms (full-width `ａｄｍｉｎ`), lower-casing folds
 * case, and unhomoglyph maps every confusable character to its prototype from Unicode's
 * confusables.txt (the skeleton of Unicode TS #39: Cyrillic `а`, `і` become Latin `a`, `i`; `m`
 * and `rn` share one skeleton). Lower-casing again after the skeleton, because confusables.txt
 * maps some characters to capitals (`0` → `O`). Stored beside the name (login_key) and computed
 * here only, by the repositories on every insert and rename and by the migration runner for older
 * rows (db/login-keys.ts).
 */
export function canonicalLoginId(loginId: string): string {
  const folded = loginId.normalize('NFKC').toLowerCase();
  return unhomoglyph(folded.normalize('NFD')).normalize('NFKC').toLowerCase();
}
