import type { Rule } from 'antd/es/form';

/**
 * An editor left empty, or holding only blanks, still has markup such as `<p></p>` or `<p> </p>`,
 * which a plain `required` rule takes as given: the content counts when it shows some text or an image.
 */
export function hasVisibleContent(html: string | undefined): boolean {
  const doc = new DOMParser().parseFromString(html ?? '', 'text/html');
  return (doc.body.textContent ?? '').trim() !== '' || doc.body.querySelector('img') !== null;
}

/** The required rule of a RichEditor field; it lives apart from the editor, which loads lazily. */
export function richTextRequired(message: string): Rule {
  return {
    async validator(_, value: string | undefined) {
      if (!hasVisibleContent(value)) throw new Error(message);
    },
  };
}
