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

/** An error: `code` repeats the real HTTP status and `msg` is fit to show an administrator. */
export const ErrorEnvelope = Type.Object(
  {
    success: Type.Literal(false),
    code: Type.Integer({ minimum: 400, maximum: 599 }),
    msg: Type.String({ minLength: 1 }),
    data: Type.Null(),
  },
  { title: 'ErrorEnvelope' },
);
export type ErrorEnvelope = Static<typeof ErrorEnvelope>;
