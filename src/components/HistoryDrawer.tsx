import { HistoryOutlined } from '@ant-design/icons';
import { Button, Drawer, Empty, Skeleton, Space, Tag, Timeline, Typography } from 'antd';
import { useCallback, useState } from 'react';
import { alreadyShown } from '@/services/api';
import { recordHistory, revertAudit } from '@/services/audit';
import type { AuditChange, AuditEntity, AuditEntry } from '../../contract/audit';
import { message } from '@/utils/feedback';
import { formatDate, plainExcerpt } from '@/utils/format';
import { ConfirmAction, RowAction } from './RowAction';

/** The names the screens give the fields an entry lists. */
const FIELD_NAMES: Record<string, string> = {
  loginId: '账号',
  nickname: '昵称',
  avatar: '头像',
  mail: '邮箱',
  qq: 'QQ',
  wechat: '微信',
  intro: '个人简介',
  points: '积分',
  enabled: '状态',
  permission: '权限',
  password: '密码',
  typeName: '分类名称',
  typeId: '分类',
  bookTitle: '书籍标题',
  bookPic: '封面',
  downloadLink: '下载链接',
  bookIntro: '书籍介绍',
  requirePoints: '所需积分',
  interviewTitle: '题目标题',
  interviewContent: '题目内容',
  issueTitle: '问答标题',
  issueContent: '问答描述',
  issueStatus: '审核状态',
};

/** A value as a person reads it: flags in words, HTML as its text, long text cut. */
function shown(field: string, value: unknown): string {
  if (value === undefined || value === null || value === '') return '（空）';
  if (field === 'enabled') return value ? '启用' : '禁用';
  if (field === 'issueStatus') return value ? '已通过' : '待审核';
  if (field === 'permission') return value === 1 ? '超级管理员' : '普通管理员';
  if (typeof value === 'string') return plainExcerpt(value, 40);
  return String(value);
}

/** One changed field: 「昵称：甲 → 乙」, or its note (「密码已修改」). */
export function ChangeLine({ change }: { change: AuditChange }) {
  const name = FIELD_NAMES[change.field] ?? change.field;
  if (change.note) return <div>{change.note}</div>;
  return (
    <div>
      {name}：{shown(change.field, change.before)} → {shown(change.field, change.after)}
    </div>
  );
}

interface HistoryButtonProps {
  entity: AuditEntity;
  id: string;
  /** Called after 恢复此版本 succeeded: the page shows the record as it now is. */
  onReverted?: () => unknown;
  /** A link, for a table row's actions, rather than a button. */
  link?: boolean;
}

/** 历史: opens a drawer with the record's history, newest first, and 恢复此版本 on changes. */
export default function HistoryButton({ entity, id, onReverted, link }: HistoryButtonProps) {
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
    message.success('已恢复此版本');
    await onReverted?.();
  };

  return (
    <>
      {link ? (
        <RowAction onClick={show}>历史</RowAction>
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
                  {entry.changes?.map((change) => (
                    <ChangeLine key={change.field} change={change} />
                  ))}
                  {entry.revertible && (
                    <ConfirmAction
                      label="恢复此版本"
                      title="确定要把这些字段恢复为修改前的值吗？"
                      okText="恢复"
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
