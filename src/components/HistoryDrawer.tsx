import { HistoryOutlined } from '@ant-design/icons';
import { Button, Drawer, Empty, Skeleton, Space, Tag, Timeline, Typography } from 'antd';
import { useCallback, useState } from 'react';
import { alreadyShown } from '@/services/api';
import { recordHistory, revertAudit } from '@/services/audit';
import type { AuditChange, AuditEntity, AuditEntry } from '#contract/audit';
import { changeLines, changeText, type ValueTextOptions } from '#contract/labels';
import { message } from '@/utils/feedback';
import { formatDate, plainExcerpt } from '@/utils/format';
import { ConfirmAction, RowAction } from './RowAction';

/** Values as the screens read them: dates in the installation's zone, HTML as its text, cut. */
const VALUE_TEXT: ValueTextOptions = { date: formatDate, html: (html) => plainExcerpt(html, 40) };

/** One changed field: 「昵称：甲 → 乙」 (an id by its name), or its note (「密码已修改」). */
export function ChangeLine({ change }: { change: AuditChange }) {
  return <div>{changeText(change, VALUE_TEXT)}</div>;
}

/** What an entry changed, one line a field; an export as one sentence (「导出 30 行（筛选：分类=JavaScript）」). */
export function EntryChanges({ entry }: { entry: Pick<AuditEntry, 'action' | 'changes'> }) {
  const lines = changeLines(entry.action, entry.changes, VALUE_TEXT);
  return (
    <>
      {lines.map((line, index) => (
        // Lines are positional: the same field may appear once only, but texts may repeat.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above.
        <div key={index}>{line}</div>
      ))}
    </>
  );
}

interface HistoryButtonProps {
  entity: AuditEntity;
  id: string;
  /** Called after 撤销此修改 succeeded: the page shows the record as it now is. */
  onReverted?: () => unknown;
  /** A link, for a table row's actions, rather than a button. */
  link?: boolean;
  /** The link's text (default 历史): the audit log names the record it opens. */
  label?: string;
}

/** 历史: opens a drawer with the record's history, newest first, and 撤销此修改 on changes. */
export default function HistoryButton({ entity, id, onReverted, link, label }: HistoryButtonProps) {
  const [open, setOpen] = useState(false);
  const [entries, setEntries] = useState<AuditEntry[] | null>(null);

  const load = useCallback(() => {
    setEntries(null);
    recordHistory(entity, id).then(setEntries, (error: unknown) => {
      setEntries([]);
      alreadyShown(error);
    });
  }, [entity, id]);

  const show = () => {
    setOpen(true);
    load();
  };

  const revert = async (entry: AuditEntry) => {
    try {
      setEntries(await revertAudit(entry._id));
    } catch {
      // Shown by the request layer (a 409 says what changed since).
      return;
    }
    message.success('已撤销此修改');
    await onReverted?.();
  };

  return (
    <>
      {link ? (
        <RowAction onClick={show}>{label ?? '历史'}</RowAction>
      ) : (
        <Button icon={<HistoryOutlined />} onClick={show}>
          历史
        </Button>
      )}
      <Drawer title="修改历史" width={520} open={open} onClose={() => setOpen(false)} destroyOnHidden>
        {entries === null ? (
          <Skeleton active />
        ) : entries.length === 0 ? (
          <Empty description="暂无记录" />
        ) : (
          <Timeline
            items={entries.map((entry) => ({
              key: entry._id,
              children: (
                <div data-testid="history-entry">
                  <Space wrap>
                    <Typography.Text type="secondary">{formatDate(entry.at)}</Typography.Text>
                    <Tag>{entry.action}</Tag>
                    <span>{entry.adminLoginId}</span>
                  </Space>
                  <EntryChanges entry={entry} />
                  {entry.revertible && (
                    <ConfirmAction
                      label="撤销此修改"
                      title="确定要撤销此修改，把这些字段改回修改前的值吗？"
                      okText="撤销"
                      onConfirm={() => revert(entry)}
                    />
                  )}
                </div>
              ),
            }))}
          />
        )}
      </Drawer>
    </>
  );
}
