import { fold } from './fold';

export interface MatchWord<T> {
  /** Folded (fold.ts): what is looked for in folded text. */
  folded: string;
  /** The word as listed: a short Latin one must stand alone in the text. */
  word: string;
  value: T;
}

export interface Match<T> {
  value: T;
  /** Offsets in the original text, end exclusive. */
  start: number;
  end: number;
  text: string;
}

// A short Latin word must stand alone (`ass` is not in `class`); a longer one or a Chinese one
// is found anywhere, so `buyviagra` or a word inside a Chinese sentence is still caught.
const SHORT_LATIN = /^[a-z0-9]{1,4}$/i;
const LATIN = /[a-z0-9]/;

/**
 * Aho–Corasick over folded text: one pass over the text whatever the number of words (10,000
 * words, 2,000 characters: bench/moderation.ts). Built once per word list.
 */
export class Matcher<T> {
  private readonly next: Array<Map<string, number>> = [new Map()];
  private readonly fail: number[] = [0];
  private readonly out: number[][] = [[]];
  private readonly words: Array<MatchWord<T>>;
  private readonly alone: boolean[];

  constructor(words: ReadonlyArray<MatchWord<T>>) {
    this.words = words.filter((w) => w.folded.length > 0);
    this.alone = this.words.map((w) => SHORT_LATIN.test(w.word.trim()));
    this.words.forEach((word, index) => {
      let node = 0;
      for (const ch of word.folded) {
        let child = this.next[node].get(ch);
        if (child === undefined) {
          child = this.next.length;
          this.next.push(new Map());
          this.fail.push(0);
          this.out.push([]);
          this.next[node].set(ch, child);
        }
        node = child;
      }
      this.out[node].push(index);
    });
    // Breadth first: a node's failure link is the longest proper suffix in the trie; its outputs
    // include its failure node's, so a scan reads one list per position.
    const queue: number[] = [...this.next[0].values()];
    for (let head = 0; head < queue.length; head++) {
      const node = queue[head];
      for (const [ch, child] of this.next[node]) {
        let f = this.fail[node];
        while (f !== 0 && !this.next[f].has(ch)) f = this.fail[f];
        const target = this.next[f].get(ch);
        this.fail[child] = target !== undefined && target !== child ? target : 0;
        if (this.out[this.fail[child]].length) this.out[child] = this.out[child].concat(this.out[this.fail[child]]);
        queue.push(child);
      }
    }
  }

  get size(): number {
    return this.words.length;
  }

  /** Every occurrence of every word in `text` (HTML when `html`), by original offsets. */
  find(text: string, html = false): Array<Match<T>> {
    const folded = fold(text, html);
    const found: Array<Match<T>> = [];
    const s = folded.text;
    let node = 0;
    for (let i = 0; i < s.length; i++) {
      const ch = s[i];
      let target = this.next[node].get(ch);
      while (target === undefined && node !== 0) {
        node = this.fail[node];
        target = this.next[node].get(ch);
      }
      node = target ?? 0;
      for (const index of this.out[node]) {
        const word = this.words[index];
        const first = i - word.folded.length + 1;
        if (this.alone[index] && !standsAlone(folded, first, i)) continue;
        const start = folded.start[first];
        const end = folded.end[i];
        found.push({ value: word.value, start, end, text: text.slice(start, end) });
      }
    }
    return found;
  }
}

/** No Latin letter or digit touches the match in the original text (a separator in between is enough). */
function standsAlone(folded: ReturnType<typeof fold>, first: number, last: number): boolean {
  const before = first - 1;
  if (before >= 0 && LATIN.test(folded.text[before]) && folded.end[before] >= folded.start[first]) return false;
  const after = last + 1;
  if (after < folded.text.length && LATIN.test(folded.text[after]) && folded.start[after] <= folded.end[last]) return false;
  return true;
}
