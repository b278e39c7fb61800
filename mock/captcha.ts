/**
 * GET /res/captcha for `npm run dev:mock`: an SVG whose text is always 「TEST」 (CAPTCHA_TEXT in
 * mock/lib/store.ts); the mock login accepts it in any case.
 */
import { defineMock } from '@umijs/max';
import { CAPTCHA_TEXT } from './lib/store';

const COLOURS = ['#1677ff', '#d4380d', '#389e0d', '#722ed1'];

function captchaSvg(): string {
  const letters = [...CAPTCHA_TEXT]
    .map((letter, i) => {
      const x = 18 + i * 26;
      const angle = (i % 2 === 0 ? -1 : 1) * (6 + i * 3);
      return `<text x="${x}" y="29" fill="${COLOURS[i % COLOURS.length]}" font-size="24" font-family="Verdana, sans-serif" font-weight="bold" transform="rotate(${angle} ${x + 8} 20)">${letter}</text>`;
    })
    .join('');
  const noise = [
    '<path d="M4 30 C 30 5, 70 38, 116 12" stroke="#91caff" stroke-width="1.5" fill="none"/>',
    '<path d="M2 12 C 40 30, 80 2, 118 28" stroke="#ffbb96" stroke-width="1.5" fill="none"/>',
  ].join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40" viewBox="0 0 120 40"><rect width="120" height="40" fill="#f5f7fa"/>${noise}${letters}</svg>`;
}

export default defineMock({
  'GET /res/captcha': (_req, res) => {
    res.setHeader('Content-Type', 'image/svg+xml; charset=utf-8');
    res.setHeader('Cache-Control', 'no-store');
    res.status(200).send(captchaSvg());
  },
});
