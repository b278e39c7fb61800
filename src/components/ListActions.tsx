import { PlusOutlined } from '@ant-design/icons';
import { history } from '@umijs/max';
import { Button, Popconfirm, type PopconfirmProps } from 'antd';
import type { ReactNode } from 'react';
import { message } from '@/utils/feedback';

interface DeleteActionProps extends Omit<PopconfirmProps, 'onConfirm' | 'okText' | 'cancelText' | 'children'> {
  /** Deletes the record; a refusal rejects, once the request layer has shown it. */
  remove: () => Promise<unknown>;
  /** Said once the record is gone. */
  done: string;
  /** Runs after `done`, e.g. a server-paged table reloading its page. */
  onDeleted?: () => unknown;
}

/** 删除 behind a confirmation; the confirmation's button spins until the call is over. */
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
  return (
    <Popconfirm okText="删除" cancelText="取消" {...confirm} onConfirm={onConfirm}>
      <a>删除</a>
    </Popconfirm>
  );
}

/** A list's toolbar button to its add page. */
export function AddButton({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Button type="primary" icon={<PlusOutlined />} onClick={() => history.push(to)}>
      {children}
    </Button>
  );
}
