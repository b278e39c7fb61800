import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import svgCaptcha from 'svg-captcha';
import { ACCOUNT_MESSAGES, LOGIN_RESULTS } from '#contract/account';
import type { LoginTwoFactorBody } from '#contract/account';
import { AUTH_MESSAGES } from '#contract/auth';
import type { LoginAnswer, LoginBody, LoginResult } from '#contract/auth';
import { AUDIT_ACTIONS } from '#contract/audit';
import type { Db } from '../../db/client';
import { writeTransaction } from '../../db/write-lock';
import { canonicalLoginId } from '../../lib/account-names';
import { ERROR_CODES } from '#contract/envelope';
import { AppError, badRequest, forbidden, sessionEnded, unauthorized } from '../../lib/errors';

/** The second step's challenge is gone (expired, used up, unknown): the client starts over. */
const challengeExpired = () => new AppError(400, ACCOUNT_MESSAGES.challengeExpired, ERROR_CODES.challengeExpired);
import { hashPassword, verifyAgainstNothing, verifyLegacyMd5, verifyPassword } from '../../lib/passwords';
import type { Audit } from '../audit/audit';
import type { AdminRepository, AdminRow } from '../admin/admin.repository';
import { toAdmin } from '../admin/admin.service';
import type { AuthRepository } from './auth.repository';
import { createKeys, type Keys } from './keys';
import { totpStep } from './totp';
import type { TokenClaims } from './tokens';

export const CAPTCHA_LIFETIME_MS = 5 * 60 * 1000;
export const THROTTLE_WINDOW_MS = 15 * 60 * 1000;
export const THROTTLE_MAX_FAILURES = 5;
const DAY_MS = 24 * 60 * 60 * 1000;
export const CHALLENGE_LIFETIME_MS = 5 * 60 * 1000;
export const CHALLENGE_MAX_FAILURES = 5;
/** "Last seen" of a session is written at most this often. */
/** The `how` of a passkey sign-in: named in its 登录 entry, and its session satisfies require_2fa. */
export const PASSKEY_SIGN_IN = '通行密钥';
export const LAST_SEEN_EVERY_MS = 60 * 1000;
/** Sign-in records older than this are deleted. */
export const LOGIN_HISTORY_MS = 90 * DAY_MS;

/** Where a request comes from: kept with its session and its sign-in record. */
export interface ClientInfo {
  ip: string;
  userAgent: string;
}

const tooManyAttempts = () => new AppError(429, AUTH_MESSAGES.tooManyAttempts);

export interface AuthenticatedAdmin {
  id: string;
  loginId: string;
  nickname: string;
  avatar: string;
  permission: number;
  sessionId: string;
  twoFactorEnabled: boolean;
  /** This session began with a passkey (both factors at once): require2fa lets it through without TOTP. */
  signedInWithPasskey: boolean;
  /** require2fa is on and this admin has no two-step sign-in: only the setup calls are allowed. */
  mustSetUp2fa: boolean;
  /** Signed in with a generated password not yet changed: only whoami and the change are allowed. */
  mustChangePassword: boolean;
  /** This session proved who it is (sign-in, /me/reauth) within the re-authentication window. */
  freshProof: boolean;
}

/** The throttle keys of an attempt on an account: its canonical name and the caller's address. */
export function throttleKeys(loginId: string, ip: string) {
  const idKey = `id:${canonicalLoginId(loginId)}`;
  return { idKey, keys: [idKey, `ip:${ip}`] };
}

function hashChallenge(challenge: string): string {
  return createHash('sha256').update(challenge).digest('hex');
}

// svg-captcha's module is itself the "draw this text" function; its typings omit that.
const drawCaptcha = svgCaptcha as unknown as (text: string, options: object) => string;
const CAPTCHA_STYLE = { size: 4, noise: 2, color: true, background: '#f0f2f5', width: 120, height: 40, fontSize: 48 };
// No characters a person confuses with one another (i I l 1 0 O o, docs/api.md).
const CAPTCHA_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZabcdefghjkmnpqrstuvwxyz23456789';

function captchaText(): string {
  let text = '';
  for (let i = 0; i < CAPTCHA_STYLE.size; i++) text += CAPTCHA_ALPHABET[randomInt(CAPTCHA_ALPHABET.length)];
  return text;
}

function answerHash(captchaId: string, answer: string): string {
  return createHash('sha256').update(`${captchaId}:${answer.toLowerCase()}`).digest('hex');
}

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

export type AuthService = ReturnType<typeof createAuthService>;

