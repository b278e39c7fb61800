import { changeLines, changeText, valueText } from '#contract/labels';

/**
 * How the audit log words a change (contract/labels.ts), the same on the screens and in the CSV:
 * rich-editor HTML is read as its text, and every other value is shown as it was typed.
 */
const html = (value: string) => value.replace(/<[^>]*>/g, '').trim();

describe('valueText', () => {
  it('shows a plain text as typed, angle brackets and all', () => {
    expect(changeText({ field: 'bookTitle', before: 'Vue <template> 入门 & 实战 📚', after: 'Vue <slot> 进阶' }, { html })).toBe(
      '书籍标题：Vue <template> 入门 & 实战 📚 → Vue <slot> 进阶',
    );
    expect(valueText('nickname', '<img src=x onerror=alert(1)>😀', undefined, { html })).toBe('<img src=x onerror=alert(1)>😀');
    expect(valueText('reason', '含有广告 <b>x</b>', undefined, { html })).toBe('含有广告 <b>x</b>');
  });

  it('reads rich-editor HTML as its text', () => {
    expect(valueText('issueContent', '<p>正文 <b>加粗</b></p>', undefined, { html })).toBe('正文 加粗');
    expect(changeLines('修改', [{ field: 'bookIntro', before: '<p>旧</p>', after: '<p>新</p>' }], { html })).toEqual(['书籍介绍：旧 → 新']);
  });

  it('says where a rejected record went rather than the bin entry’s id', () => {
    expect(
      changeLines('审核拒绝', [
        { field: 'reason', after: '含有广告' },
        { field: 'trash', after: '6b12dfe468daaf33463367c4' },
      ]),
    ).toEqual(['理由：含有广告', '已移入回收站']);
  });
});
