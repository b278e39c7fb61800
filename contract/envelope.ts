import { Type, type Static, type TSchema, type TUnsafe } from '@sinclair/typebox';
import { ERROR_CODES } from './values/envelope';
import { VersionConflict } from './version';

/** `{ success: true, code: 0, msg: '', data }`: every successful JSON answer (docs/api.md "Conventions"). */
export const Envelope = <T extends TSchema>(data: T) =>
  Type.Object({
    success: Type.Literal(true),
    code: Type.Literal(0),
    msg: Type.String(),
    data,
  });

/** A success whose `data` is `T`; generic, so it is derived through a schema standing for `T`. */
export type Envelope<T> = Static<ReturnType<typeof Envelope<TUnsafe<T>>>>;

export * from './values/envelope';

/**
 * An error: `code` repeats the real HTTP status and `msg` is fit to show an administrator;
 * `errorCode` (added later, so old clients ignore it) says why, for a client to branch on: every
 * error has one (docs/api.md lists them).
 */
export const ErrorEnvelope = Type.Object(
  {
    success: Type.Literal(false),
    code: Type.Integer({ minimum: 400, maximum: 599 }),
    msg: Type.String({ minLength: 1 }),
    errorCode: Type.Union(
      Object.values(ERROR_CODES).map((c) => Type.Literal(c)),
      {
        description:
          '机器可读的原因，每个错误都有（如 401：SESSION_EXPIRED 登录过期 / SESSION_ENDED 登录已在其他地方被结束；403：TWO_FACTOR_SETUP_REQUIRED 需先开启两步验证；400：CHALLENGE_EXPIRED 两步验证已过期、VALIDATION_FAILED 参数不符合要求；完整列表见 docs/api.md）',
      },
    ),
    data: Type.Null(),
    conflict: Type.Optional(VersionConflict),
    reauthWindowSeconds: Type.Optional(
      Type.Integer({ minimum: 1, description: '403 REAUTH_REQUIRED：验证身份后多少秒内无需再次验证（REAUTH_WINDOW_SECONDS）' }),
    ),
  },
  { title: 'ErrorEnvelope' },
);
export type ErrorEnvelope = Static<typeof ErrorEnvelope>;
