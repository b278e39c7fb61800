import { Type, type Static } from '@sinclair/typebox';
import { Id } from './ids';
import { PASSKEY_NAME_MAX } from './values/passkey';

export * from './values/passkey';

// WebAuthn's JSON forms (what @simplewebauthn/browser gives and takes), as far as this server reads them.
const B64 = (maxLength: number) => Type.String({ minLength: 1, maxLength, pattern: '^[A-Za-z0-9_-]+$' });
const CredentialId = B64(1400);
const ExtensionResults = Type.Object({}, { additionalProperties: true });
const Attachment = Type.Optional(Type.String({ maxLength: 32 }));

/** The options a browser hands to navigator.credentials.create/get; the server's challenge among them. */
const PublicKeyOptions = (title: string, description: string) =>
  Type.Object({ challenge: Type.String(), rpId: Type.Optional(Type.String()) }, { title, description, additionalProperties: true });

export const PasskeyCreationOptions = PublicKeyOptions(
  'PasskeyCreationOptions',
  'PublicKeyCredentialCreationOptionsJSON（2 分钟内有效，只能用一次）',
);
export const PasskeyRequestOptions = PublicKeyOptions(
  'PasskeyRequestOptions',
  'PublicKeyCredentialRequestOptionsJSON（2 分钟内有效，只能用一次）',
);

/** The browser's answer to navigator.credentials.create (RegistrationResponseJSON). */
export const PasskeyRegistrationResponse = Type.Object(
  {
    id: CredentialId,
    rawId: CredentialId,
    type: Type.Literal('public-key'),
    response: Type.Object({
      clientDataJSON: B64(4096),
      attestationObject: B64(32_768),
      authenticatorData: Type.Optional(B64(16_384)),
      transports: Type.Optional(Type.Array(Type.String({ maxLength: 32 }), { maxItems: 10 })),
      publicKeyAlgorithm: Type.Optional(Type.Integer({ minimum: -65_536, maximum: 65_536 })),
      publicKey: Type.Optional(B64(4096)),
    }),
    authenticatorAttachment: Attachment,
    clientExtensionResults: ExtensionResults,
  },
  { title: 'PasskeyRegistrationResponse' },
);
export type PasskeyRegistrationResponse = Static<typeof PasskeyRegistrationResponse>;

/** The browser's answer to navigator.credentials.get (AuthenticationResponseJSON). */
export const PasskeyAuthenticationResponse = Type.Object(
  {
    id: CredentialId,
    rawId: CredentialId,
    type: Type.Literal('public-key'),
    response: Type.Object({
      clientDataJSON: B64(4096),
      authenticatorData: B64(16_384),
      signature: B64(1024),
      userHandle: Type.Optional(B64(256)),
    }),
    authenticatorAttachment: Attachment,
    clientExtensionResults: ExtensionResults,
  },
  { title: 'PasskeyAuthenticationResponse' },
);
export type PasskeyAuthenticationResponse = Static<typeof PasskeyAuthenticationResponse>;

// Not only spaces: the server keeps the name trimmed.
const PasskeyName = Type.String({
  minLength: 1,
  maxLength: PASSKEY_NAME_MAX,
  pattern: '\\S',
  description: `名称，1 到 ${PASSKEY_NAME_MAX} 个字符`,
});

/** POST /api/admin/me/passkeys: the answer to the creation options, with the name the admin gave. */
export const AddPasskeyBody = Type.Object({ name: PasskeyName, response: PasskeyRegistrationResponse }, { additionalProperties: false });
export type AddPasskeyBody = Static<typeof AddPasskeyBody>;

/** PATCH /api/admin/me/passkeys/:id. */
export const RenamePasskeyBody = Type.Object({ name: PasskeyName }, { additionalProperties: false });
export type RenamePasskeyBody = Static<typeof RenamePasskeyBody>;

/** POST /api/admin/login/passkey. */
export const PasskeyLoginBody = Type.Object(
  { response: PasskeyAuthenticationResponse, remember: Type.Optional(Type.Boolean({ default: false })) },
  { additionalProperties: false },
);
export type PasskeyLoginBody = Static<typeof PasskeyLoginBody>;

/** One of the signed-in admin's passkeys. */
export const Passkey = Type.Object(
  {
    _id: Id,
    name: Type.String(),
    createdAt: Type.Integer({ description: 'epoch 毫秒' }),
    // One schema of two types, not a union (see NullableRefId in ids.ts).
    lastUsedAt: Type.Unsafe<number | null>({
      type: ['integer', 'null'],
      description: '最近一次用它登录或验证的时间（epoch 毫秒）；从未用过为 null',
    }),
    transports: Type.Array(Type.String(), { description: '浏览器与认证器的连接方式，如 internal、usb、hybrid' }),
  },
  { title: 'Passkey' },
);
export type Passkey = Static<typeof Passkey>;
