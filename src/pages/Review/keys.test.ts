import { chosenCount, decisionTargets, moved, queueCommand, reasonByDigit } from './keys';

describe('the 审核台 keys', () => {
  it('maps every documented key to its command', () => {
    expect(['j', 'ArrowDown', 'k', 'ArrowUp', 'a', 'r', 's', 'u', 'o', 'x', '?'].map((key) => queueCommand({ key }))).toEqual([
      'next',
      'next',
      'previous',
      'previous',
      'approve',
      'reject',
      'skip',
      'undo',
      'open',
      'select',
      'help',
    ]);
  });

  it('leaves other keys and browser shortcuts alone', () => {
    expect(queueCommand({ key: 'b' })).toBeNull();
    expect(queueCommand({ key: 'Enter' })).toBeNull();
    expect(queueCommand({ key: 'a', ctrlKey: true })).toBeNull();
    expect(queueCommand({ key: 'r', metaKey: true })).toBeNull();
    expect(queueCommand({ key: 'j', altKey: true })).toBeNull();
  });

  it('moves within the list and stops at its ends', () => {
    expect(moved(0, 'previous', 3)).toBe(0);
    expect(moved(0, 'next', 3)).toBe(1);
    expect(moved(2, 'next', 3)).toBe(2);
    expect(moved(0, 'next', 0)).toBe(0);
  });

  it('picks a reason by its digit', () => {
    const reasons = ['广告', '引流', '辱骂'];
    expect(reasonByDigit('1', reasons)).toBe('广告');
    expect(reasonByDigit('3', reasons)).toBe('辱骂');
    expect(reasonByDigit('4', reasons)).toBeNull();
    expect(reasonByDigit('0', reasons)).toBeNull();
    expect(reasonByDigit('a', reasons)).toBeNull();
  });

  it('decides on the selected items, or else on the one with the focus', () => {
    const items = [
      { kind: 'issue', id: '1' },
      { kind: 'comment', id: '2' },
      { kind: 'user', id: '3' },
    ];
    expect(decisionTargets(items, new Set(), 1)).toEqual([items[1]]);
    expect(decisionTargets(items, new Set(['issue:1', 'user:3']), 1)).toEqual([items[0], items[2]]);
    expect(decisionTargets([], new Set(), 0)).toEqual([]);
  });

  it('counts for the buttons the selected items still shown: one skipped (s) or decided elsewhere is not among them', () => {
    const shown = [
      { kind: 'issue', id: '1' },
      { kind: 'issue', id: '2' },
    ];
    // issue:3 was selected, then skipped: the queue no longer shows it.
    const selected = new Set(['issue:1', 'issue:3']);
    expect(chosenCount(shown, selected)).toBe(1);
    expect(chosenCount(shown, selected)).toBe(decisionTargets(shown, selected, 0).length);
  });
});
