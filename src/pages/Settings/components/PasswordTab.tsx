import { ProForm, ProFormText } from '@ant-design/pro-components';
import { ACCOUNT_MESSAGES } from '#contract/values/account';
import { useModel } from '@umijs/max';
import { Form } from 'antd';
import PasswordStrength, { passwordRule } from '@/components/PasswordStrength';
import { changePassword } from '@/services/account';
import { message } from '@/utils/feedback';
import { ADMIN_MIN_PASSWORD, ADMIN_PASSWORD_RULE } from '@/utils/password';

interface PasswordValues {
  currentPassword: string;
  newPassword: string;
  confirm: string;
}

/** 修改密码: the server keeps this session and ends the others. */
export default function PasswordTab() {
  const { initialState, setInitialState } = useModel('@@initialState');
  const admin = initialState?.adminInfo;
  const [form] = Form.useForm<PasswordValues>();
  const forbidden = [
    { label: '账号', value: admin?.loginId },
    { label: '昵称', value: admin?.nickname },
  ];

  const onFinish = async ({ currentPassword, newPassword }: PasswordValues) => {
    try {
      await changePassword({ currentPassword, newPassword });
    } catch {
      // The request layer shows why (「当前密码不正确」, a common password...); the form stays filled.
      return false;
    }
    message.success('密码已修改，其他设备已退出登录');
    form.resetFields();
    // The initial password is gone: the rest of the back-office opens (PasswordChangeGuard).
    if (admin?.mustChangePassword) await setInitialState({ ...initialState, adminInfo: { ...admin, mustChangePassword: false } });
    return true;
  };

  return (
    <ProForm<PasswordValues>
      form={form}
      layout="horizontal"
      labelCol={{ span: 4 }}
      wrapperCol={{ span: 12 }}
      submitter={{
        searchConfig: { submitText: '修改密码' },
        resetButtonProps: false,
        render: (_, dom) => <div style={{ marginLeft: '16.66%' }}>{dom}</div>,
      }}
      onFinish={onFinish}
    >
      <ProFormText.Password
        name="currentPassword"
        label="当前密码"
        placeholder="请输入当前密码"
        rules={[{ required: true, message: '请输入当前密码' }]}
        fieldProps={{ autoComplete: 'current-password', maxLength: 128 }}
      />
      <ProFormText.Password
        name="newPassword"
        label="新密码"
        placeholder="请输入新密码"
        dependencies={['currentPassword']}
        rules={[
          { required: true, message: '请输入新密码' },
          passwordRule(() => ({ minLength: ADMIN_MIN_PASSWORD, forbidden })),
          ({ getFieldValue }) => ({
            async validator(_, value: string | undefined) {
              if (value && value === getFieldValue('currentPassword')) throw new Error(ACCOUNT_MESSAGES.newPasswordSame);
            },
          }),
        ]}
        extra={
          <>
            <div>{ADMIN_PASSWORD_RULE}</div>
            <PasswordStrength name="newPassword" minLength={ADMIN_MIN_PASSWORD} forbidden={forbidden} />
          </>
        }
        fieldProps={{ autoComplete: 'new-password', maxLength: 128 }}
      />
      <ProFormText.Password
        name="confirm"
        label="确认新密码"
        placeholder="请再次输入新密码"
        dependencies={['newPassword']}
        rules={[
          { required: true, message: '请再次输入新密码' },
          ({ getFieldValue }) => ({
            async validator(_, value: string | undefined) {
              if (value && value !== getFieldValue('newPassword')) throw new Error('两次输入的密码不一致');
            },
          }),
        ]}
        fieldProps={{ autoComplete: 'new-password', maxLength: 128 }}
      />
    </ProForm>
  );
}
