import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import svgCaptcha from 'svg-captcha';
import { AUTH_MESSAGES } from '../../../../contract/auth';
import type { LoginBody, LoginResult } from '../../../../contract/auth';
import { AUDIT_ACTIONS } from '../../../../contract/audit';
import type { Db } from '../../db/client';
import { AppError, badRequest, forbidden, unauthorized } from '../../lib/errors';
import type { Audit } from '../audit/audit';
import { hashPassword, verifyAgainstNothing, verifyLegacyMd5, verifyPassword } from '../../lib/passwords';
import type { AdminRepository } from '../admin/admin.repository';
import { toAdmin } from '../admin/admin.service';
import type { AuthRepository } from './auth.repository';
import { createTokens } from './tokens';

export const CAPTCHA_LIFETIME_MS = 5 * 60 * 1000;
export const THROTTLE_WINDOW_MS = 15 * 60 * 1000;
export const THROTTLE_MAX_FAILURES = 5;
const DAY_MS = 24 * 60 * 60 * 1000;

const tooManyAttempts = () => new AppError(429, AUTH_MESSAGES.tooManyAttempts);

export interface AuthenticatedAdmin {
  id: string;
  loginId: string;
  nickname: string;
  avatar: string;
  permission: number;
  sessionId: string;
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
  now?: () => number;
}) {
  const { repo, admins } = deps;
  const now = deps.now ?? Date.now;
  // Generated once and kept in the database, so every process signs and checks alike.
  let tokens: Promise<ReturnType<typeof createTokens>> | null = null;
  const getTokens = () =>
    (tokens ??= (
      deps.jwtSecret ? Promise.resolve(deps.jwtSecret) : repo.sharedSetting('jwt_secret', () => randomBytes(48).toString('base64url'))
    ).then(createTokens));

  return {
    async newCaptcha(previousId: string | null): Promise<{ id: string; svg: string }> {
      const id = randomBytes(16).toString('hex');
      const text = deps.captchaTestAnswer ?? captchaText();
      const svg = drawCaptcha(text, CAPTCHA_STYLE);
      const at = now();
      await repo.saveCaptcha({ id, answerHash: answerHash(id, text), expiresAt: at + CAPTCHA_LIFETIME_MS }, previousId, at);
      return { id, svg };
    },

    async login(body: LoginBody, captchaId: string | null, clientIp: string): Promise<LoginResult> {
      const at = now();
      const idKey = `id:${body.loginId.toLowerCase()}`;
      const ipKey = `ip:${clientIp}`;
      const keys = [idKey, ipKey];
      const since = at - THROTTLE_WINDOW_MS;

      // Any attempt uses the captcha up, right or wrong. Only an attempt that passed it counts
      // against an account or an address: requests without a solved captcha cost an attacker
      // nothing, and must not lock anybody out.
      const captcha = captchaId ? await repo.consumeCaptcha(captchaId) : null;
      if (!captcha || captcha.expiresAt <= at || !sameHash(captcha.answerHash, answerHash(captchaId!, body.captcha))) {
        throw badRequest(AUTH_MESSAGES.wrongCaptcha);
      }
      // Refused before the (slow) password hash when already locked.
      const failures = await repo.countFailuresSince(keys, since);
      if (keys.some((key) => (failures.get(key) ?? 0) >= THROTTLE_MAX_FAILURES)) throw tooManyAttempts();

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
      if (admin && succeeded && admin.passwordLegacy) await admins.replaceLegacyPassword(admin.id, await hashPassword(body.loginPwd));
      // Attempts in flight are not failures; each counts once its password was checked. They
      // settle one at a time: once the limit is reached, the attempts still in flight learn
      // nothing of their password, so concurrent guesses get no more answers than sequential ones.
      const outcome = await repo.settleAttempt({ keys, since, at, limit: THROTTLE_MAX_FAILURES, succeeded, clearKey: idKey });
      if (outcome === 'locked') throw tooManyAttempts();
      if (!admin || !succeeded) throw unauthorized(AUTH_MESSAGES.badCredentials);
      if (!admin.enabled) throw forbidden(AUTH_MESSAGES.frozen);

      const lifetime = (body.remember ? 7 : 1) * DAY_MS;
      const sessionId = randomBytes(16).toString('hex');
      await deps.db.transaction(async (tx) => {
        await repo.createSession({ id: sessionId, adminId: admin.id, createdAt: at, expiresAt: at + lifetime }, tx);
        await deps.audit.record(tx, admin, { action: AUDIT_ACTIONS.login, entity: 'session', entityId: admin.id, title: admin.loginId });
      });
      const token = (await getTokens()).sign({ sub: admin.id, sid: sessionId }, lifetime);
      return { token, data: toAdmin(admin) };
    },

    /** The live admin behind an Authorization header; 401 for anything else. */
    async authenticate(authorization: string | undefined): Promise<AuthenticatedAdmin> {
      const match = authorization?.match(/^Bearer\s+(\S+)\s*$/i);
      if (!match) throw unauthorized();
      const claims = (await getTokens()).verify(match[1]);
      if (!claims) throw unauthorized();
      const admin = await repo.findSessionAdmin(claims.sid, claims.sub, now());
      if (!admin?.enabled) throw unauthorized();
      return {
        id: admin.id,
        loginId: admin.loginId,
        nickname: admin.nickname,
        avatar: admin.avatar,
        permission: admin.permission,
        sessionId: claims.sid,
      };
    },

    async logout(admin: AuthenticatedAdmin): Promise<void> {
      await deps.db.transaction(async (tx) => {
        await repo.deleteSession(admin.sessionId, tx);
        await deps.audit.record(tx, admin, { action: AUDIT_ACTIONS.logout, entity: 'session', entityId: admin.id, title: admin.loginId });
      });
    },
  };
}
