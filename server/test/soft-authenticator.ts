import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A software passkey for the server tests: an ES256 key pair from node:crypto, a registration
 * with attestation 'none' and assertions built byte by byte as an authenticator would (WebAuthn
 * §6.1 authenticator data, §6.5.4 'none' attestation, CBOR by @simplewebauthn's own codec).
 */
export class SoftAuthenticator {
  readonly credentialId = randomBytes(16);
  counter = 0;
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;

  constructor(
    readonly rpId: string,
    readonly origin: string,
    /** Whether the authenticator says it verified its user (PIN, fingerprint). */
    readonly userVerified = true,
  ) {
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
  }

  get id(): string {
    return this.credentialId.toString('base64url');
  }

  private authenticatorData(rpId: string, attested: Uint8Array | null): Buffer {
    const flags = 0x01 | (this.userVerified ? 0x04 : 0) | (attested ? 0x40 : 0);
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.counter);
    return Buffer.concat([createHash('sha256').update(rpId).digest(), Buffer.from([flags]), counter, ...(attested ? [attested] : [])]);
  }

  /** The COSE_Key of the public key: kty EC2, alg ES256, crv P-256, x, y. */
  private coseKey(): Uint8Array {
    const jwk = this.publicKey.export({ format: 'jwk' });
    return isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, new Uint8Array(Buffer.from(jwk.x!, 'base64url'))],
        [-3, new Uint8Array(Buffer.from(jwk.y!, 'base64url'))],
      ]),
    );
  }

  private static clientData(type: string, challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** The answer to navigator.credentials.create with `options` (RegistrationResponseJSON). */
  register(options: { challenge: string }, overrides: { origin?: string; rpId?: string } = {}) {
    const length = Buffer.alloc(2);
    length.writeUInt16BE(this.credentialId.length);
    const attested = Buffer.concat([Buffer.alloc(16), length, this.credentialId, this.coseKey()]);
    const authData = this.authenticatorData(overrides.rpId ?? this.rpId, attested);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Uint8Array | Map<string, string>>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', new Uint8Array(authData)],
      ]),
    );
    const clientDataJSON = SoftAuthenticator.clientData('webauthn.create', options.challenge, overrides.origin ?? this.origin);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: clientDataJSON.toString('base64url'),
        attestationObject: Buffer.from(attestationObject).toString('base64url'),
        transports: ['internal'],
      },
      clientExtensionResults: {},
    };
  }

  /** The answer to navigator.credentials.get with `options` (AuthenticationResponseJSON); the counter goes up first. */
  assert(options: { challenge: string }, overrides: { origin?: string; rpId?: string; counter?: number; userHandle?: string } = {}) {
    this.counter = overrides.counter ?? this.counter + 1;
    const authData = this.authenticatorData(overrides.rpId ?? this.rpId, null);
    const clientDataJSON = SoftAuthenticator.clientData('webauthn.get', options.challenge, overrides.origin ?? this.origin);
    const signed = Buffer.concat([authData, createHash('sha256').update(clientDataJSON).digest()]);
    // ES256: ECDSA over SHA-256, DER-encoded as WebAuthn carries it (node's default for EC keys).
    const signature = sign('sha256', signed, this.privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: clientDataJSON.toString('base64url'),
        authenticatorData: authData.toString('base64url'),
        signature: signature.toString('base64url'),
        ...(overrides.userHandle && { userHandle: overrides.userHandle }),
      },
      clientExtensionResults: {},
    };
  }
}
