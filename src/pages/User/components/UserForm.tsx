import { ProForm, ProFormSwitch, ProFormText, ProFormTextArea } from '@ant-design/pro-components';
import type { Rule } from 'antd/es/form';
import ImageUpload from '@/components/ImageUpload';
import PasswordStrength from '@/components/PasswordStrength';
import { userIsExist } from '@/services/user';
import type { CreateUserBody, UpdateUserBody, User } from '#contract/user';
import { loginIdShape, loginIdShapeOk } from '@/utils/loginId';

export interface UserFormValues {
  loginId: string;
  loginPwd: string;
  nickname: string;
  avatar: string;
  mail: string;
  qq: string;
  wechat: string;
  intro: string;
  /** 先审后发 (edit only): the member's questions and comments wait for 审核台. */
  reviewFirst: boolean;
}

export const EMPTY_USER_FORM: UserFormValues = {
  loginId: '',
  loginPwd: '',
  nickname: '',
  avatar: '',
  mail: '',
  qq: '',
  wechat: '',
  intro: '',
  reviewFirst: false,
};

/** The profile fields an administrator may edit; the account itself stays as registered. */
const PROFILE_FIELDS = ['nickname', 'avatar', 'mail', 'qq', 'wechat', 'intro'] as const;

/** The server's own minimum, checked here too so that the form says it before sending. */
const MIN_PASSWORD_LENGTH = 6;

export function toUserForm(user: User): UserFormValues {
  return {
    loginId: user.loginId,
    loginPwd: '',
    nickname: user.nickname,
    avatar: user.avatar,
    mail: user.mail,
    qq: user.qq,
    wechat: user.wechat,
    intro: user.intro,
    reviewFirst: user.reviewFirst,
  };
}

/** Empty optional fields are left out so that the server applies its defaults. */
export function toNewUser(values: UserFormValues): CreateUserBody {
  const user: CreateUserBody = { loginId: values.loginId.trim() };
  if (values.loginPwd) user.loginPwd = values.loginPwd;
  for (const field of PROFILE_FIELDS) {
    const value = (values[field] ?? '').trim();
    if (value) user[field] = value;
  }
  return user;
}

/** Only what changed goes out; an empty password means "keep the current one". */
export function toUserChanges(values: UserFormValues, current: User): UpdateUserBody {
  const changes: UpdateUserBody = {};
  for (const field of PROFILE_FIELDS) {
    const value = (values[field] ?? '').trim();
    if (value !== current[field]) changes[field] = value;
  }
  if (values.loginPwd) changes.loginPwd = values.loginPwd;
  if (Boolean(values.reviewFirst) !== current.reviewFirst) changes.reviewFirst = Boolean(values.reviewFirst);
  return changes;
}

const loginIdIsFree: Rule = {
  validateTrigger: 'onBlur',
  async validator(_, value: string | undefined) {
    const loginId = value?.trim();
    if (!loginId || !loginIdShapeOk(loginId)) return;
    let taken: boolean;
    try {
      taken = await userIsExist(loginId);
    } catch {
      // The request layer has shown why the check failed; the server still refuses a duplicate.
      return;
    }
    if (taken) throw new Error('该用户已存在');
  },
};

/** The fields of the user form, shared by the add and the edit page. */
export default function UserFormFields({ mode }: { mode: 'add' | 'edit' }) {
  const adding = mode === 'add';
  return (
    <>
      <ProFormText
        name="loginId"
        label="登录账号"
        placeholder="请输入登录账号"
        disabled={!adding}
        validateTrigger={['onChange', 'onBlur']}
        rules={
          adding ? [{ required: true, whitespace: true, message: '请输入登录账号' }, loginIdShape('登录账号'), loginIdIsFree] : undefined
        }
        fieldProps={{ autoComplete: 'off', maxLength: 64 }}
      />
      <ProFormText.Password
        name="loginPwd"
        label="登录密码"
        placeholder={adding ? '密码可选，不填则自动生成' : '不修改密码请留空'}
        rules={[{ min: MIN_PASSWORD_LENGTH, message: `密码长度至少 ${MIN_PASSWORD_LENGTH} 位` }]}
        extra={
          <>
            <div>{`至少 ${MIN_PASSWORD_LENGTH} 个字符，不能是常见密码`}</div>
            <PasswordStrength name="loginPwd" minLength={MIN_PASSWORD_LENGTH} />
          </>
        }
        fieldProps={{ autoComplete: 'new-password', maxLength: 128 }}
      />
      <ProFormText
        name="nickname"
        label="用户昵称"
        placeholder={adding ? '昵称可选，默认是新用户加数字' : '请输入用户昵称'}
        rules={adding ? undefined : [{ required: true, whitespace: true, message: '请输入用户昵称' }]}
        fieldProps={{ maxLength: 32 }}
      />
      <ProForm.Item name="avatar" label="头像">
        <ImageUpload addressLabel="头像地址" aspect={1} />
      </ProForm.Item>
      <ProFormText
        name="mail"
        label="用户邮箱"
        placeholder="选填"
        rules={[{ type: 'email', message: '请输入正确的邮箱地址' }]}
        fieldProps={{ maxLength: 254 }}
      />
      <ProFormText
        name="qq"
        label="QQ号码"
        placeholder="选填"
        rules={[{ pattern: /^[1-9]\d{4,11}$/, message: 'QQ号码应为 5 到 12 位数字' }]}
        fieldProps={{ inputMode: 'numeric', maxLength: 12 }}
      />
      <ProFormText name="wechat" label="微信号" placeholder="选填" fieldProps={{ maxLength: 64 }} />
      <ProFormTextArea
        name="intro"
        label="自我介绍"
        placeholder="选填"
        fieldProps={{ maxLength: 500, showCount: true, autoSize: { minRows: 3, maxRows: 8 } }}
      />
      {!adding && <ProFormSwitch name="reviewFirst" label="先审后发" extra="开启后，该用户的问答和评论须在审核台通过后才公开" />}
    </>
  );
}
