import dayjs from 'dayjs';

/** Every date on screen: `YYYY-MM-DD HH:mm:ss`; nothing for a missing one. */
export function formatDate(ms: number | null | undefined): string {
  return ms === null || ms === undefined ? '-' : dayjs(ms).format('YYYY-MM-DD HH:mm:ss');
}

/** Visible text of rich-editor HTML, without tags, cut to `max` characters with an ellipsis. */
export function plainExcerpt(html: string | null | undefined, max: number): string {
  // DOMParser runs no scripts; their text and that of styles is not visible, so it goes.
  const doc = new DOMParser().parseFromString(html ?? '', 'text/html');
  for (const node of doc.querySelectorAll('script, style, noscript, template')) node.remove();
  const text = (doc.body.textContent ?? '').replace(/\s+/g, ' ').trim();
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

/** A title cut to `max` characters with an ellipsis. */
export function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}...` : text;
}
