import { Button, type ButtonProps, Popconfirm, type PopconfirmProps } from 'antd';
import { forwardRef, useEffect, useRef, useState } from 'react';

/**
 * A table row's action (详情, 编辑, 删除, …): a real button drawn as a link, so Tab reaches it and
 * Enter or Space presses it, which an `<a>` without href does not. Its text is its name.
 */
export const RowAction = forwardRef<HTMLButtonElement, ButtonProps>(function RowAction(props, ref) {
  return <Button ref={ref} type="link" size="small" {...props} />;
});

interface ConfirmActionProps extends Omit<PopconfirmProps, 'children' | 'open'> {
  /** The action's visible name, its accessible name too. */
  label: string;
  danger?: boolean;
  /** The action is running: the button is disabled until it is over. */
  busy?: boolean;
  /**
   * Where the keyboard lands when the confirmation opens: its OK button (取消 while that is still
   * disabled), or 取消 where a slip cannot be undone.
   */
  focus?: 'ok' | 'cancel';
  /** The trigger's look: a link in a row (default), a plain button in a toolbar such as the bulk bar. */
  buttonType?: ButtonProps['type'];
}

/**
 * A row action behind a Popconfirm, usable from the keyboard alone: opening the confirmation puts
 * the focus on one of its buttons (antd leaves it on the trigger, out of the popup's reach),
 * Escape closes it from inside, and closing it gives the focus back to the action.
 */
export function ConfirmAction({
  label,
  danger,
  busy,
  focus = 'ok',
  buttonType = 'link',
  okButtonProps,
  cancelButtonProps,
  onConfirm,
  onCancel,
  onOpenChange,
  ...confirm
}: ConfirmActionProps) {
  const [open, setOpen] = useState(false);
  const focusOk = focus === 'ok' && !okButtonProps?.disabled;
  const trigger = useRef<HTMLButtonElement>(null);

  const close = () => {
    setOpen(false);
    // After a confirmed deletion the row, and with it the trigger, may be gone: nothing to return to then.
    if (trigger.current?.isConnected) trigger.current.focus();
  };

  useEffect(() => {
    if (!open) return;
    // The Popconfirm reacts to Escape only on its trigger, and the focus is inside the popup now.
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') close();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  });

  return (
    <Popconfirm
      okText={label}
      cancelText="取消"
      {...confirm}
      open={open}
      onOpenChange={(next, event) => {
        setOpen(next);
        onOpenChange?.(next, event);
      }}
      // Rendered afresh on each opening, so that autoFocus puts the focus in it every time.
      destroyOnHidden
      okButtonProps={{ autoFocus: focusOk, ...okButtonProps }}
      cancelButtonProps={{ autoFocus: !focusOk, ...cancelButtonProps }}
      onConfirm={async (event) => {
        await onConfirm?.(event);
        close();
      }}
      onCancel={(event) => {
        onCancel?.(event);
        close();
      }}
    >
      <RowAction ref={trigger} type={buttonType} danger={danger} disabled={busy}>
        {label}
      </RowAction>
    </Popconfirm>
  );
}
