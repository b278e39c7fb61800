import { useModel } from '@umijs/max';
import { Alert, Button, Form, Input, List, Radio, Result, Space, Spin, Tag, Typography } from 'antd';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { describeRequestError } from '@/requestErrorConfig';
import { disable2fa, enable2fa, recoveryCodesLeft, regenerateRecoveryCodes, setUp2fa } from '@/services/account';
import type { TwoFactorSetup } from '#contract/account';
import { whoami } from '@/services/admin';
import { message } from '@/utils/feedback';
import { toInitialState } from '@/utils/session';

const QrCode = lazy(() => import('./QrCode'));

const CODE_RULES = [
  { required: true, message: '请输入动态验证码' },
  { pattern: /^\d{6}$/, message: '动态验证码是 6 位数字' },
];

/**
 * Reloads the signed-in admin, whose two-step flags have just changed on the server. whoami skips
 * the request layer's messages (services/admin), so a failure is told here.
 */
function useRefreshAdmin() {
  const { setInitialState } = useModel('@@initialState');
  return async () => {
    try {
      const fresh = await whoami();
      if (fresh) await setInitialState(toInitialState(fresh));
    } catch (error) {
      message.error(describeRequestError(error));
    }
  };
}

function RecoveryCodes({ codes, onDone, renewed }: { codes: string[]; onDone: () => void; renewed?: boolean }) {
  const text = codes.join('\n');
  return (
    <Result
      status="success"
      title={renewed ? '已生成新的恢复码' : '两步验证已开启'}
      subTitle={`请把下面 10 个恢复码保存在安全的地方：手机不在身边时，每个恢复码可以代替动态验证码登录一次。它们只显示这一次。${renewed ? '之前的恢复码已全部失效。' : ''}`}
      extra={
        <Space direction="vertical" align="center">
          <List
            bordered
            size="small"
            style={{ width: 320, fontFamily: 'monospace' }}
            dataSource={codes}
            renderItem={(code) => <List.Item>{code}</List.Item>}
            aria-label="恢复码"
          />
          <Space>
            <Typography.Text copyable={{ text, tooltips: ['复制全部恢复码', '已复制'] }}>复制全部</Typography.Text>
            <Button type="primary" onClick={onDone}>
              我已保存
            </Button>
          </Space>
        </Space>
      }
    />
  );
}

function Setup({ onEnabled }: { onEnabled: (codes: string[]) => void }) {
  const [setup, setSetup] = useState<TwoFactorSetup>();
  const [busy, setBusy] = useState(false);

  const start = async () => {
    setBusy(true);
    try {
      setSetup(await setUp2fa());
    } catch {
      // Shown by the request layer.
    }
    setBusy(false);
  };

  const enable = async ({ code }: { code: string }) => {
    setBusy(true);
    try {
      const { recoveryCodes } = await enable2fa({ code: code.trim() });
      onEnabled(recoveryCodes);
    } catch {
      // 「动态验证码不正确」 and the like come from the request layer; the secret stays on screen.
      setBusy(false);
    }
  };

  if (!setup) {
    return (
      <Space direction="vertical">
        <Typography.Paragraph>
          开启后，登录时除了密码还要输入手机验证器（如 Google Authenticator、Microsoft Authenticator）生成的 6 位动态验证码。
        </Typography.Paragraph>
        <Button type="primary" loading={busy} onClick={start}>
          开启两步验证
        </Button>
      </Space>
    );
  }
  return (
    <Space direction="vertical" size="middle">
      <Typography.Text>1. 用验证器扫描二维码，或手动输入密钥：</Typography.Text>
      <Space align="start" size="large" wrap>
        <Suspense fallback={<Spin />}>
          <QrCode value={setup.otpauthUrl} />
        </Suspense>
        <div>
          <Typography.Text type="secondary">密钥</Typography.Text>
          <Typography.Paragraph copyable code data-testid="totp-secret" style={{ fontSize: 16 }}>
            {setup.secret}
          </Typography.Paragraph>
        </div>
      </Space>
      <Typography.Text>2. 输入验证器显示的 6 位动态验证码：</Typography.Text>
      <Form layout="inline" onFinish={enable}>
        <Form.Item name="code" rules={CODE_RULES}>
          <Input placeholder="6 位动态验证码" inputMode="numeric" autoComplete="one-time-code" maxLength={6} />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" loading={busy}>
            启用
          </Button>
        </Form.Item>
      </Form>
    </Space>
  );
}

function Disable({ onDisabled }: { onDisabled: () => void }) {
  const [busy, setBusy] = useState(false);
  const onFinish = async ({ currentPassword, code }: { currentPassword: string; code: string }) => {
    setBusy(true);
    try {
      await disable2fa({ currentPassword, code: code.trim() });
    } catch {
      setBusy(false);
      return;
    }
    message.success('两步验证已关闭');
    onDisabled();
  };
  return (
    <Form layout="vertical" style={{ maxWidth: 360 }} onFinish={onFinish}>
      <Typography.Title level={5}>关闭两步验证</Typography.Title>
      <Form.Item name="currentPassword" label="当前密码" rules={[{ required: true, message: '请输入当前密码' }]}>
        <Input.Password autoComplete="current-password" maxLength={128} />
      </Form.Item>
      <Form.Item name="code" label="动态验证码" rules={CODE_RULES}>
        <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} />
      </Form.Item>
      <Button danger htmlType="submit" loading={busy}>
        关闭两步验证
      </Button>
    </Form>
  );
}

