import { Type, type Static } from '@sinclair/typebox';
import { PasskeyAuthenticationResponse } from './passkey';

export * from './values/trust';

/**
 * A record's version: 1 when created, one more on every write that changes it (users, books,
 * interviews, issues, types, admins). A PATCH that sends it is refused with 409 VERSION_CONFLICT
 * when the record has moved on; one without it overwrites (last write wins).
 */
export const Version = Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: '记录的版本号，每次修改加 1' });

/** The optional `version` of a PATCH body: the version the edit started from. */
export const IfVersion = {
  version: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 2_147_483_647,
      description: '编辑开始时读到的版本号；记录已被修改则 409 VERSION_CONFLICT，不修改任何内容',
    }),
  ),
};

/** One field changed since the client's version, by whom and when (from the audit log). */
export const ConflictChange = Type.Object(
  {
    field: Type.String(),
    before: Type.Optional(Type.Unknown()),
    after: Type.Optional(Type.Unknown()),
    note: Type.Optional(Type.String()),
    by: Type.String({ description: '修改者的账号' }),
    at: Type.Integer({ description: 'epoch 毫秒' }),
  },
  { title: 'ConflictChange' },
);
export type ConflictChange = Static<typeof ConflictChange>;

/** The `conflict` of a 409 VERSION_CONFLICT: what the record is now and what changed since. */
export const VersionConflict = Type.Object(
  {
    yourVersion: Type.Integer(),
    currentVersion: Type.Integer(),
    changes: Type.Array(ConflictChange, { description: '自该版本以来的修改，旧的在前' }),
    current: Type.Record(Type.String(), Type.Unknown(), { description: '记录现在的样子（与 GET 的回答相同）' }),
  },
  { title: 'VersionConflict' },
);
export type VersionConflict = Static<typeof VersionConflict>;

/** POST /api/admin/me/reauth: one proof, the password, (two-step sign-in on) a current code, or a passkey. */
export const ReauthBody = Type.Object(
  {
    password: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
    code: Type.Optional(Type.String({ pattern: '^[0-9]{6}$', description: '6 位动态验证码' })),
    passkey: Type.Optional(PasskeyAuthenticationResponse),
  },
  { additionalProperties: false },
);
export type ReauthBody = Static<typeof ReauthBody>;

export const ReauthResult = Type.Object(
  { validUntil: Type.Integer({ description: '这次验证到何时失效（epoch 毫秒）' }) },
  { title: 'ReauthResult' },
);
export type ReauthResult = Static<typeof ReauthResult>;