export function createAuthService(deps: {
  db: Db;
  audit: Audit;
  repo: AuthRepository;
  admins: AdminRepository;
  jwtSecret: string | null;
  captchaTestAnswer: string | null;
  /** How long a proof of identity lets the actions that need one through (REAUTH_WINDOW_SECONDS). */
  reauthWindowMs: number;
  now?: () => number;
}) {
  const { repo, admins } = deps;
  const now = deps.now ?? Date.now;
  // Generated once and kept in the database, so every process signs and checks alike.
  let keys: Promise<Keys> | null = null;
  // The same keys once they are there, for the token check of every call to read without a promise.
  let loaded: Keys | null = null;
  const getKeys = () =>
    (keys ??= (
      deps.jwtSecret ? Promise.resolve(deps.jwtSecret) : repo.sharedSetting('jwt_secret', () => randomBytes(48).toString('base64url'))
    )
      .then(createKeys)
      .then(
        (made) => (loaded = made),
        (error: unknown) => {
          // A database that failed this once (restarting, say) is asked again by the next call,
          // instead of every call after it being refused until the process restarts.
          keys = null;
          throw error;
        },
      ));
  const getTokens = async () => (await getKeys()).tokens;
  // Sessions whose "last seen" this process wrote lately: the memoised session lookup may still
  // show the older time, and must not make every request write it again.
  const touched = new LRUCache<string, number>({ max: 10_000 });

  const record = (admin: { id: string }, client: ClientInfo, at: number, succeeded: boolean, result: string) =>
    repo.recordLogin(
      { adminId: admin.id, at, ip: client.ip, userAgent: client.userAgent.slice(0, 512), succeeded, result },
      at - LOGIN_HISTORY_MS,
    );

  /** Refuses at once (before any slow check) when the account or the address is already locked. */
  async function mustNotBeLocked(keys: string[], since: number) {
    const failures = await repo.countFailuresSince(keys, since);
    if (keys.some((key) => (failures.get(key) ?? 0) >= THROTTLE_MAX_FAILURES)) throw tooManyAttempts();
  }

  /** `how` (PASSKEY_SIGN_IN, 通行密钥) follows the account's name in the 登录 entry of a sign-in without a password. */
  async function startSession(admin: AdminRow, remember: boolean, client: ClientInfo, at: number, how?: string): Promise<LoginResult> {
    const lifetime = (remember ? 7 : 1) * DAY_MS;
    const sessionId = randomBytes(16).toString('hex');
    // The audit log's 登录 entry is written when a session really starts (after the second step
    // when there is one), in the session's own transaction.
    await deps.db.transaction(async (tx) => {
      await repo.createSession(
        {
          id: sessionId,
          adminId: admin.id,
          createdAt: at,
          expiresAt: at + lifetime,
          ip: client.ip,
          userAgent: client.userAgent.slice(0, 512),
          signedInWithPasskey: how === PASSKEY_SIGN_IN,
        },
        tx,
      );
      const title = how ? `${admin.loginId}（${how}）` : admin.loginId;
      await deps.audit.record(tx, admin, { action: AUDIT_ACTIONS.login, entity: 'session', entityId: admin.id, title });
    });
    const token = (await getTokens()).sign({ sub: admin.id, sid: sessionId }, lifetime);
    return { token, data: toAdmin(admin) };
  }

  type SessionAdmin = Awaited<ReturnType<AuthRepository['findSessionAdmin']>>;

  /** The admin of a live session (authenticate), with its "last seen" written if it is due. */
  function admitted(
    admin: SessionAdmin,
    claims: TokenClaims & { expiresAt: number },
    at: number,
  ): AuthenticatedAdmin | Promise<AuthenticatedAdmin> {
    // A session lives exactly as long as its token: one not found before the token's own end,
    // or whose admin is disabled or gone, was ended on the server, not run out.
    if (!admin?.enabled) throw at < claims.expiresAt ? sessionEnded() : unauthorized();
    const authenticated: AuthenticatedAdmin = {
      id: admin.id,
      loginId: admin.loginId,
      nickname: admin.nickname,
      avatar: admin.avatar,
      permission: admin.permission,
      sessionId: claims.sid,
      twoFactorEnabled: admin.twoFactorOn,
      signedInWithPasskey: admin.signedInWithPasskey,
      // A passkey is both factors: its session needs no TOTP; a password one of the same admin does.
      mustSetUp2fa: admin.require2fa === 'true' && !admin.twoFactorOn && !admin.signedInWithPasskey,
      mustChangePassword: admin.mustChangePassword,
      freshProof: admin.reauthAt !== null && admin.reauthAt <= at && at - admin.reauthAt < deps.reauthWindowMs,
    };
    // "Last seen": written once a minute per session at most, by a conditional update; the
    // lookup already read the time, so an ordinary request adds no statement.
    const seen = Math.max(admin.lastSeenAt ?? 0, touched.get(claims.sid) ?? 0);
    if (at - seen < LAST_SEEN_EVERY_MS) return authenticated;
    touched.set(claims.sid, at);
    return repo.touchSession(claims.sid, at, LAST_SEEN_EVERY_MS).then(() => authenticated);
  }

  const service = {
    async newCaptcha(previousId: string | null): Promise<{ id: string; svg: string }> {
      const id = randomBytes(16).toString('hex');
      const text = deps.captchaTestAnswer ?? captchaText();
      const svg = drawCaptcha(text, CAPTCHA_STYLE);
      const at = now();
      await repo.saveCaptcha({ id, answerHash: answerHash(id, text), expiresAt: at + CAPTCHA_LIFETIME_MS }, previousId, at);
      return { id, svg };
    },

    getKeys,

    /** Uses the captcha up, right or wrong; 400 验证码错误 unless `answer` was its answer and it is still valid. */
    async passCaptcha(captchaId: string | null, answer: string): Promise<void> {
      const at = now();
      const captcha = captchaId ? await repo.consumeCaptcha(captchaId) : null;
      if (!captcha || captcha.expiresAt <= at || !sameHash(captcha.answerHash, answerHash(captchaId!, answer))) {
        throw badRequest(AUTH_MESSAGES.wrongCaptcha);
      }
    },
    /** A session for an admin proved another way (a passkey): the token, row and 登录 entry of a sign-in. */
    startSession,

    /** Records a sign-in attempt in the account's history (GET /api/admin/me/logins). */
    recordLogin: record,

    /**
     * Runs a secret check of a signed-in admin (a current password, a TOTP code) under the login
     * throttle: refused at once when the account or address is locked, and a wrong answer counts
     * as a failed sign-in does. Answers whether the check passed.
     */
    async throttled(loginId: string, client: ClientInfo, check: () => Promise<boolean>): Promise<boolean> {
      const at = now();
      const { keys } = throttleKeys(loginId, client.ip);
      const since = at - THROTTLE_WINDOW_MS;
      await mustNotBeLocked(keys, since);
      const succeeded = await check();
      const outcome = await repo.settleAttempt({ keys, since, at, limit: THROTTLE_MAX_FAILURES, succeeded, clearKey: null });
      if (outcome === 'locked') throw tooManyAttempts();
      return succeeded;
    },

    async login(body: LoginBody, captchaId: string | null, client: ClientInfo): Promise<LoginAnswer> {
      const at = now();
      // Keyed by the canonical name: `ADMIN` and `аdmin` count against `admin`.
      const { idKey, keys } = throttleKeys(body.loginId, client.ip);
      const since = at - THROTTLE_WINDOW_MS;

      // Any attempt uses the captcha up, right or wrong. Only an attempt that passed it counts
      // against an account or an address: requests without a solved captcha cost an attacker
      // nothing, and must not lock anybody out.
      await service.passCaptcha(captchaId, body.captcha);
      // Refused before the (slow) password hash when already locked.
      await mustNotBeLocked(keys, since);

      const admin = await admins.findByLoginId(body.loginId);
      const passwordOk = !admin
        ? await verifyAgainstNothing(body.loginPwd)
        : admin.passwordLegacy
          ? // An imported account's md5 (docs/import.md); a wrong guess spends an argon2 check's
            // time as well, so the answer's timing does not tell such accounts apart.
            verifyLegacyMd5(admin.passwordHash, body.loginPwd) || (await verifyAgainstNothing(body.loginPwd))
          : await verifyPassword(admin.passwordHash, body.loginPwd);
      const succeeded = Boolean(admin && passwordOk);
      // The first proof of an imported password is the moment to replace its md5 for good.
      if (admin && succeeded && admin.passwordLegacy) {
        const passwordHash = await hashPassword(body.loginPwd);
        await writeTransaction(deps.db, ['admins'], (tx) => admins.replaceLegacyPassword(admin.id, passwordHash, tx));
      }
      // Attempts in flight are not failures; each counts once its password was checked. They
      // settle one at a time: once the limit is reached, the attempts still in flight learn
      // nothing of their password, so concurrent guesses get no more answers than sequential ones.
      // A right password does not clear the account's failures while a second step is to come:
      // wrong codes must keep counting however often the password is given again.
      const twoStep = Boolean(admin?.totpSecret);
      const outcome = await repo.settleAttempt({
        keys,
        since,
        at,
        limit: THROTTLE_MAX_FAILURES,
        succeeded,
        clearKey: twoStep ? null : idKey,
      });
      if (outcome === 'locked') {
        if (admin) await record(admin, client, at, false, LOGIN_RESULTS.locked);
        throw tooManyAttempts();
      }
      if (!admin || !succeeded) {
        if (admin) await record(admin, client, at, false, LOGIN_RESULTS.badPassword);
        throw unauthorized(AUTH_MESSAGES.badCredentials);
      }
      if (!admin.enabled) {
        await record(admin, client, at, false, LOGIN_RESULTS.frozen);
        throw forbidden(AUTH_MESSAGES.frozen);
      }

      if (twoStep) {
        // Not a token: random text whose hash names a row that lives 5 minutes, for one use.
        const challenge = randomBytes(32).toString('base64url');
        await repo.createChallenge(
          { idHash: hashChallenge(challenge), adminId: admin.id, remember: body.remember ?? false, expiresAt: at + CHALLENGE_LIFETIME_MS },
          at,
        );
        return { twoFactorRequired: true, challenge };
      }
      const result = await startSession(admin, body.remember ?? false, client, at);
      await record(admin, client, at, true, LOGIN_RESULTS.ok);
      return result;
    },

    /** The second step: the challenge of a right password with a TOTP code or a recovery code. */
    async loginTwoFactor(body: LoginTwoFactorBody, client: ClientInfo): Promise<LoginResult> {
      const at = now();
      if ((body.code === undefined) === (body.recoveryCode === undefined)) throw badRequest(ACCOUNT_MESSAGES.codeOrRecoveryCode);
      const idHash = hashChallenge(body.challenge);
      const challenge = await repo.findChallenge(idHash, at);
      if (!challenge) throw challengeExpired();
      const admin = await admins.findById(challenge.adminId);
      if (!admin?.totpSecret) throw challengeExpired();
      const { idKey, keys } = throttleKeys(admin.loginId, client.ip);
      const since = at - THROTTLE_WINDOW_MS;
      await mustNotBeLocked(keys, since);

      const keyring = await getKeys();
      let succeeded: boolean;
      if (body.code !== undefined) {
        const secret = keyring.open(admin.totpSecret);
        const step = secret === null ? null : totpStep(secret, body.code, at);
        // A step already used (the same code again, or an older one) is as wrong as a wrong code.
        succeeded = step !== null && (await writeTransaction(deps.db, ['admins'], (tx) => repo.claimTotpStep(admin.id, step, tx)));
      } else {
        succeeded = await repo.consumeRecoveryCode(admin.id, keyring.recoveryHash(admin.id, body.recoveryCode!));
      }
      const outcome = await repo.settleAttempt({ keys, since, at, limit: THROTTLE_MAX_FAILURES, succeeded, clearKey: idKey });
      if (outcome === 'locked') {
        await record(admin, client, at, false, LOGIN_RESULTS.locked);
        throw tooManyAttempts();
      }
      if (!succeeded) {
        await repo.failChallenge(idHash, CHALLENGE_MAX_FAILURES);
        await record(admin, client, at, false, body.code !== undefined ? LOGIN_RESULTS.badCode : LOGIN_RESULTS.badRecoveryCode);
        throw badRequest(body.code !== undefined ? ACCOUNT_MESSAGES.wrongCode : ACCOUNT_MESSAGES.wrongRecoveryCode);
      }
      // Single use: of two requests with one challenge, only the one that deletes it signs in.
      if (!(await repo.consumeChallenge(idHash))) throw challengeExpired();
      if (!admin.enabled) {
        await record(admin, client, at, false, LOGIN_RESULTS.frozen);
        throw forbidden(AUTH_MESSAGES.frozen);
      }
      const result = await startSession(admin, challenge.remember, client, at);
      await record(admin, client, at, true, body.code !== undefined ? LOGIN_RESULTS.ok : LOGIN_RESULTS.recoveryCodeUsed);
      return result;
    },

    /**
     * The live admin behind an Authorization header; 401 (thrown) for anything else. Every guarded
     * call runs this first, so the common case answers at once rather than as a promise: the keys
     * loaded and the session remembered (memoUntilWrite), it costs no turn of the microtask queue.
     */
    authenticate(authorization: string | undefined): AuthenticatedAdmin | Promise<AuthenticatedAdmin> {
      const match = authorization?.match(/^Bearer\s+(\S+)\s*$/i);
      if (!match) throw unauthorized();
      if (!loaded) return getKeys().then(() => service.authenticate(authorization));
      const claims = loaded.tokens.verify(match[1]);
      if (!claims) throw unauthorized();
      const at = now();
      const found = repo.findSessionAdmin(claims.sid, claims.sub, at);
      return found instanceof Promise ? found.then((admin) => admitted(admin, claims, at)) : admitted(found, claims, at);
    },

    async logout(admin: AuthenticatedAdmin): Promise<void> {
      await deps.db.transaction(async (tx) => {
        await repo.deleteSession(admin.sessionId, tx);
        await deps.audit.record(tx, admin, { action: AUDIT_ACTIONS.logout, entity: 'session', entityId: admin.id, title: admin.loginId });
      });
    },
  };
  return service;
}
