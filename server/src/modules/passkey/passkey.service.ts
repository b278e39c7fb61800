import { createHash, randomBytes } from 'node:crypto';
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { LOGIN_RESULTS } from '#contract/account';
import { AUDIT_ACTIONS, type AuditAction } from '#contract/audit';
import { AUTH_MESSAGES } from '#contract/auth';
import { ERROR_CODES } from '#contract/envelope';
import type { LoginResult } from '#contract/auth';
import {
  type AddPasskeyBody,
  type Passkey,
  PASSKEY_MAX_PER_ADMIN,
  PASSKEY_MESSAGES,
  type PasskeyAuthenticationResponse,
} from '#contract/passkey';
import type { Db } from '../../db/client';
import { AppError, badRequest, conflict, forbidden, isUniqueViolation, notFound, unauthorized } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { AdminRepository, AdminRow } from '../admin/admin.repository';
import type { Actor, Audit } from '../audit/audit';
import type { AuthRepository } from '../auth/auth.repository';
import {
  type AuthService,
  type ClientInfo,
  PASSKEY_SIGN_IN,
  THROTTLE_MAX_FAILURES,
  THROTTLE_WINDOW_MS,
  throttleKeys,
} from '../auth/auth.service';
import type { ChallengePurpose, PasskeyRepository, PasskeyRow } from './passkey.repository';

/** A challenge is answered within this time or not at all (the browser's own timeout is the same). */
export const PASSKEY_CHALLENGE_LIFETIME_MS = 2 * 60 * 1000;

/** The relying party a request is served as: its id (a host name) and the page origins it accepts. */
export interface RelyingParty {
  rpId: string;
  rpName: string;
  origins: string[];
}

const challengeExpired = () => new AppError(400, PASSKEY_MESSAGES.challengeExpired, ERROR_CODES.challengeExpired);
const rejected = () => unauthorized(PASSKEY_MESSAGES.rejected);
const tooManyAttempts = () => new AppError(429, AUTH_MESSAGES.tooManyAttempts);

const hashChallenge = (challenge: string) => createHash('sha256').update(challenge).digest('hex');

/** The challenge a browser's answer signed (in its clientDataJSON); null when it is not readable. */
function challengeOf(clientDataJSON: string): string | null {
  try {
    const data = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown };
    return typeof data.challenge === 'string' && data.challenge.length <= 256 ? data.challenge : null;
  } catch {
    return null;
  }
}

export function toPasskey(row: PasskeyRow): Passkey {
  return { _id: row.id, name: row.name, createdAt: row.createdAt, lastUsedAt: row.lastUsedAt, transports: row.transports };
}

export type PasskeyService = ReturnType<typeof createPasskeyService>;

/**
 * Passkeys (WebAuthn, through @simplewebauthn/server): an admin adds them in 个人设置 and signs in
 * with one instead of password, captcha and code; a passkey is both factors, so it must verify
 * its user (PIN, fingerprint). The reauthentication route takes one as a proof (verifyProof).
 */
