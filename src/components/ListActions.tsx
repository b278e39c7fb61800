import { PlusOutlined } from '@ant-design/icons';
import { history } from '@umijs/max';
import { Button, type PopconfirmProps } from 'antd';
import type { ReactNode } from 'react';
import { message } from '@/utils/feedback';
import { ConfirmAction } from './RowAction';

interface DeleteActionProps extends Pick<PopconfirmProps, 'title' | 'description' | 'okButtonProps' | 'onOpenChange'> {
  /** Deletes the record; a refusal rejects, once the request layer has shown it. */
  remove: () => Promise<unknown>;
  /** Said once the record is gone. */
  done: string;
  /** Runs after `done`, e.g. a server-paged table reloading its page. */
  onDeleted?: () => unknown;
}

/**
 * 删除 behind a confirmation; the confirmation's button spins until the call is over. The focus
 * opens on that button, as it does in antd's Modal.confirm.
 */
export function DeleteAction({ remove, done, onDeleted, ...confirm }: DeleteActionProps) {
  const onConfirm = async () => {
    try {
      await remove();
      message.success(done);
      await onDeleted?.();
    } catch {
      // The global error handler has shown the server's message.
    }
  };
  return <ConfirmAction label="删除" danger {...confirm} onConfirm={onConfirm} />;
}

/** A list's toolbar button to its add page. */
export function AddButton({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Button type="primary" icon={<PlusOutlined />} onClick={() => history.push(to)}>
      {children}
    </Button>
  );
}
