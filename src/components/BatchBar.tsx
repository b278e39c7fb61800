import type { ProTableProps } from '@ant-design/pro-components';
import { Button, type CheckboxProps, Popconfirm, Space } from 'antd';
import type { Key } from 'react';
import { batch, type BatchAction, type BatchResource } from '@/services/audit';
import { message } from '@/utils/feedback';

export interface BatchActionSpec {
  action: BatchAction;
  /** The verb, as in 「确定要删除选中的 3 条记录吗？」. */
  label: string;
  danger?: boolean;
}

interface BatchOptions {
  resource: BatchResource;
  actions: BatchActionSpec[];
  /** Runs after an action succeeded, e.g. a server-paged table reloading its page. */
  onDone: () => unknown;
}

const ROW_CHECKBOX = { 'aria-label': '选择此行' } as unknown as CheckboxProps;

type SelectionProps<T> = Pick<ProTableProps<T, Record<string, unknown>>, 'rowSelection' | 'tableAlertRender' | 'tableAlertOptionRender'>;

/**
 * Row selection for a list and the bar above it: how many rows are selected, and the bulk
 * actions, each behind a confirmation that names the count. The server does all of them or none.
 */
export function batchSelection<T>({ resource, actions, onDone }: BatchOptions): SelectionProps<T> {
  const run = async (spec: BatchActionSpec, keys: Key[], clear: () => void) => {
    try {
      const { done } = await batch(resource, spec.action, keys.map(String));
      message.success(`已${spec.label} ${done} 条记录`);
      clear();
      await onDone();
    } catch {
      // Shown by the request layer; the selection stays for another try.
    }
  };
  return {
    rowSelection: {
      preserveSelectedRowKeys: false,
      // antd's row checkboxes have no name of their own: a screen reader (and axe) needs one. The
      // props reach the <input> (rc-checkbox passes the rest on), though antd's type omits aria-*.
      getCheckboxProps: () => ROW_CHECKBOX,
    },
    tableAlertRender: ({ selectedRowKeys }) => <span>已选择 {selectedRowKeys.length} 项</span>,
    tableAlertOptionRender: ({ selectedRowKeys, onCleanSelected }) => (
      <Space>
        {actions.map((spec) => (
          <Popconfirm
            key={spec.action}
            title={`确定要${spec.label}选中的 ${selectedRowKeys.length} 条记录吗？`}
            okText={spec.label}
            cancelText="取消"
            onConfirm={() => run(spec, selectedRowKeys, onCleanSelected)}
          >
            <Button size="small" danger={spec.danger}>
              批量{spec.label}
            </Button>
          </Popconfirm>
        ))}
        <a onClick={onCleanSelected}>取消选择</a>
      </Space>
    ),
  };
}
