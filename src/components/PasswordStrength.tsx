import { Form, Progress, Typography } from 'antd';
import { estimatePassword, type PasswordContext, STRENGTH_LABELS } from '@/utils/password';

const COLORS = ['#d9d9d9', '#cf1322', '#d48806', '#389e0d'];

interface PasswordStrengthProps extends PasswordContext {
  /** The password field this meter follows, in the surrounding form. */
  name: string;
  /** Fields of the same form whose values the password must not contain. */
  forbiddenFields?: { label: string; name: string }[];
}

/**
 * The meter under a new-password field, updated as the admin types; the reason a password would be
 * refused is the field's own error, from passwordRule below. It reads the surrounding form, so it
 * is placed as the field's `extra`.
 */
export default function PasswordStrength({ name, minLength, forbidden = [], forbiddenFields = [] }: PasswordStrengthProps) {
  const form = Form.useFormInstance();
  const password: string | undefined = Form.useWatch(name, form);
  const fieldValues: Record<string, string | undefined> =
    Form.useWatch(
      (values: Record<string, string | undefined>) =>
        Object.fromEntries(forbiddenFields.map((field) => [field.name, values?.[field.name]])),
      form,
    ) ?? {};
  const { level, problems, advice } = estimatePassword(password ?? '', {
    minLength,
    forbidden: [...forbidden, ...forbiddenFields.map((field) => ({ label: field.label, value: fieldValues[field.name] }))],
  });
  if (level === 0) return null;
  return (
    <div data-testid="password-strength" style={{ marginTop: 4 }}>
      <div style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
        <Progress percent={(level / 3) * 100} steps={3} showInfo={false} strokeColor={COLORS[level]} size={[40, 6]} aria-label="密码强度" />
        <span style={{ color: COLORS[level] }}>密码强度：{STRENGTH_LABELS[level]}</span>
      </div>
      {/* A refused password's reason is the field's error (passwordRule); advice is only shown. */}
      {problems.length === 0 && advice ? <Typography.Text type="secondary">{advice}</Typography.Text> : null}
    </div>
  );
}

/** A form rule with the same local checks, so that a password the server would refuse is not sent. */
export function passwordRule(context: (getFieldValue: (name: string) => unknown) => PasswordContext) {
  return ({ getFieldValue }: { getFieldValue: (name: string) => unknown }) => ({
    async validator(_: unknown, value: string | undefined) {
      if (!value) return;
      const { problems } = estimatePassword(value, context(getFieldValue));
      if (problems.length > 0) throw new Error(`密码${problems.join('，')}`);
    },
  });
}
