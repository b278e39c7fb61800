import { Alert, Button, Form, Input, type InputRef, Modal, Segmented } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { describeRequestError } from '@/requestErrorConfig';
import { reauth } from '@/services/account';
import { setReauthAsker } from '@/utils/trustGate';

type ProofKind = 'password' | 'code' | 'passkey';

/** 「验证后 15 分钟内无需再次验证。」 with the server's own window (REAUTH_WINDOW_SECONDS), in minutes when whole. */
export function proofLasts(windowSeconds?: number): string {
  if (!windowSeconds) return '';
  const span = windowSeconds % 60 === 0 ? `${windowSeconds / 60} 分钟` : `${windowSeconds} 秒`;
  return `验证后 ${span}内无需再次验证。`;
}

interface ReauthDialogProps {
  open: boolean;
  /** How long the proof lasts (the refusal's reauthWindowSeconds); unsaid, the dialog names no time. */
  windowSeconds?: number;
  /** The proof was accepted: the refused action is repeated. */
  onProved: () => void;
  onCancel: () => void;
}

/**
 * 验证身份: the fresh proof an action that can take over or empty the installation asks for
 * (403 REAUTH_REQUIRED 需要重新验证身份): the password, a code of two-step sign-in, or a passkey.
 */
export function ReauthDialog({ open, windowSeconds, onProved, onCancel }: ReauthDialogProps) {
  const [kind, setKind] = useState<ProofKind>('password');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [form] = Form.useForm<{ password?: string; code?: string }>();
  // The modal puts the focus on its own panel once opened, after the field's autoFocus: the field
  // takes it back then, so that the keyboard types the proof at once.
  const field = useRef<InputRef>(null);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    setError(undefined);
  }, [open, form]);

  // One proof per press: a wrong one counts in the sign-in throttle, so a second send of the same
  // typo (a double click, Enter while the first is on its way) must not happen.
  const sending = useRef(false);
  const submit = async () => {
    if (sending.current) return;
    const values = kind === 'passkey' ? {} : await form.validateFields().catch(() => null);
    if (!values || sending.current) return;
    sending.current = true;
    setBusy(true);
    setError(undefined);
    try {
      if (kind === 'passkey') {
        // Loaded only when asked: the WebAuthn client is not part of every page.
        const { passkeyProof } = await import('@/services/passkey');
        await reauth({ passkey: await passkeyProof() });
      } else await reauth(kind === 'password' ? { password: values.password } : { code: values.code });
      onProved();
    } catch (failure) {
      setError(describeRequestError(failure));
    } finally {
      sending.current = false;
      setBusy(false);
    }
  };

  return (
    <Modal
      open={open}
      title="验证身份"
      onCancel={onCancel}
      destroyOnHidden
      afterOpenChange={(opened) => {
        if (opened) field.current?.focus();
      }}
      footer={[
        <Button key="cancel" onClick={onCancel}>
          取消
        </Button>,
        <Button key="ok" type="primary" loading={busy} onClick={submit}>
          验证并继续
        </Button>,
      ]}
    >
      <p>{`该操作需要重新验证身份，请输入密码、动态验证码或使用通行密钥。${proofLasts(windowSeconds)}`}</p>
      <Segmented<ProofKind>
        value={kind}
        onChange={setKind}
        options={[
          { label: '密码', value: 'password' },
          { label: '动态验证码', value: 'code' },
          { label: '通行密钥', value: 'passkey' },
        ]}
      />
      {/* Enter is the field's (onPressEnter): the browser's own submission of a one-field form calls no onFinish. */}
      <Form form={form} layout="vertical" style={{ marginTop: 16 }}>
        {kind === 'passkey' ? (
          <p>点击“验证并继续”，按浏览器的提示使用已添加的通行密钥。</p>
        ) : kind === 'password' ? (
          <Form.Item name="password" label="密码" rules={[{ required: true, message: '请输入密码' }]}>
            <Input.Password ref={field} autoFocus autoComplete="current-password" onPressEnter={submit} />
          </Form.Item>
        ) : (
          <Form.Item name="code" label="动态验证码" rules={[{ required: true, pattern: /^[0-9]{6}$/, message: '请输入 6 位动态验证码' }]}>
            <Input ref={field} autoFocus inputMode="numeric" autoComplete="one-time-code" maxLength={6} onPressEnter={submit} />
          </Form.Item>
        )}
      </Form>
      {error && <Alert type="error" showIcon message={error} />}
    </Modal>
  );
}

/** Mounted once: answers the request layer's askForReauth with this dialog. */
export default function ReauthHost() {
  const [open, setOpen] = useState(false);
  const [windowSeconds, setWindowSeconds] = useState<number>();
  const settle = useRef<((proved: boolean) => void) | null>(null);

  useEffect(() => {
    setReauthAsker(
      (lasts) =>
        new Promise<boolean>((resolve) => {
          settle.current = resolve;
          setWindowSeconds(lasts);
          setOpen(true);
        }),
    );
    return () => setReauthAsker(null);
  }, []);

  const close = (proved: boolean) => {
    setOpen(false);
    settle.current?.(proved);
    settle.current = null;
  };
  return <ReauthDialog open={open} windowSeconds={windowSeconds} onProved={() => close(true)} onCancel={() => close(false)} />;
}
