import { ProForm, ProFormRadio, ProFormText } from '@ant-design/pro-components';
import type { Rule } from 'antd/es/form';
import ImageUpload from '@/components/ImageUpload';
import PasswordStrength, { passwordRule } from '@/components/PasswordStrength';
import { adminIsExist } from '@/services/admin';
import type { Admin, CreateAdminBody, Permission, UpdateAdminBody } from '#contract/admin';
import { ADMIN_MIN_PASSWORD, ADMIN_PASSWORD_RULE } from '@/utils/password';
import { loginIdShape, loginIdShapeOk } from '@/utils/loginId';

/** The password must not contain the account or the nickname typed in the same form. */
const PASSWORD_FORBIDDEN_FIELDS = [
  { label: '账号', name: 'loginId' },
  { label: '昵称', name: 'nickname' },
];

const adminPasswordRule = passwordRule((get) => ({
  minLength: ADMIN_MIN_PASSWORD,
  forbidden: PASSWORD_FORBIDDEN_FIELDS.map(({ label, name }) => ({ label, value: get(name) as string | undefined })),
}));

export interface AdminFormValues {
  loginId: string;
  loginPwd: string;
  nickname: string;
  permission: Permission;
  avatar: string;
}

export const EMPTY_ADMIN_FORM: AdminFormValues = {
  loginId: '',
  loginPwd: '',
  nickname: '',
  permission: 2,
  avatar: '',
};

export const PERMISSION_OPTIONS = [
  { label: '普通管理员', value: 2 },
  { label: '超级管理员', value: 1 },
];

/** Empty optional fields are left out so that the server applies its defaults. */
export function toNewAdmin(values: AdminFormValues): CreateAdminBody {
  const admin: CreateAdminBody = { loginId: values.loginId.trim(), permission: values.permission };
  if (values.loginPwd) admin.loginPwd = values.loginPwd;
  const nickname = values.nickname.trim();
  if (nickname) admin.nickname = nickname;
  const avatar = values.avatar.trim();
  if (avatar) admin.avatar = avatar;
  return admin;
}

/** Only what changed goes out; an empty password means "keep the current one". */
export function toAdminChanges(values: AdminFormValues, current: Admin): UpdateAdminBody {
  const changes: UpdateAdminBody = {};
  const nickname = values.nickname.trim();
  if (nickname !== current.nickname) changes.nickname = nickname;
  const avatar = values.avatar.trim();
  if (avatar !== current.avatar) changes.avatar = avatar;
  if (values.permission !== current.permission) changes.permission = values.permission;
  if (values.loginPwd) changes.loginPwd = values.loginPwd;
  return changes;
}

const loginIdIsFree: Rule = {
  validateTrigger: 'onBlur',
  async validator(_, value: string | undefined) {
    const loginId = value?.trim();
    // A name the server refuses anyway is said by loginIdShape, not asked about.
    if (!loginId || !loginIdShapeOk(loginId)) return;
    let taken: boolean;
    try {
      taken = await adminIsExist(loginId);
    } catch {
      // The request layer has shown why the check failed; the server still refuses a duplicate.
      return;
    }
    if (taken) throw new Error('该管理员已经注册过了');
  },
};

interface AdminFormFieldsProps {
  mode: 'add' | 'edit';
  /** An admin cannot change their own permission (the server refuses it too). */
  permissionLocked?: boolean;
  /** One's own password is changed in 个人设置, with the current one (the server refuses it here). */
  ownAccount?: boolean;
}

/** The fields of the admin form, shared by the add page and the edit modal. */
export default function AdminFormFields({ mode, permissionLocked = false, ownAccount = false }: AdminFormFieldsProps) {
  const adding = mode === 'add';
  return (
    <>
      <ProFormText
        name="loginId"
        label="管理员账号"
        placeholder="请输入管理员账号"
        disabled={!adding}
        validateTrigger={['onChange', 'onBlur']}
        rules={
          adding
            ? [{ required: true, whitespace: true, message: '请输入管理员账号' }, loginIdShape('管理员账号'), loginIdIsFree]
            : undefined
        }
        fieldProps={{ autoComplete: 'off', maxLength: 64 }}
      />
      {ownAccount ? (
        <ProForm.Item label="管理员密码">修改自己的密码请到「个人设置 → 修改密码」</ProForm.Item>
      ) : (
        <ProFormText.Password
          name="loginPwd"
          label="管理员密码"
          placeholder={adding ? '密码可选，不填则自动生成' : '不修改密码请留空'}
          dependencies={['loginId', 'nickname']}
          rules={[adminPasswordRule]}
          extra={
            <>
              <div>{ADMIN_PASSWORD_RULE}</div>
              <PasswordStrength name="loginPwd" minLength={ADMIN_MIN_PASSWORD} forbiddenFields={PASSWORD_FORBIDDEN_FIELDS} />
            </>
          }
          fieldProps={{ autoComplete: 'new-password', maxLength: 128 }}
        />
      )}
      <ProFormText
        name="nickname"
        label="管理员昵称"
        placeholder={adding ? '昵称可选，默认是新增管理员' : '请输入管理员昵称'}
        rules={adding ? undefined : [{ required: true, whitespace: true, message: '昵称不能为空' }]}
        fieldProps={{ maxLength: 32 }}
      />
      <ProFormRadio.Group
        name="permission"
        label="权限选择"
        options={PERMISSION_OPTIONS}
        disabled={permissionLocked}
        extra={permissionLocked ? '不能修改自己的权限' : undefined}
        rules={[{ required: true, message: '请选择管理员权限' }]}
      />
      <ProForm.Item name="avatar" label="头像">
        <ImageUpload aspect={1} addressLabel="头像地址" />
      </ProForm.Item>
    </>
  );
}
