import { Button, Modal, Table } from 'antd';
import { formatDate } from '@/utils/format';
import { fieldLabel } from '#contract/labels';
import type { ConflictChange, VersionConflict } from '#contract/version';

interface ConflictDialogProps {
  /** The 409 VERSION_CONFLICT's `conflict`; the dialog is open while there is one. */
  conflict: VersionConflict | undefined;
  /** What this admin tried to save, by field. */
  mine: Record<string, unknown>;
  /** 重新载入: drop what was typed and load the record as it is now. */
  onReload: () => void;
  /** 仍然保存: overwrite on purpose, sending the same change against the current version. */
  onOverwrite: () => void;
  onCancel: () => void;
}

function shown(value: unknown): string {
  if (value === undefined) return '（未修改）';
  if (value === null || value === '') return '（空）';
  if (typeof value === 'boolean') return value ? '是' : '否';
  const text = typeof value === 'string' ? value.replace(/<[^>]*>/g, '') : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

/**
 * What a one-click edit (a switch) says on 409 VERSION_CONFLICT, once the screen reloaded the record:
 * a switch has no form to keep, so a dialog would only ask the same question twice.
 */
export function staleSwitchMessage(conflict: VersionConflict | undefined, what: string): string {
  const last = conflict?.changes.at(-1);
  const who = last ? `${last.by}（${formatDate(last.at)}）` : '其他管理员';
  return `${what}已被 ${who}修改，已载入最新状态，请确认后再操作`;
}

/**
 * Someone saved the record after this edit started: their changes beside mine, field by field,
 * and the choice to reload or to overwrite on purpose. Nothing was saved yet.
 */
export default function ConflictDialog({ conflict, mine, onReload, onOverwrite, onCancel }: ConflictDialogProps) {
  const rows = (conflict?.changes ?? []).map((change: ConflictChange, index) => ({ key: index, ...change }));
  return (
    <Modal
      open={conflict !== undefined}
      title="记录已被其他管理员修改"
      onCancel={onCancel}
      width={720}
      footer={[
        <Button key="cancel" onClick={onCancel}>
          取消
        </Button>,
        <Button key="reload" onClick={onReload}>
          重新载入
        </Button>,
        <Button key="overwrite" type="primary" danger onClick={onOverwrite}>
          仍然保存
        </Button>,
      ]}
    >
      <p>
        在你编辑期间，这条记录已被修改（版本 {conflict?.yourVersion} → {conflict?.currentVersion}），你的修改尚未保存。
      </p>
      <Table
        size="small"
        pagination={false}
        dataSource={rows}
        locale={{ emptyText: '记录的版本已变化' }}
        scroll={{ x: true }}
        columns={[
          // A field's name in one line: on a phone the column would otherwise break it character by character.
          {
            title: '字段',
            dataIndex: 'field',
            onHeaderCell: () => ({ style: { whiteSpace: 'nowrap' } }),
            onCell: () => ({ style: { whiteSpace: 'nowrap' } }),
            render: (field: string) => fieldLabel(field),
          },
          { title: '对方的修改', render: (_, change) => (change.note ? change.note : shown(change.after)) },
          { title: '修改人', render: (_, change) => `${change.by}（${formatDate(change.at)}）` },
          { title: '我的修改', render: (_, change) => shown(mine[change.field]) },
        ]}
      />
    </Modal>
  );
}
