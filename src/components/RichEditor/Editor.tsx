import {
  BoldOutlined,
  CodeFilled,
  CodeOutlined,
  ItalicOutlined,
  LinkOutlined,
  OrderedListOutlined,
  PictureOutlined,
  RedoOutlined,
  StrikethroughOutlined,
  UndoOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import Image from '@tiptap/extension-image';
import { Placeholder } from '@tiptap/extensions';
import { type Editor as TiptapEditor, EditorContent, useEditor, useEditorState } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { Button, Input, Popover, Space, Tooltip } from 'antd';
import { type ChangeEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { imageRefusal, UPLOAD_TYPES, uploadImage } from '@/services/upload';
import { message } from '@/utils/feedback';
import styles from './Editor.less';
import type { RichEditorProps } from './types';

/** An empty document is '' so that a required rule sees it as empty, not as '<p></p>'. */
const htmlOf = (editor: TiptapEditor) => (editor.isEmpty ? '' : editor.getHTML());

interface ToolProps {
  title: string;
  /** The accessible name when the button shows text of its own, which the name must contain. */
  label?: string;
  icon: ReactNode;
  active?: boolean;
  disabled?: boolean;
  loading?: boolean;
  onClick?: () => void;
}

function Tool({ title, label, icon, active, disabled, loading, onClick }: ToolProps) {
  return (
    <Tooltip title={title} mouseEnterDelay={0.5}>
      <Button
        type={active ? 'primary' : 'text'}
        ghost={active}
        size="small"
        aria-label={label ?? title}
        aria-pressed={active}
        icon={icon}
        disabled={disabled}
        loading={loading}
        // Keeps the editor's selection: a click on the toolbar must not blur the text first.
        onMouseDown={(event) => event.preventDefault()}
        onClick={onClick}
      />
    </Tooltip>
  );
}

const Divider = () => <span className={styles.divider} aria-hidden />;

function LinkTool({ editor, active }: { editor: TiptapEditor; active: boolean }) {
  const [open, setOpen] = useState(false);
  const [href, setHref] = useState('');

  const show = (next: boolean) => {
    if (next) setHref((editor.getAttributes('link').href as string | undefined) ?? '');
    setOpen(next);
  };

  const apply = () => {
    const chain = editor.chain().focus().extendMarkRange('link');
    const url = href.trim();
    if (url) chain.setLink({ href: url }).run();
    else chain.unsetLink().run();
    setOpen(false);
  };

  return (
    <Popover
      open={open}
      onOpenChange={show}
      trigger="click"
      content={
        <Space.Compact>
          <Input
            aria-label="链接地址"
            placeholder="https://"
            value={href}
            onChange={(event) => setHref(event.target.value)}
            onPressEnter={apply}
            style={{ width: 260 }}
            autoFocus
          />
          <Button type="primary" onClick={apply}>
            确定
          </Button>
        </Space.Compact>
      }
    >
      <span>
        <Tool title="链接" icon={<LinkOutlined />} active={active} />
      </span>
    </Popover>
  );
}

/** The tiptap editor behind RichEditor; loaded lazily by it. */
export default function Editor({ value, onChange, placeholder, label }: RichEditorProps) {
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  // The HTML this editor last reported or was given: a `value` equal to it is our own echo.
  const known = useRef(value ?? '');
  const fileInput = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);

  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        link: { openOnClick: false, autolink: true, defaultProtocol: 'https' },
      }),
      Image,
      Placeholder.configure({ placeholder: placeholder ?? '' }),
    ],
    content: value ?? '',
    editorProps: { attributes: { 'aria-label': label ?? placeholder ?? '' } },
    onUpdate: ({ editor: current }) => {
      const html = htmlOf(current);
      known.current = html;
      onChangeRef.current?.(html);
    },
  });

  // A form that loads its record after mounting sets a new value: show it without reporting it
  // back as a change.
  useEffect(() => {
    const next = value ?? '';
    if (next === known.current) return;
    known.current = next;
    editor.commands.setContent(next, { emitUpdate: false });
  }, [editor, value]);

  const state = useEditorState({
    editor,
    selector: ({ editor: current }) => ({
      bold: current.isActive('bold'),
      italic: current.isActive('italic'),
      strike: current.isActive('strike'),
      h1: current.isActive('heading', { level: 1 }),
      h2: current.isActive('heading', { level: 2 }),
      h3: current.isActive('heading', { level: 3 }),
      bulletList: current.isActive('bulletList'),
      orderedList: current.isActive('orderedList'),
      blockquote: current.isActive('blockquote'),
      code: current.isActive('code'),
      codeBlock: current.isActive('codeBlock'),
      link: current.isActive('link'),
      canUndo: current.can().undo(),
      canRedo: current.can().redo(),
    }),
  });

  const chain = () => editor.chain().focus();

  const insertImage = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // The same file chosen twice in a row must fire change again.
    event.target.value = '';
    if (!file) return;
    const refusal = imageRefusal(file);
    if (refusal) {
      message.error(refusal);
      return;
    }
    setUploading(true);
    try {
      const src = await uploadImage(file);
      editor.chain().focus().setImage({ src, alt: file.name }).run();
    } catch {
      // The request's error handler has shown the server's reason.
    } finally {
      setUploading(false);
    }
  };

  const heading = (level: 1 | 2 | 3) => (
    <Tool
      title={`标题 ${level}`}
      label={`H${level} 标题 ${level}`}
      icon={<span style={{ fontWeight: 600 }}>H{level}</span>}
      active={state[`h${level}`]}
      onClick={() => chain().toggleHeading({ level }).run()}
    />
  );

  return (
    <div className={styles.frame}>
      <div className={styles.toolbar} role="toolbar" aria-label="编辑工具">
        <Tool title="加粗" icon={<BoldOutlined />} active={state.bold} onClick={() => chain().toggleBold().run()} />
        <Tool title="斜体" icon={<ItalicOutlined />} active={state.italic} onClick={() => chain().toggleItalic().run()} />
        <Tool title="删除线" icon={<StrikethroughOutlined />} active={state.strike} onClick={() => chain().toggleStrike().run()} />
        <Divider />
        {heading(1)}
        {heading(2)}
        {heading(3)}
        <Divider />
        <Tool
          title="无序列表"
          icon={<UnorderedListOutlined />}
          active={state.bulletList}
          onClick={() => chain().toggleBulletList().run()}
        />
        <Tool
          title="有序列表"
          icon={<OrderedListOutlined />}
          active={state.orderedList}
          onClick={() => chain().toggleOrderedList().run()}
        />
        <Tool
          title="引用"
          icon={<span style={{ fontWeight: 600 }}>“</span>}
          active={state.blockquote}
          onClick={() => chain().toggleBlockquote().run()}
        />
        <Divider />
        <Tool title="行内代码" icon={<CodeOutlined />} active={state.code} onClick={() => chain().toggleCode().run()} />
        <Tool title="代码块" icon={<CodeFilled />} active={state.codeBlock} onClick={() => chain().toggleCodeBlock().run()} />
        <LinkTool editor={editor} active={state.link} />
        <Tool title="插入图片" icon={<PictureOutlined />} loading={uploading} onClick={() => fileInput.current?.click()} />
        <input ref={fileInput} type="file" aria-label="选择图片" accept={UPLOAD_TYPES.join(',')} hidden onChange={insertImage} />
        <Divider />
        <Tool title="撤销" icon={<UndoOutlined />} disabled={!state.canUndo} onClick={() => chain().undo().run()} />
        <Tool title="重做" icon={<RedoOutlined />} disabled={!state.canRedo} onClick={() => chain().redo().run()} />
      </div>
      <EditorContent editor={editor} className={styles.content} />
    </div>
  );
}