/**
 * 恢复码 while two-step sign-in is on: how many are left, and ten new ones in place of the old
 * (proven by the current password or a code), shown once by the caller.
 */
function RecoveryCodesPanel({ onRenewed }: { onRenewed: (codes: string[]) => void }) {
  const [remaining, setRemaining] = useState<number>();
  const [by, setBy] = useState<'password' | 'code'>('password');
  const [busy, setBusy] = useState(false);
  // The form opens on demand: the page keeps one 当前密码 field (关闭两步验证's) until asked.
  const [open, setOpen] = useState(false);

  const load = useCallback(() => {
    recoveryCodesLeft().then(
      ({ remaining: left }) => setRemaining(left),
      () => undefined,
    );
  }, []);
  useEffect(load, [load]);

  const onFinish = async ({ currentPassword, code }: { currentPassword?: string; code?: string }) => {
    setBusy(true);
    try {
      const { recoveryCodes } = await regenerateRecoveryCodes(by === 'password' ? { currentPassword } : { code: code?.trim() });
      message.success('已生成新的恢复码');
      onRenewed(recoveryCodes);
    } catch {
      // 「当前密码不正确」, 「动态验证码不正确」: shown by the request layer.
      setBusy(false);
    }
  };

  const left = (
    <Typography.Paragraph data-testid="recovery-codes-left">
      {remaining === undefined ? '剩余恢复码：…' : `剩余恢复码：${remaining} 个`}
      {remaining !== undefined && remaining <= 3 ? <Typography.Text type="warning">（快用完了，建议重新生成）</Typography.Text> : null}
    </Typography.Paragraph>
  );
  if (!open) {
    return (
      <div>
        <Typography.Title level={5}>恢复码</Typography.Title>
        {left}
        <Button onClick={() => setOpen(true)}>重新生成恢复码</Button>
      </div>
    );
  }
  return (
    <Form layout="vertical" style={{ maxWidth: 360 }} onFinish={onFinish} aria-label="重新生成恢复码">
      <Typography.Title level={5}>恢复码</Typography.Title>
      {left}
      <Typography.Paragraph type="secondary">重新生成后，之前的恢复码全部失效。请用当前密码或动态验证码确认身份：</Typography.Paragraph>
      <Form.Item label="验证方式">
        <Radio.Group value={by} onChange={(event) => setBy(event.target.value)}>
          <Radio value="password">用当前密码</Radio>
          <Radio value="code">用动态验证码</Radio>
        </Radio.Group>
      </Form.Item>
      {by === 'password' ? (
        <Form.Item name="currentPassword" label="当前密码" rules={[{ required: true, message: '请输入当前密码' }]}>
          <Input.Password autoComplete="current-password" maxLength={128} />
        </Form.Item>
      ) : (
        <Form.Item name="code" label="动态验证码" rules={CODE_RULES}>
          <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} />
        </Form.Item>
      )}
      <Space>
        <Button type="primary" htmlType="submit" loading={busy}>
          生成新的恢复码
        </Button>
        <Button onClick={() => setOpen(false)}>取消</Button>
      </Space>
    </Form>
  );
}

/** 两步验证 (TOTP): set up with a QR code, enable with a code, recovery codes once; disable with password and code. */
export default function TwoFactorTab() {
  const { initialState } = useModel('@@initialState');
  const admin = initialState?.adminInfo;
  const refresh = useRefreshAdmin();
  const [recoveryCodes, setRecoveryCodes] = useState<string[]>();
  const [renewedCodes, setRenewedCodes] = useState<string[]>();

  if (recoveryCodes) {
    // The admin is marked as enabled only once the codes are put away, so that they stay on screen.
    return (
      <RecoveryCodes
        codes={recoveryCodes}
        onDone={() => {
          setRecoveryCodes(undefined);
          refresh();
        }}
      />
    );
  }
  if (renewedCodes) return <RecoveryCodes renewed codes={renewedCodes} onDone={() => setRenewedCodes(undefined)} />;
  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      {admin?.mustSetUp2fa ? (
        <Alert
          type="warning"
          showIcon
          message="系统要求所有管理员开启两步验证，开启后才能使用其他功能；已添加通行密钥的管理员也可以退出后用通行密钥登录。"
        />
      ) : null}
      <div>状态：{admin?.twoFactorEnabled ? <Tag color="green">已开启</Tag> : <Tag>未开启</Tag>}</div>
      {admin?.twoFactorEnabled ? (
        <>
          <RecoveryCodesPanel onRenewed={setRenewedCodes} />
          <Disable onDisabled={refresh} />
        </>
      ) : (
        <Setup onEnabled={setRecoveryCodes} />
      )}
    </Space>
  );
}
