import type { ReviewItem } from '#contract/review';
import { MODERATION_RULES, type ModerationRule } from '#contract/values/moderation';
import { AWAITING_APPROVAL_LABEL, AWAITING_APPROVAL_RULE } from '#contract/values/review';

/** A rule's name as the screens say it (敏感词, 先审后发, …); one this screen does not know yet, as sent. */
export function ruleLabel(rule: string): string {
  return Object.hasOwn(MODERATION_RULES, rule) ? MODERATION_RULES[rule as ModerationRule] : rule;
}

/** Why an item waits, in one line: each rule by its label, with the words it matched. */
export function reasonText(item: Pick<ReviewItem, 'reasons'>): string {
  return item.reasons
    .map((r) =>
      r.rule === AWAITING_APPROVAL_RULE
        ? AWAITING_APPROVAL_LABEL
        : `规则「${ruleLabel(r.rule)}」${r.words.length ? `命中：${r.words.join('、')}` : ''}`,
    )
    .join('；');
}
