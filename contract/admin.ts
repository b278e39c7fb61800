import { Type, type Static } from '@sinclair/typebox';
import { ImagePath, IntegerOf, LoginId } from './fields';
import { Id } from './ids';
import { IfVersion, Version } from './version';

export * from './values/admin';

export const Permission = Type.Union([Type.Literal(1), Type.Literal(2)], {
  description: '1 超级管理员，2 普通管理员',
});
export type Permission = Static<typeof Permission>;
/** The same, as answers carry it (see IntegerOf). */
const AnsweredPermission = IntegerOf<Permission>([1, 2], { description: Permission.description });

export const Admin = Type.Object(
  {
    _id: Id,
    loginId: Type.String(),
    nickname: Type.String(),
    avatar: Type.String(),
    permission: AnsweredPermission,
    enabled: Type.Boolean(),
    createdAt: Type.Integer({ description: 'epoch 毫秒' }),
    twoFactorEnabled: Type.Optional(Type.Boolean({ description: '是否已开启两步验证（服务器总会给出）' })),
    version: Version,
  },
  { title: 'Admin' },
);
export type Admin = Static<typeof Admin>;

export const CreatedAdmin = Type.Composite(
  [Admin, Type.Object({ initialPassword: Type.Optional(Type.String({ description: '服务器生成的初始密码，只返回这一次' })) })],
  { title: 'CreatedAdmin' },
);
export type CreatedAdmin = Static<typeof CreatedAdmin>;

export const WhoAmI = Type.Composite(
  [
    Type.Pick(Admin, ['_id', 'loginId', 'nickname', 'avatar', 'permission']),
    Type.Object({
      twoFactorEnabled: Type.Optional(Type.Boolean({ description: '是否已开启两步验证' })),
      mustSetUp2fa: Type.Optional(
        Type.Boolean({ description: 'true：系统要求两步验证而本人尚未开启，除开启两步验证外的操作都会被拒绝（403）' }),
      ),
      mustChangePassword: Type.Optional(
        Type.Boolean({ description: 'true：以生成的初始密码登录，修改密码前其他操作都会被拒绝（403 PASSWORD_CHANGE_REQUIRED）' }),
      ),
      timeZone: Type.Optional(Type.String({ description: '安装的时区（IANA 名称，服务器的 TIME_ZONE）：界面与导出的时间都按它显示' })),
    }),
  ],
  { title: 'WhoAmI' },
);
export type WhoAmI = Static<typeof WhoAmI>;

export const CreateAdminBody = Type.Object(
  {
    loginId: LoginId,
    loginPwd: Type.Optional(Type.String({ maxLength: 128 })),
    nickname: Type.Optional(Type.String({ maxLength: 32 })),
    avatar: Type.Optional(ImagePath),
    permission: Permission,
  },
  { additionalProperties: false },
);
export type CreateAdminBody = Static<typeof CreateAdminBody>;

export const UpdateAdminBody = Type.Object(
  {
    nickname: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })),
    avatar: Type.Optional(ImagePath),
    permission: Type.Optional(Permission),
    enabled: Type.Optional(Type.Boolean()),
    loginPwd: Type.Optional(Type.String({ maxLength: 128 })),
    ...IfVersion,
  },
  { additionalProperties: false },
);
export type UpdateAdminBody = Static<typeof UpdateAdminBody>;

export const LoginIdParams = Type.Object({ loginId: LoginId });
