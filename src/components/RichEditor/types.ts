export interface RichEditorProps {
  /** HTML; an empty document is ''. */
  value?: string;
  onChange?: (html: string) => void;
  placeholder?: string;
  /** The field's name for assistive technology (a form label cannot point at an editable div). */
  label?: string;
}
