import { Tag } from 'antd';
import type { ModerationAction, ModerationTestResult } from '#contract/moderation';
import { MODERATION_ACTIONS, MODERATION_RULES } from '#contract/values/moderation';

export const ACTION_LABELS = MODERATION_ACTIONS;

const ACTION_COLORS: Record<ModerationAction, string> = { reject: 'red', hold: 'orange', flag: 'blue' };
// antd's orange text on its orange tag falls short of a 4.5 contrast; the admin list's darker orange reaches it.
const ACTION_TEXT: Partial<Record<ModerationAction, string>> = { hold: '#ad4e00' };

/** A word's action as a tag: 拒绝 red, 待审 orange, 标记 blue. */
export function ActionTag({ action }: { action: ModerationAction }) {
  return (
    <Tag color={ACTION_COLORS[action]} style={ACTION_TEXT[action] ? { color: ACTION_TEXT[action] } : undefined}>
      {ACTION_LABELS[action]}
    </Tag>
  );
}

/** What 测试 concludes, in one line: the strictest action, or that nothing fired. */
export function verdictText(result: ModerationTestResult): string {
  if (result.action === 'pass') return '未命中任何规则：放行';
  return `结果：${MODERATION_ACTIONS[result.action]}`;
}

/** One fired rule as 测试 lists it: 「敏感词（待审）：词一、词二」. */
export function reasonText(reason: ModerationTestResult['reasons'][number]): string {
  const words = reason.words.length ? `：${reason.words.join('、')}` : '';
  return `${MODERATION_RULES[reason.rule]}（${MODERATION_ACTIONS[reason.action]}）${words}`;
}

export interface Piece {
  text: string;
  /** Set on a stretch that matched a word. */
  match?: { word: string; action: ModerationAction };
}

/**
 * The tested text cut into plain stretches and matched ones, from the server's spans (UTF-16
 * offsets, end exclusive). A span overlapping one already taken is left out rather than drawn twice.
 */
export function splitBySpans(text: string, spans: ModerationTestResult['spans']): Piece[] {
  const pieces: Piece[] = [];
  let at = 0;
  for (const span of [...spans].sort((a, b) => a.start - b.start || b.end - a.end)) {
    if (span.start < at || span.end <= span.start || span.end > text.length) continue;
    if (span.start > at) pieces.push({ text: text.slice(at, span.start) });
    pieces.push({ text: text.slice(span.start, span.end), match: { word: span.word, action: span.action } });
    at = span.end;
  }
  if (at < text.length) pieces.push({ text: text.slice(at) });
  return pieces;
}

/** `合并` / `替换` counts of an import, as its success message says them. */
export function importSummary(result: { added: number; updated: number; removed: number; unchanged: number }): string {
  return `导入完成：新增 ${result.added} 个，更新 ${result.updated} 个，删除 ${result.removed} 个，未变 ${result.unchanged} 个`;
}
