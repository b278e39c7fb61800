import { Type, type Static } from '@sinclair/typebox';
import { ImagePath, LoginId } from './fields';
import { Id } from './ids';
import { IfVersion, Version } from './version';
import { BooleanFilter, PageQuery, TextFilter } from './paging';

export * from './values/user';

export const User = Type.Object(
  {
    _id: Id,
    loginId: Type.String(),
    nickname: Type.String(),
    avatar: Type.String(),
    mail: Type.String(),
    qq: Type.String(),
    wechat: Type.String(),
    intro: Type.String(),
    points: Type.Integer(),
    enabled: Type.Boolean(),
    reviewFirst: Type.Boolean({ description: '先审后发：其问答、评论须经审核台通过才公开' }),
    registerDate: Type.Integer({ description: 'epoch 毫秒' }),
    lastLoginDate: Type.Integer({ description: 'epoch 毫秒' }),
    version: Version,
  },
  { title: 'User' },
);
export type User = Static<typeof User>;

export const CreatedUser = Type.Composite(
  [User, Type.Object({ initialPassword: Type.Optional(Type.String({ description: '服务器生成的初始密码，只返回这一次' })) })],
  { title: 'CreatedUser' },
);
export type CreatedUser = Static<typeof CreatedUser>;

/** The author shown beside an issue or a comment. */
export const UserSummary = Type.Object({ _id: Id, nickname: Type.String(), avatar: Type.String() }, { title: 'UserSummary' });
export type UserSummary = Static<typeof UserSummary>;

export const UserImpact = Type.Object(
  {
    issues: Type.Integer({ description: '随用户一起删除的问答数' }),
    comments: Type.Integer({ description: '随用户一起删除的评论数（用户写的，以及别人在其问答下写的）' }),
  },
  { title: 'UserImpact' },
);
export type UserImpact = Static<typeof UserImpact>;

export const UserListQuery = Type.Object(
  {
    ...PageQuery,
    loginId: TextFilter('登录账号'),
    nickname: TextFilter('昵称'),
    enabled: BooleanFilter('账号状态：true 启用，false 禁用'),
  },
  { additionalProperties: false },
);
export type UserListQuery = Static<typeof UserListQuery>;

const profile = {
  avatar: Type.Optional(ImagePath),
  mail: Type.Optional(Type.String({ maxLength: 254, pattern: '^(|[^\\s@]+@[^\\s@]+\\.[^\\s@]+)$', description: '电子邮箱，可为空' })),
  qq: Type.Optional(Type.String({ maxLength: 12, pattern: '^(|[1-9][0-9]{4,11})$', description: 'QQ 号，可为空' })),
  wechat: Type.Optional(Type.String({ maxLength: 64 })),
  intro: Type.Optional(Type.String({ maxLength: 500 })),
  points: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000_000 })),
  enabled: Type.Optional(Type.Boolean()),
  loginPwd: Type.Optional(Type.String({ maxLength: 128, description: '为空则不设置（新增时由服务器生成）' })),
};

export const CreateUserBody = Type.Object(
  {
    loginId: LoginId,
    nickname: Type.Optional(Type.String({ maxLength: 32, description: '为空则为「新用户」加数字' })),
    ...profile,
  },
  { additionalProperties: false },
);
export type CreateUserBody = Static<typeof CreateUserBody>;

export const UpdateUserBody = Type.Object(
  {
    loginId: Type.Optional(LoginId),
    nickname: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })),
    ...profile,
    reviewFirst: Type.Optional(Type.Boolean({ description: '先审后发' })),
    ...IfVersion,
  },
  { additionalProperties: false },
);
export type UpdateUserBody = Static<typeof UpdateUserBody>;

export const UserLoginIdParams = Type.Object({ loginId: LoginId });
