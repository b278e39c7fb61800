import { Type, type Static, type TSchema, type TUnsafe } from '@sinclair/typebox';

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

/**
 * Machine-readable reasons beside an error's `msg`, for a client to act on without reading
 * Chinese text. A 401 carries one: the session ran out (or there was none), or it was ended on the
 * server (another admin ended it, the password was changed elsewhere, the account was disabled or
 * deleted) while its token was still good.
 */
export const ERROR_CODES = {
  sessionExpired: 'SESSION_EXPIRED',
  sessionEnded: 'SESSION_ENDED',
  /** 403: two-step sign-in is required and this admin has not set it up. */
  twoFactorSetupRequired: 'TWO_FACTOR_SETUP_REQUIRED',
  /** 400: the sign-in's second step has expired, been used up or is unknown. */
  challengeExpired: 'CHALLENGE_EXPIRED',
} as const;
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/**
 * An error: `code` repeats the real HTTP status and `msg` is fit to show an administrator;
 * `errorCode` (added later, so old clients ignore it) says why, where a client must tell cases apart.
 */
export const ErrorEnvelope = Type.Object(
  {
    success: Type.Literal(false),
    code: Type.Integer({ minimum: 400, maximum: 599 }),
    msg: Type.String({ minLength: 1 }),
    errorCode: Type.Optional(
      Type.Union(
        Object.values(ERROR_CODES).map((c) => Type.Literal(c)),
        {
          description:
            '机器可读的原因（401：SESSION_EXPIRED 登录过期 / SESSION_ENDED 登录已在其他地方被结束；403：TWO_FACTOR_SETUP_REQUIRED 需先开启两步验证；400：CHALLENGE_EXPIRED 两步验证已过期）',
        },
      ),
    ),
    data: Type.Null(),
  },
  { title: 'ErrorEnvelope' },
);
export type ErrorEnvelope = Static<typeof ErrorEnvelope>;