export function createPasskeyService(deps: {
  db: Db;
  repo: PasskeyRepository;
  authRepo: AuthRepository;
  admins: AdminRepository;
  auth: AuthService;
  audit: Audit;
  now?: () => number;
}) {
  const { db, repo, authRepo, admins, auth, audit } = deps;
  const now = deps.now ?? Date.now;

  /** 32 random bytes (the library takes a string as text to encode, so they go to it as bytes). */
  async function newChallenge(purpose: ChallengePurpose, adminId: string | null): Promise<Uint8Array<ArrayBuffer>> {
    const at = now();
    const bytes = randomBytes(32);
    // Kept only as the hash of its base64url form, the form the browser's answer carries.
    const idHash = hashChallenge(bytes.toString('base64url'));
    await repo.saveChallenge({ idHash, purpose, adminId, expiresAt: at + PASSKEY_CHALLENGE_LIFETIME_MS }, at);
    return Uint8Array.from(bytes);
  }

  /**
   * Uses up the challenge an answer signed: it must be this server's, unexpired, made for this
   * purpose (and this admin). Deleted whatever the outcome, so an answer is never accepted twice.
   */
  async function mustConsume(clientDataJSON: string, purpose: ChallengePurpose, adminId: string | null): Promise<string> {
    const challenge = challengeOf(clientDataJSON);
    if (challenge === null) throw challengeExpired();
    const row = await repo.consumeChallenge(hashChallenge(challenge));
    if (!row || row.expiresAt <= now() || row.purpose !== purpose || row.adminId !== adminId) throw challengeExpired();
    return challenge;
  }

  /** Checks an assertion against a stored passkey; a broken or replayed one is false, not an error. */
  async function verifies(row: PasskeyRow, response: PasskeyAuthenticationResponse, challenge: string, rp: RelyingParty, at: number) {
    let newCounter: number;
    try {
      const result = await verifyAuthenticationResponse({
        response: response as AuthenticationResponseJSON,
        expectedChallenge: challenge,
        expectedOrigin: rp.origins,
        expectedRPID: rp.rpId,
        credential: {
          id: row.credentialId,
          publicKey: new Uint8Array(row.publicKey),
          counter: row.counter,
          transports: row.transports as never,
        },
        requireUserVerification: true,
      });
      if (!result.verified) return false;
      newCounter = result.authenticationInfo.newCounter;
    } catch {
      return false;
    }
    return repo.recordUse(row.id, newCounter, at);
  }

  async function record(tx: Db, actor: Actor, action: AuditAction, row: PasskeyRow, loginId: string) {
    await audit.record(tx, actor, { action, entity: 'admin', entityId: row.adminId, title: `${loginId}：${row.name}` });
  }

  return {
    async list(admin: { id: string }): Promise<Passkey[]> {
      return (await repo.listOf(admin.id)).map(toPasskey);
    },

    /** The options for navigator.credentials.create: a discoverable credential that verifies its user. */
    async registrationOptions(admin: { id: string; loginId: string; nickname: string }, rp: RelyingParty) {
      const existing = await repo.listOf(admin.id);
      const challenge = await newChallenge('register', admin.id);
      return generateRegistrationOptions({
        rpName: rp.rpName,
        rpID: rp.rpId,
        userName: admin.loginId,
        userDisplayName: admin.nickname,
        userID: new Uint8Array(Buffer.from(admin.id, 'hex')),
        challenge,
        timeout: PASSKEY_CHALLENGE_LIFETIME_MS,
        attestationType: 'none',
        // The browser refuses to make a second passkey on an authenticator that holds one already.
        excludeCredentials: existing.map((row) => ({ id: row.credentialId, transports: row.transports })),
        authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      });
    },

    async add(admin: Actor, body: AddPasskeyBody, rp: RelyingParty): Promise<Passkey> {
      const challenge = await mustConsume(body.response.response.clientDataJSON, 'register', admin.id);
      if ((await repo.countOf(admin.id)) >= PASSKEY_MAX_PER_ADMIN) throw badRequest(PASSKEY_MESSAGES.tooMany);
      let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
      try {
        verified = await verifyRegistrationResponse({
          response: body.response as RegistrationResponseJSON,
          expectedChallenge: challenge,
          expectedOrigin: rp.origins,
          expectedRPID: rp.rpId,
          requireUserVerification: true,
        });
      } catch {
        throw badRequest(PASSKEY_MESSAGES.rejected);
      }
      if (!verified.verified) throw badRequest(PASSKEY_MESSAGES.rejected);
      const { credential } = verified.registrationInfo;
      const at = now();
      const row: PasskeyRow = {
        id: newId(at),
        adminId: admin.id,
        credentialId: credential.id,
        publicKey: Buffer.from(credential.publicKey),
        counter: credential.counter,
        transports: (credential.transports ?? body.response.response.transports ?? []).slice(0, 10),
        name: body.name.trim(),
        createdAt: at,
        lastUsedAt: null,
      };
      try {
        await db.transaction(async (tx) => {
          await repo.insert(row, tx);
          await record(tx, admin, AUDIT_ACTIONS.passkeyAdd, row, admin.loginId);
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(PASSKEY_MESSAGES.duplicate);
        throw error;
      }
      return toPasskey(row);
    },

    async rename(admin: Actor, id: string, name: string): Promise<Passkey> {
      const renamed = await db.transaction(async (tx) => {
        const row = await repo.rename(admin.id, id, name.trim(), tx);
        if (row) await record(tx, admin, AUDIT_ACTIONS.passkeyRename, row, admin.loginId);
        return row;
      });
      if (!renamed) throw notFound(PASSKEY_MESSAGES.notFound);
      return toPasskey(renamed);
    },

    async remove(admin: Actor, id: string): Promise<void> {
      const removed = await db.transaction(async (tx) => {
        const row = await repo.remove(admin.id, id, tx);
        if (row) await record(tx, admin, AUDIT_ACTIONS.passkeyRemove, row, admin.loginId);
        return row;
      });
      if (!removed) throw notFound(PASSKEY_MESSAGES.notFound);
    },

    /** Options for a sign-in without an account name: the browser offers the passkeys it holds for this site. */
    async signInOptions(rp: RelyingParty) {
      const challenge = await newChallenge('signin', null);
      return generateAuthenticationOptions({
        rpID: rp.rpId,
        challenge,
        timeout: PASSKEY_CHALLENGE_LIFETIME_MS,
        userVerification: 'required',
      });
    },

    /**
     * A passkey sign-in: a normal session, as POST /api/admin/login makes one. Under the sign-in
     * throttle (by address, and by account once the passkey names one); a failure counts as a
     * wrong password does.
     */
    async signIn(response: PasskeyAuthenticationResponse, remember: boolean, client: ClientInfo, rp: RelyingParty): Promise<LoginResult> {
      const at = now();
      const since = at - THROTTLE_WINDOW_MS;
      const ipKeys = [`ip:${client.ip}`];
      const mustNotBeLocked = async (keys: string[]) => {
        const failures = await authRepo.countFailuresSince(keys, since);
        if (keys.some((key) => (failures.get(key) ?? 0) >= THROTTLE_MAX_FAILURES)) throw tooManyAttempts();
      };
      await mustNotBeLocked(ipKeys);
      const challenge = await mustConsume(response.response.clientDataJSON, 'signin', null);
      const row = await repo.findByCredentialId(response.id);
      const admin: AdminRow | null = row ? await admins.findById(row.adminId) : null;
      const { idKey, keys } = admin ? throttleKeys(admin.loginId, client.ip) : { idKey: null, keys: ipKeys };
      if (admin) await mustNotBeLocked(keys);
      const succeeded = Boolean(row && admin && (await verifies(row, response, challenge, rp, at)));
      const outcome = await authRepo.settleAttempt({ keys, since, at, limit: THROTTLE_MAX_FAILURES, succeeded, clearKey: idKey });
      if (outcome === 'locked') {
        if (admin) await auth.recordLogin(admin, client, at, false, LOGIN_RESULTS.locked);
        throw tooManyAttempts();
      }
      if (!admin || !succeeded) {
        if (admin) await auth.recordLogin(admin, client, at, false, LOGIN_RESULTS.badPasskey);
        throw rejected();
      }
      if (!admin.enabled) {
        await auth.recordLogin(admin, client, at, false, LOGIN_RESULTS.frozen);
        throw forbidden(AUTH_MESSAGES.frozen);
      }
      const result = await auth.startSession(admin, remember, client, at, PASSKEY_SIGN_IN);
      await auth.recordLogin(admin, client, at, true, LOGIN_RESULTS.passkey);
      return result;
    },

    /** Options for proving the signed-in admin's identity with one of its own passkeys (re-authentication). */
    async proofOptions(admin: { id: string }, rp: RelyingParty) {
      const own = await repo.listOf(admin.id);
      const challenge = await newChallenge('proof', admin.id);
      return generateAuthenticationOptions({
        rpID: rp.rpId,
        challenge,
        timeout: PASSKEY_CHALLENGE_LIFETIME_MS,
        userVerification: 'required',
        allowCredentials: own.map((row) => ({ id: row.credentialId, transports: row.transports })),
      });
    },

    /**
     * Whether `response` proves that `admin` is at the keyboard: an assertion of one of its own
     * passkeys over a proof challenge made for it (proofOptions), unexpired and used once. Counted
     * by the sign-in throttle like a current password; 429 when the account or address is locked.
     */
    async verifyProof(
      admin: { id: string; loginId: string },
      response: PasskeyAuthenticationResponse,
      client: ClientInfo,
      rp: RelyingParty,
    ): Promise<boolean> {
      const challenge = await mustConsume(response.response.clientDataJSON, 'proof', admin.id);
      return auth.throttled(admin.loginId, client, async () => {
        const row = await repo.findByCredentialId(response.id);
        return Boolean(row && row.adminId === admin.id && (await verifies(row, response, challenge, rp, now())));
      });
    },
  };
}
