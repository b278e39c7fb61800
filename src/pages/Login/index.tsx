import { KeyOutlined, LockOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
import { history, useModel } from '@umijs/max';
import { Button, Checkbox, Form, Input, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { describeRequestError, errorStatus } from '@/requestErrorConfig';
import { login } from '@/services/admin';
import { isBrowserRefusal, signInWithPasskey } from '@/services/passkey';
import type { LoginBody, LoginResult } from '#contract/auth';
import { message } from '@/utils/feedback';
import { safeRedirect, saveToken, toInitialState } from '@/utils/session';
import styles from './index.less';
import TwoFactorStep from './TwoFactorStep';
import { useCaptcha } from './useCaptcha';
import { passkeysHere } from '@/utils/passkeyHere';

/** The text for each refusal of POST /api/admin/login (docs/screens.md "/login"). */
function loginFailureMessage(error: unknown): string {
  switch (errorStatus(error)) {
    case 401:
      return '账号或密码不正确';
    case 403:
      return '该账号已经被冻结，请联系管理员';
    default:
      // 400 (captcha), 429 (too many attempts) and everything else: the server's or transport's text.
      return describeRequestError(error);
  }
}

export default function Login() {
  const [form] = Form.useForm<LoginBody>();
  const [submitting, setSubmitting] = useState(false);
  const { initialState, setInitialState } = useModel('@@initialState');
  const captcha = useCaptcha();
  const [destination, setDestination] = useState<string>();
  // Set when the password step answered with a challenge: the second step shows (TwoFactorStep).
  const [challenge, setChallenge] = useState<string>();

  // Leave only once the new session has reached the access flags: the layout works out a
  // route's access when it first renders it and would otherwise show 403 until the next move.
  useEffect(() => {
    if (destination && initialState?.adminInfo) history.push(destination);
  }, [destination, initialState]);

  const signIn = async (result: LoginResult) => {
    saveToken(result.token);
    await setInitialState(toInitialState(result.data));
    // What earlier attempts said (验证码错误, ...) is over: it must not follow the admin to /home.
    message.destroy();
    message.success('登录成功');
    setDestination(safeRedirect(new URLSearchParams(history.location.search).get('redirect')));
  };

  // The challenge is spent or given up: the password step again, with a new captcha.
  const restart = () => {
    setChallenge(undefined);
    form.setFieldValue('captcha', '');
    captcha.reload();
  };

  // A passkey is both factors: no account, password, captcha or code (docs/screens.md "/login").
  const [passkeyBusy, setPasskeyBusy] = useState(false);
  // Not offered where it cannot work: an old browser, or the page opened by an IP address.
  const [passkeysSupported] = useState(() => passkeysHere() === 'ok');
  const onPasskey = async () => {
    setPasskeyBusy(true);
    let result: LoginResult;
    try {
      result = await signInWithPasskey(form.getFieldValue('remember') ?? true);
    } catch (error) {
      message.error(
        isBrowserRefusal(error)
          ? '没有完成通行密钥登录（已取消、超时或本设备没有可用的通行密钥）'
          : errorStatus(error) === 401
            ? '通行密钥验证失败'
            : loginFailureMessage(error),
      );
      setPasskeyBusy(false);
      return;
    }
    await signIn(result);
  };

  const onFinish = async (values: LoginBody) => {
    setSubmitting(true);
    try {
      const answer = await login({ ...values, loginId: values.loginId.trim() });
      if ('twoFactorRequired' in answer) {
        setChallenge(answer.challenge);
        setSubmitting(false);
        return;
      }
      await signIn(answer);
    } catch (error) {
      message.error(loginFailureMessage(error));
      // Every attempt uses the captcha up on the server, whatever the answer.
      form.setFieldValue('captcha', '');
      captcha.reload();
      setSubmitting(false);
    }
  };

  return (
    <div className={styles.page}>
      {/* A plain box rather than antd's Card, which brings Tabs and Menu into the login bundle. */}
      <main className={styles.card}>
        <div className={styles.header}>
          <img src="/logo.svg" alt="" width={48} height={48} />
          <h1 className={styles.title}>coder station 后台管理系统</h1>
        </div>
        {challenge ? <TwoFactorStep challenge={challenge} onSignedIn={signIn} onRestart={restart} /> : null}
        {/* Hidden, not removed, during the second step: 返回 finds what was typed. */}
        <Form<LoginBody>
          form={form}
          name="login"
          hidden={challenge !== undefined}
          size="large"
          initialValues={{ loginId: '', loginPwd: '', captcha: '', remember: true }}
          onFinish={onFinish}
        >
          <Form.Item name="loginId" rules={[{ required: true, whitespace: true, message: '请输入账号' }]}>
            <Input prefix={<UserOutlined />} placeholder="请输入账号" autoComplete="username" />
          </Form.Item>
          <Form.Item name="loginPwd" rules={[{ required: true, message: '请输入密码' }]}>
            <Input.Password prefix={<LockOutlined />} placeholder="请输入密码" autoComplete="current-password" />
          </Form.Item>
          <Form.Item required>
            <div className={styles.captchaRow}>
              <Form.Item name="captcha" noStyle rules={[{ required: true, whitespace: true, message: '请输入验证码' }]}>
                <Input prefix={<SafetyOutlined />} placeholder="请输入验证码" autoComplete="off" />
              </Form.Item>
              <button
                type="button"
                className={styles.captcha}
                title="看不清？点击换一张"
                aria-label="验证码，点击换一张"
                onClick={captcha.reload}
              >
                {captcha.src ? (
                  <img src={captcha.src} alt="" />
                ) : captcha.loading ? (
                  <Spin size="small" />
                ) : (
                  <span className={styles.captchaHint}>{captcha.failed ? '加载失败，点击重试' : ''}</span>
                )}
              </button>
            </div>
          </Form.Item>
          <Form.Item name="remember" valuePropName="checked">
            <Checkbox>7天免登录</Checkbox>
          </Form.Item>
          <Form.Item style={{ marginBottom: 0 }}>
            <Button type="primary" htmlType="submit" block loading={submitting}>
              登录
            </Button>
          </Form.Item>
          {passkeysSupported ? (
            <Form.Item style={{ margin: '12px 0 0' }}>
              <Button block icon={<KeyOutlined />} loading={passkeyBusy} disabled={submitting} onClick={onPasskey}>
                使用通行密钥登录
              </Button>
            </Form.Item>
          ) : null}
        </Form>
      </main>
    </div>
  );
}
