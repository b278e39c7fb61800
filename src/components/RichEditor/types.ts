export interface RichEditorProps {
  /** HTML; an empty document is ''. */
  value?: string;
  onChange?: (html: string) => void;
  placeholder?: string;
}
