import EmptyText from '@/components/EmptyText';
import type { AuthorFile } from '#contract/review';
import { SANCTION_DAYS, SANCTION_LABELS, type SanctionKind } from '#contract/values/review';
import { Button, Input, List, Select, Space } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { alreadyShown, api } from '@/services/api';
import { addNote, addSanction, liftSanction, removeNote } from '@/services/review';
import AuthorFileCard from '@/pages/Review/AuthorFileCard';
import { message } from '@/utils/feedback';
import { formatDate } from '@/utils/format';

/** The user detail's cards: the author's file, sanctions (禁言/封禁 with an end, 解除) and admins' notes. */
export default function MemberFile({ userId }: { userId: string }) {
  const [file, setFile] = useState<AuthorFile | null>(null);
  const [kind, setKind] = useState<SanctionKind>('mute');
  const [days, setDays] = useState<number | null>(1);
  const [reason, setReason] = useState('');
  const [note, setNote] = useState('');

  const load = useCallback(
    () => api<AuthorFile>(`/api/user/${userId}/file`, { method: 'GET', skipErrorHandler: true }).then(setFile, () => setFile(null)),
    [userId],
  );
  useEffect(() => {
    void load();
  }, [load]);

  if (!file) return null;
  const act = (call: () => Promise<unknown>, done: string) =>
    call().then(() => {
      message.success(done);
      return load();
    }, alreadyShown);

  return (
    <section aria-label="作者档案与处罚">
      <AuthorFileCard file={file} />
      <Space wrap style={{ margin: '8px 0' }}>
        <Select
          aria-label="处罚类型"
          value={kind}
          onChange={setKind}
          options={Object.entries(SANCTION_LABELS).map(([value, label]) => ({ value, label }))}
        />
        <Select
          aria-label="时长"
          value={days === null ? 'forever' : days}
          onChange={(value) => setDays(value === 'forever' ? null : Number(value))}
          options={[...SANCTION_DAYS.map((d) => ({ value: d, label: `${d} 天` })), { value: 'forever', label: '永久' }]}
        />
        <Input aria-label="处罚理由" placeholder="理由" value={reason} onChange={(e) => setReason(e.target.value)} />
        <Button
          danger
          disabled={!reason.trim()}
          onClick={() =>
            act(() => addSanction(userId, { kind, days, reason: reason.trim() }), `已${SANCTION_LABELS[kind]}`).then(() => setReason(''))
          }
        >
          {SANCTION_LABELS[kind]}
        </Button>
      </Space>
      <List
        size="small"
        header="处罚记录"
        dataSource={file.sanctions}
        locale={{ emptyText: <EmptyText>无</EmptyText> }}
        renderItem={(s) => (
          <List.Item
            actions={
              s.active
                ? [
                    <Button key="lift" size="small" onClick={() => act(() => liftSanction(userId, s._id), '已解除')}>
                      解除
                    </Button>,
                  ]
                : []
            }
          >
            {`${SANCTION_LABELS[s.kind]} ${s.days === null ? '永久' : `${s.days} 天`}：${s.reason}（${s.by.loginId}，${formatDate(s.startsAt)}${s.active ? '，生效中' : '，已解除'}）`}
          </List.Item>
        )}
      />
      <Space.Compact style={{ width: '100%', margin: '8px 0' }}>
        <Input aria-label="备注" placeholder="给其他管理员的备注" value={note} onChange={(e) => setNote(e.target.value)} />
        <Button disabled={!note.trim()} onClick={() => act(() => addNote(userId, note.trim()), '备注已添加').then(() => setNote(''))}>
          添加备注
        </Button>
      </Space.Compact>
      <List
        size="small"
        header="备注"
        dataSource={file.notes}
        locale={{ emptyText: <EmptyText>无</EmptyText> }}
        renderItem={(n) => (
          <List.Item
            actions={[
              <Button key="del" size="small" onClick={() => act(() => removeNote(userId, n._id), '备注已删除')}>
                删除
              </Button>,
            ]}
          >
            {`${n.body}（${n.by.loginId}，${formatDate(n.createdAt)}）`}
          </List.Item>
        )}
      />
    </section>
  );
}
