import DOMPurify from 'dompurify';
import { useMemo } from 'react';

/** Rich-editor HTML shown sanitised again on the client: no scripts, no event attributes. */
export default function HtmlView({ html, className }: { html: string | null | undefined; className?: string }) {
  const clean = useMemo(() => DOMPurify.sanitize(html ?? ''), [html]);
  // biome-ignore lint/security/noDangerouslySetInnerHtml: the HTML was sanitised by DOMPurify just above (and by the server on write).
  return <div className={className} dangerouslySetInnerHTML={{ __html: clean }} />;
}
