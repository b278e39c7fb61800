import { canonicalLoginId } from '../../lib/account-names';

/**
 * A text as the word matcher sees it: each character folded as account names are
 * (lib/account-names.ts: NFKC, case, Unicode confusables), accents dropped, and every character that
 * is neither a letter nor a digit (spaces, punctuation, symbols, zero-width marks, HTML tags) left
 * out, so `Ｓ.P-А m`, `s p a m` and `<b>sp</b>am` all read `spam`. `start[i]`/`end[i]` are the
 * original offsets of folded character i, to highlight what matched.
 */
export interface Folded {
  text: string;
  start: number[];
  end: number[];
}

// Two symbols that stand for letters in disguised spam and are not in Unicode's confusables.
const LEET: Record<string, string> = { '@': 'a', $: 's' };
// After the confusables map (which makes `1`, `I` and `|` an `l`): one class for i, l and 1, and
// the digits leetspeak writes for letters. Words and texts fold alike, so a listed word still matches.
const AFTER: Record<string, string> = { l: 'i', '3': 'e', '4': 'a', '5': 's', '7': 't' };
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const NOT_LETTER_OR_DIGIT = /[^\p{L}\p{N}]/gu;
const TAG = /<\/?[a-zA-Z][^<>]*>|&(?:#\d+|#x[0-9a-fA-F]+|[a-zA-Z]+);/y;

const cache = new Map<string, string>();

/** One character's folded form: '' for a separator. Cached: a text repeats few distinct characters. */
export function foldChar(ch: string): string {
  let folded = cache.get(ch);
  if (folded !== undefined) return folded;
  const leet = LEET[ch] ?? ch;
  // A separator is decided before the confusables map, which turns `|` into `l`.
  folded = LETTER_OR_DIGIT.test(leet.normalize('NFKC'))
    ? canonicalLoginId(leet)
        .normalize('NFD')
        .replace(NOT_LETTER_OR_DIGIT, '')
        .replace(/[l3457]/g, (c) => AFTER[c])
    : '';
  if (cache.size < 100_000) cache.set(ch, folded);
  return folded;
}

/** Folds `text`; with `html`, tags and character references count as separators. */
export function fold(text: string, html = false): Folded {
  let out = '';
  const start: number[] = [];
  const end: number[] = [];
  let i = 0;
  while (i < text.length) {
    if (html && (text[i] === '<' || text[i] === '&')) {
      TAG.lastIndex = i;
      if (TAG.test(text)) {
        i = TAG.lastIndex;
        continue;
      }
    }
    const code = text.codePointAt(i)!;
    const width = code > 0xffff ? 2 : 1;
    const folded = foldChar(text.slice(i, i + width));
    for (let k = 0; k < folded.length; k++) {
      start.push(i);
      end.push(i + width);
    }
    out += folded;
    i += width;
  }
  return { text: out, start, end };
}

/** A word's folded form: the key of the list (unique) and what the matcher looks for. */
export function foldWord(word: string): string {
  return fold(word).text;
}
