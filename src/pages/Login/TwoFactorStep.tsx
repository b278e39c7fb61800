import { SafetyOutlined } from '@ant-design/icons';
import { Button, Form, Input } from 'antd';
import { useState } from 'react';
import { classifyRequestError, describeRequestError } from '@/requestErrorConfig';
import { loginTwoFactor } from '@/services/account';
import type { LoginResult } from '#contract/auth';
import { message } from '@/utils/feedback';

/** Typed by the contract: the answer that sends the admin back to the password step. */

interface TwoFactorStepProps {
  challenge: string;
  /** Signs in with the answer, as after a login without two-step. */
  onSignedIn: (result: LoginResult) => Promise<void>;
  /** Back to the password step (the challenge is used up or the admin chose to). */
  onRestart: () => void;
}

type Mode = 'code' | 'recovery';

/**
 * The login's second step (issue 13): the authenticator's code, or one of the recovery codes,
 * sent with the challenge that the password step answered.
 */
export default function TwoFactorStep({ challenge, onSignedIn, onRestart }: TwoFactorStepProps) {
  const [form] = Form.useForm<{ code: string; recoveryCode: string }>();
  const [mode, setMode] = useState<Mode>('code');
  const [submitting, setSubmitting] = useState(false);

  const onFinish = async ({ code, recoveryCode }: { code?: string; recoveryCode?: string }) => {
    setSubmitting(true);
    try {
      const result = await loginTwoFactor(
        mode === 'code' ? { challenge, code: (code ?? '').trim() } : { challenge, recoveryCode: (recoveryCode ?? '').trim() },
      );
      await onSignedIn(result);
    } catch (error) {
      const failure = classifyRequestError(error);
      message.error(describeRequestError(error));
      setSubmitting(false);
      if (failure.kind === 'server' && (failure.errorCode === 'CHALLENGE_EXPIRED' || failure.status === 401)) {
        onRestart();
        return;
      }
      form.resetFields();
    }
  };

  const switchTo = (next: Mode) => {
    form.resetFields();
    setMode(next);
  };

  return (
    <Form form={form} name="login-2fa" size="large" onFinish={onFinish}>
      <h2 style={{ fontSize: 16, fontWeight: 500, margin: '0 0 16px', textAlign: 'center' }}>
        {mode === 'code' ? '请输入动态验证码' : '请输入恢复码'}
      </h2>
      {mode === 'code' ? (
        <Form.Item
          name="code"
          rules={[
            { required: true, message: '请输入动态验证码' },
            { pattern: /^\s*\d{6}\s*$/, message: '动态验证码是 6 位数字' },
          ]}
          extra="打开手机上的验证器，输入显示的 6 位数字"
        >
          <Input
            prefix={<SafetyOutlined />}
            placeholder="6 位动态验证码"
            aria-label="动态验证码"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            autoFocus
          />
        </Form.Item>
      ) : (
        <Form.Item
          name="recoveryCode"
          rules={[{ required: true, whitespace: true, message: '请输入恢复码' }]}
          extra="每个恢复码只能使用一次"
        >
          <Input prefix={<SafetyOutlined />} placeholder="恢复码" aria-label="恢复码" autoComplete="off" maxLength={32} autoFocus />
        </Form.Item>
      )}
      <Form.Item>
        <Button type="primary" htmlType="submit" block loading={submitting}>
          验证
        </Button>
      </Form.Item>
      <div style={{ display: 'flex', justifyContent: 'space-between' }}>
        {mode === 'code' ? (
          <Button type="link" size="small" style={{ padding: 0 }} onClick={() => switchTo('recovery')}>
            使用恢复码
          </Button>
        ) : (
          <Button type="link" size="small" style={{ padding: 0 }} onClick={() => switchTo('code')}>
            使用动态验证码
          </Button>
        )}
        <Button type="link" size="small" style={{ padding: 0 }} onClick={onRestart}>
          返回重新登录
        </Button>
      </div>
    </Form>
  );
}
