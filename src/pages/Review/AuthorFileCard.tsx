import type { AuthorFile } from '#contract/review';
import { SANCTION_LABELS } from '#contract/values/review';
import { Descriptions, Tag } from 'antd';
import { formatDate } from '@/utils/format';

/** The author's file (作者档案): on every queue item and on the user's detail. */
export default function AuthorFileCard({ file }: { file: AuthorFile }) {
  const active = file.sanctions.filter((s) => s.active);
  return (
    <Descriptions size="small" column={1} title={`作者档案：${file.nickname}（${file.loginId}）`}>
      <Descriptions.Item label="注册">{`${file.accountAgeDays} 天前`}</Descriptions.Item>
      <Descriptions.Item label="问答">{`已发布 ${file.issues.published} · 待审 ${file.issues.held} · 被拒绝 ${file.issues.rejected}`}</Descriptions.Item>
      <Descriptions.Item label="评论">{`已发布 ${file.comments.published} · 待审 ${file.comments.held} · 被拒绝 ${file.comments.rejected}`}</Descriptions.Item>
      <Descriptions.Item label="积分">{file.points}</Descriptions.Item>
      <Descriptions.Item label="处罚">
        {file.sanctions.length === 0
          ? '无'
          : `${active.length ? active.map((s) => `${SANCTION_LABELS[s.kind]}中（${s.endsAt ? `至 ${formatDate(s.endsAt)}` : '永久'}）`).join('、') : '当前无'}，共 ${file.sanctions.length} 次`}
        {!file.enabled && <Tag color="red">已禁用</Tag>}
      </Descriptions.Item>
      <Descriptions.Item label="备注">
        {file.notes.length ? file.notes.map((n) => `${n.body}（${n.by.loginId}）`).join('；') : '无'}
      </Descriptions.Item>
    </Descriptions>
  );
}
