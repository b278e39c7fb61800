/**
 * The 审核台's keys (docs/screens.md): what a key pressed on the queue does, kept apart from the
 * screen so that it can be tested alone.
 */
export type QueueCommand = 'next' | 'previous' | 'approve' | 'reject' | 'skip' | 'undo' | 'open' | 'select' | 'help';

const QUEUE_KEYS: Record<string, QueueCommand> = {
  j: 'next',
  ArrowDown: 'next',
  k: 'previous',
  ArrowUp: 'previous',
  a: 'approve',
  r: 'reject',
  s: 'skip',
  u: 'undo',
  o: 'open',
  x: 'select',
  '?': 'help',
};

/** The key list the ? dialog shows, in its order. */
export const KEY_HELP: ReadonlyArray<[keys: string, what: string]> = [
  ['j / ↓', '下一项'],
  ['k / ↑', '上一项'],
  ['a', '通过'],
  ['r', '拒绝（选择理由）'],
  ['s', '跳过'],
  ['u', '撤销上一次处理'],
  ['o', '查看完整内容'],
  ['x', '选中 / 取消选中'],
  ['?', '快捷键列表'],
];

/** The reject dialog's keys: 1-9 pick a reason, Enter confirms the typed one, Escape closes. */
export const REJECT_HELP = '按 1-9 选择理由，或输入理由后按回车；Esc 取消';

interface KeyLike {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
}

/** The command of a key pressed on the queue; null for any other key or with Ctrl, ⌘ or Alt held. */
export function queueCommand(event: KeyLike): QueueCommand | null {
  if (event.ctrlKey || event.metaKey || event.altKey) return null;
  return QUEUE_KEYS[event.key] ?? null;
}

/** The reason a digit picks in the reject dialog (1 is the first), or null. */
export function reasonByDigit<T>(key: string, reasons: readonly T[]): T | null {
  if (!/^[1-9]$/.test(key)) return null;
  return reasons[Number(key) - 1] ?? null;
}

/** The place of the focus after a move, within the list (it stays at the ends). */
export function moved(index: number, command: 'next' | 'previous', length: number): number {
  if (!length) return 0;
  return command === 'next' ? Math.min(index + 1, length - 1) : Math.max(index - 1, 0);
}

/** The items a decision is about: the selected ones, or else the one with the focus. */
export function decisionTargets<T extends { kind: string; id: string }>(
  items: readonly T[],
  selected: ReadonlySet<string>,
  index: number,
): T[] {
  const picked = items.filter((item) => selected.has(`${item.kind}:${item.id}`));
  if (picked.length) return picked;
  return items[index] ? [items[index]] : [];
}

/**
 * How many items a decision on the selection reaches, as its buttons say: the selected ones among
 * those shown (decisionTargets), not one skipped or decided by another admin since it was selected.
 */
export function chosenCount(items: ReadonlyArray<{ kind: string; id: string }>, selected: ReadonlySet<string>): number {
  return items.filter((item) => selected.has(`${item.kind}:${item.id}`)).length;
}
