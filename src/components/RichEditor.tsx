import { Spin } from 'antd';
import { lazy, Suspense } from 'react';
import styles from './RichEditor/Editor.less';
import type { RichEditorProps } from './RichEditor/types';

export type { RichEditorProps } from './RichEditor/types';

// tiptap and ProseMirror are large: they load with the first form that shows an editor, never
// with /login or the list pages.
const Editor = lazy(() => import(/* webpackChunkName: "rich-editor" */ './RichEditor/Editor'));

/** A form field control editing HTML (docs/api.md "HTML content"). */
export default function RichEditor(props: RichEditorProps) {
  return (
    <Suspense
      fallback={
        <div className={`${styles.frame} ${styles.loading}`}>
          <Spin />
        </div>
      }
    >
      <Editor {...props} />
    </Suspense>
  );
}
