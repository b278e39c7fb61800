import { call, type Answer } from './client';
import { sleep } from './server-process';

export interface Sample {
  sentAt: number;
  what: string;
  /** The answer, or why there was none (refused, reset, timed out). */
  answer: Answer | { error: string };
}

/** Workers that keep reading and writing until stopped, recording every outcome. */
export function load(baseUrl: string, token: string, typeId: string, workers = 8) {
  const samples: Sample[] = [];
  let running = true;
  let n = 0;
  const book = () => ({ bookTitle: `重启中 ${n}`, downloadLink: 'https://example.com/b', bookIntro: '<p>x</p>', requirePoints: 0, typeId });
  const requests: Array<[string, string, () => unknown]> = [
    ['list types', '/api/type', () => undefined],
    ['list users', '/api/user?pageSize=20&nickname=%E7%94%A8', () => undefined],
    ['create book', '/api/book', book],
    ['list books', `/api/book?typeId=${typeId}`, () => undefined],
    // Writes run in transactions: a connection lost between two of their statements is the hard case.
    ['create book', '/api/book', book],
  ];
  const loops = Array.from({ length: workers }, async () => {
    while (running) {
      const [what, url, body] = requests[n++ % requests.length];
      const payload = body();
      const sentAt = Date.now();
      try {
        const answer = await call(baseUrl, payload ? 'POST' : 'GET', url, { token, body: payload, timeoutMs: 10_000 });
        samples.push({ sentAt, what, answer });
      } catch (error) {
        samples.push({ sentAt, what, answer: { error: String((error as Error).cause ?? error) } });
      }
      await sleep(20);
    }
  });
  return {
    samples,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

export const describeSample = (s: Sample) =>
  `${s.what} sent at ${s.sentAt}: ${'error' in s.answer ? s.answer.error : `${s.answer.status} in ${Math.round(s.answer.ms)} ms ${JSON.stringify(s.answer.body).slice(0, 120)}`}`;
