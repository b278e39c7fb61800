import sanitize from 'sanitize-html';
import { FIELD_LABELS } from '../../../contract/fields';
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

/** Sanitised HTML for a required field; content that was nothing but unsafe markup is refused. */
export function requiredHtml(field: string, html: string): string {
  const clean = sanitizeHtml(html);
  if (!clean) throw badRequest(`${FIELD_LABELS[field] ?? field}（${field}）不能为空`);
  return clean;
}
