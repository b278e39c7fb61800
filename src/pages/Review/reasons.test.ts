import { AWAITING_APPROVAL_LABEL, AWAITING_APPROVAL_RULE } from '#contract/values/review';
import { reasonText, ruleLabel } from './reasons';

describe('审核台: why an item waits', () => {
  it('names each rule by the label the screens use, never its internal name', () => {
    expect(ruleLabel('word')).toBe('敏感词');
    expect(ruleLabel('reviewFirst')).toBe('先审后发');
    expect(ruleLabel('newAccountLinks')).toBe('新注册账号发布链接');
    expect(ruleLabel('firstPosts')).toBe('新账号的前几条内容');
  });

  it('keeps a rule it does not know as sent (a newer server), and an inherited name is not a rule', () => {
    expect(ruleLabel('someFutureRule')).toBe('someFutureRule');
    expect(ruleLabel('toString')).toBe('toString');
  });

  it('joins the reasons, with the matched words, and says a question awaiting approval plainly', () => {
    const text = reasonText({
      reasons: [
        { rule: 'word', action: 'hold', words: ['代开发票', 'vx'] },
        { rule: 'reviewFirst', action: 'hold', words: [] },
        { rule: AWAITING_APPROVAL_RULE, action: 'hold', words: [] },
      ],
    });
    expect(text).toBe(`规则「敏感词」命中：代开发票、vx；规则「先审后发」；${AWAITING_APPROVAL_LABEL}`);
  });
});
