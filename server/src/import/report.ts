import { MODERATION_ACTIONS, MODERATION_KINDS, MODERATION_RULES } from '#contract/moderation';
import type { ImportReport, Notice } from './importer';

const where = (n: Notice) =>
  n.file.toLowerCase().endsWith('.json') ? `${n.file.split(/[\\/]/).pop()} 第 ${n.line} 行` : `第 ${n.line} 行`;
const describe = (n: Notice) => `  ${n.collection} ${n.id ?? '(无 id)'}（${where(n)}）：${n.reason}`;

/** Pads by display width: a CJK character takes two columns. */
function pad(text: string, width: number): string {
  const shown = [...text].reduce((w, ch) => w + (/[\u1100-\uffff]/.test(ch) ? 2 : 1), 0);
  return text + ' '.repeat(Math.max(0, width - shown));
}

/** At most this many records per list on the console; --report writes them all to a file. */
const SHOWN = 50;
const listed = (notices: Notice[]) =>
  notices.length > SHOWN
    ? [...notices.slice(0, SHOWN).map(describe), `  ……还有 ${notices.length - SHOWN} 条（完整列表：--report <文件>）`]
    : notices.map(describe);

/** The summary table and the skipped, fixed or image-less records, as the console shows them. */
export function formatReport(report: ImportReport): string {
  const lines: string[] = [];
  lines.push(report.dryRun ? '试运行（--dry-run）：以下是将会发生的结果，数据库没有任何改动。' : '导入完成。');
  const head = ['集合', '读取', '导入', '更新', '跳过', '修正', '图片', '待审', '标记'];
  const widths = [12, 8, 8, 8, 8, 8, 8, 8, 8];
  lines.push(head.map((h, i) => pad(h, widths[i])).join(''));
  for (const c of report.collections) {
    lines.push(
      [c.collection, c.read, c.imported, c.updated, c.skipped, c.fixed, c.images, c.held, c.flagged]
        .map((v, i) => pad(String(v), widths[i]))
        .join(''),
    );
  }
  if (report.ignored.length) {
    lines.push(`未导入（后台不管理的集合）：${report.ignored.map((i) => `${i.collection}（${i.documents} 条）`).join('，')}`);
  }
  lines.push(`图片：导入 ${report.images.brought} 张，${report.images.replaced.length} 条记录换成了默认图片`);
  const skips = report.collections.flatMap((c) => c.skips);
  if (skips.length) lines.push(`跳过的记录（${skips.length}）：`, ...listed(skips));
  const fixes = report.collections.flatMap((c) => c.fixes);
  if (fixes.length) lines.push(`修正后导入的记录（${fixes.length} 处）：`, ...listed(fixes));
  if (report.images.replaced.length) lines.push('换成默认图片的记录：', ...listed(report.images.replaced));
  const { counts, records } = report.moderation;
  if (records.length) {
    const held = records.filter((r) => r.outcome === 'held').length;
    lines.push(`审核规则：待审 ${held} 条，标记 ${records.length - held} 条，都已进入审核台：`);
    for (const c of counts) {
      lines.push(
        `  ${MODERATION_KINDS[c.kind]} ${c.outcome === 'held' ? '待审' : '标记'} ${MODERATION_RULES[c.rule]}（${MODERATION_ACTIONS[c.action]}）${c.records} 条`,
      );
    }
    lines.push('待审和标记的记录：', ...listed(records));
  }
  const { released } = report.moderation;
  if (released.length) lines.push(`不再命中审核规则、已移出审核台的记录（${released.length} 条）：`, ...listed(released));
  const legacy = report.legacyPasswords;
  lines.push(
    `仍使用旧 md5 密码的账号：管理员 ${legacy.admins.length ? legacy.admins.join('、') : '无'}；用户 ${legacy.users} 个${
      legacy.someUsers.length ? `（${legacy.someUsers.join('、')}${legacy.users > legacy.someUsers.length ? ' 等' : ''}）` : ''
    }`,
  );
  if (legacy.admins.length) lines.push('  这些管理员用原来的密码登录一次，密码即改存为 argon2id。');
  for (const warning of report.warnings) lines.push(`注意：${warning}`);
  lines.push(`用时 ${(report.durationMs / 1000).toFixed(1)} 秒。`);
  return lines.join('\n');
}
