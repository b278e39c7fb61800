import { Button, Space } from 'antd';
import type { Key } from 'react';
import { batch, type BatchAction, type BatchResource } from '@/services/audit';
import { message } from '@/utils/feedback';
import { ConfirmAction } from './RowAction';

export interface BatchActionSpec {
  action: BatchAction;
  /** The verb, as in 「确定要删除选中的 3 条记录吗？」. */
  label: string;
  danger?: boolean;
}

export interface BatchOptions {
  resource: BatchResource;
  actions: BatchActionSpec[];
}

interface BatchBarProps extends BatchOptions {
  /** The ticked rows: only ever rows the table shows (useListTable clears the rest). */
  selectedKeys: Key[];
  onClear: () => void;
  /** Runs after an action succeeded, e.g. a server-paged table reloading its page. */
  onDone: () => unknown;
}

/**
 * How many rows are ticked and the bulk actions, each behind a confirmation that names the count.
 * The server does all of them or none; a refusal keeps the selection for another try.
 */
export function BatchBar({ resource, actions, selectedKeys, onClear, onDone }: BatchBarProps) {
  const run = async (spec: BatchActionSpec) => {
    try {
      const { done } = await batch(resource, spec.action, selectedKeys.map(String));
      message.success(`已${spec.label} ${done} 条记录`);
      onClear();
      await onDone();
    } catch {
      // Shown by the request layer.
    }
  };
  return (
    <Space wrap aria-label="批量操作" role="group">
      <span>已选择 {selectedKeys.length} 项</span>
      {actions.map((spec) => (
        <ConfirmAction
          key={spec.action}
          label={`批量${spec.label}`}
          buttonType="default"
          danger={spec.danger}
          title={`确定要${spec.label}选中的 ${selectedKeys.length} 条记录吗？`}
          okText={spec.label}
          onConfirm={() => run(spec)}
        />
      ))}
      <Button size="small" type="link" onClick={onClear}>
        取消选择
      </Button>
    </Space>
  );
}
