import sanitize from 'sanitize-html';
import { FIELD_LABELS } from '#contract/fields';
import { badRequest } from './errors';

const TEXT_ALIGN = { 'text-align': [/^(left|right|center|justify)$/] };
const ALIGNABLE = ['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'li', 'th', 'td', 'blockquote'];

// Images may come from the web, from this site's uploads, or inline as a raster data URL; an SVG
// data URL could carry script, so it is not among them.
const IMAGE_SRC = /^(https?:\/\/|\/static\/|data:image\/(png|jpeg|gif|webp);base64,)/i;
const LINK_HREF = /^(https?:|mailto:)/i;
const LINK_REL = 'noopener noreferrer nofollow';

/** What a rich editor produces, and nothing that can run: the allow-list for stored HTML. */
const OPTIONS: sanitize.IOptions = {
  allowedTags: [
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'p',
    'br',
    'hr',
    'blockquote',
    'pre',
    'code',
    'ul',
    'ol',
    'li',
    'table',
    'caption',
    'thead',
    'tbody',
    'tfoot',
    'tr',
    'th',
    'td',
    'a',
    'img',
    'b',
    'i',
    'u',
    's',
    'del',
    'strong',
    'em',
    'span',
  ],
  allowedAttributes: {
    ...Object.fromEntries(ALIGNABLE.map((tag) => [tag, ['style']])),
    th: ['colspan', 'rowspan', 'style'],
    td: ['colspan', 'rowspan', 'style'],
    a: ['href', 'title', 'target', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    pre: ['class'],
    code: ['class'],
    ol: ['start'],
  },
  allowedClasses: { pre: [/^language-[\w-]+$/], code: [/^language-[\w-]+$/] },
  allowedStyles: Object.fromEntries(ALIGNABLE.map((tag) => [tag, TEXT_ALIGN])),
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https', 'data'] },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: {
    a: (tagName, attribs) => {
      const { href, title } = attribs;
      return {
        tagName,
        attribs: {
          ...(href && LINK_HREF.test(href.trim()) && { href }),
          ...(title && { title }),
          ...(attribs.target === '_blank' && { target: '_blank' }),
          rel: LINK_REL,
        },
      };
    },
  },
  // An image whose source was refused (or never allowed) is dropped whole.
  exclusiveFilter: (frame) => frame.tag === 'img' && !IMAGE_SRC.test(frame.attribs.src?.trim() ?? ''),
};

/** Cleans HTML from a rich editor before it is stored: no scripts, event attributes or unsafe URLs. */
export function sanitizeHtml(html: string): string {
  return sanitize(html, OPTIONS).trim();
}

type Element = { name: string; attribs: Record<string, string> };

// Void elements are written without content or end tag when one is checked on its own.
const VOID = new Set(['br', 'hr', 'img', 'input', 'meta', 'link', 'area', 'base', 'col', 'embed', 'source', 'track', 'wbr', 'param']);
const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
const shown = (value: string) => (value.length > 60 ? `${value.slice(0, 57)}…` : value);
// Equal style or class values written differently (spaces, a final semicolon, order) mean the same.
const normalised = (name: string, value: string) =>
  name === 'class'
    ? value.split(/\s+/).filter(Boolean).sort().join(' ')
    : name === 'style'
      ? value.replace(/\s+/g, '').replace(/;$/, '').toLowerCase()
      : value;

/** The elements of `html` as the sanitiser's parser reads them, nothing removed. */
function elements(html: string): Element[] {
  const found: Element[] = [];
  // Read only, never shown: script and style may pass. The sanitiser edits `attribs` after the hook.
  const everything = { allowedTags: false as const, allowedAttributes: false as const, allowVulnerableTags: true };
  sanitize(html, { ...everything, onOpenTag: (name, attribs) => found.push({ name, attribs: { ...attribs } }) });
  return found;
}

/** What the allow-list takes from one element, checked on its own: the tag, attributes, a link. */
function removedFrom({ name, attribs }: Element): string[] {
  const attributes = Object.entries(attribs)
    .map(([key, value]) => ` ${key}="${escapeAttribute(value)}"`)
    .join('');
  const kept = elements(sanitize(`<${name}${attributes}>${VOID.has(name) ? '' : `</${name}>`}`, OPTIONS))[0];
  if (!kept || kept.name !== name) return name === 'img' ? [`图片 ${shown(attribs.src ?? '')}`] : [`<${name}> 标签`];
  const removed: string[] = [];
  for (const [key, value] of Object.entries(attribs)) {
    // rel is rewritten to noopener noreferrer nofollow on every link: it only adds safety.
    if (name === 'a' && key === 'rel') continue;
    if (kept.attribs[key] !== undefined && normalised(key, kept.attribs[key]) === normalised(key, value)) continue;
    removed.push(name === 'a' && key === 'href' ? `链接 ${shown(value)}` : `<${name}> 的 ${key} 属性`);
  }
  return removed;
}

/**
 * Sanitises like sanitizeHtml and says what the allow-list removed or changed (tags, attributes,
 * links), for the import report. Re-serialisation alone (`<br>` → `<br />`, entities, attribute
 * quotes) removes nothing and yields an empty list.
 */
export function sanitizeHtmlExplained(html: string): { clean: string; removed: string[] } {
  const clean = sanitizeHtml(html);
  if (clean === html.trim()) return { clean, removed: [] };
  const removed = new Set<string>();
  for (const element of elements(html)) for (const what of removedFrom(element)) removed.add(what);
  return { clean, removed: [...removed] };
}

// Characters that show nothing: white space (no-break space included) and the default-ignorable
// code points (zero-width space and joiners, soft hyphen, variation selectors, …).
const SHOWS_SOMETHING = /[^\s\p{Default_Ignorable_Code_Point}]/u;

/** Whether sanitised HTML shows anything: a visible character or an image (`<p><br></p>` shows nothing). */
export function showsSomething(clean: string): boolean {
  let shows = false;
  // Read only, never shown: the HTML was sanitised already.
  sanitize(clean, {
    allowedTags: false,
    allowedAttributes: false,
    allowVulnerableTags: true,
    textFilter: (text) => {
      if (SHOWS_SOMETHING.test(text)) shows = true;
      return text;
    },
    onOpenTag: (name) => {
      if (name === 'img') shows = true;
    },
  });
  return shows;
}

/**
 * Sanitised HTML for a required field. Content that shows nothing is refused as empty: nothing but
 * unsafe markup, an editor's empty paragraph, white space or invisible characters.
 */
export function requiredHtml(field: string, html: string): string {
  const clean = sanitizeHtml(html);
  if (!clean || !showsSomething(clean)) throw badRequest(`${FIELD_LABELS[field] ?? field}（${field}）不能为空`);
  return clean;
}

/** A short plain-text title for content that is HTML (a comment's, in the audit log). */
export function plainTitle(html: string, max = 40): string {
  const text = html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
