/**
 * Admin and session calls for `npm run dev:mock`, following docs/api.md.
 *
 * Sign in as `admin` / `123456` (SuperAdmin) or `editor` / `123456` (NormalAdmin); `reviewer` is
 * disabled (403). The captcha always reads 「TEST」 and is accepted in any case. Five failed
 * logins for one account within 15 minutes answer 429.
 *
 * The fixed paths come before `/api/admin/:id`: the first matching handler answers.
 */
import { defineMock } from '@umijs/max';
import { randomBytes } from 'crypto';
import {
  bearerToken,
  bodyOf,
  CAPTCHA_TEXT,
  db,
  DEFAULT_AVATAR,
  fail,
  isObjectId,
  type MockAdmin,
  newToken,
  objectId,
  ok,
  publicAdmin,
  requireAdmin,
  revokeTokensOf,
  sessionAdmin,
  text,
} from './lib/store';

const FAILURE_WINDOW_MS = 15 * 60 * 1000;
const MAX_FAILURES = 5;

function recentFailures(loginId: string): number[] {
  const since = Date.now() - FAILURE_WINDOW_MS;
  const recent = (db.loginFailures.get(loginId) ?? []).filter((at) => at > since);
  db.loginFailures.set(loginId, recent);
  return recent;
}

function isPermission(value: unknown): value is 1 | 2 {
  return value === 1 || value === 2;
}

function enabledSuperAdmins(): MockAdmin[] {
  return db.admins.filter((a) => a.permission === 1 && a.enabled);
}

/** Would this change or removal leave no enabled super admin? */
function removesLastSuper(target: MockAdmin, after: Pick<MockAdmin, 'permission' | 'enabled'>) {
  const wasCounted = target.permission === 1 && target.enabled;
  const stillCounted = after.permission === 1 && after.enabled;
  return wasCounted && !stillCounted && enabledSuperAdmins().length <= 1;
}

function generatedPassword(): string {
  return randomBytes(9).toString('base64url');
}

export default defineMock({
  'POST /api/admin/login': (req, res) => {
    const body = bodyOf(req);
    const loginId = text(body.loginId);
    const loginPwd = typeof body.loginPwd === 'string' ? body.loginPwd : '';
    const captcha = text(body.captcha);
    if (!loginId) return fail(res, 400, 'loginId 不能为空');
    if (!loginPwd) return fail(res, 400, 'loginPwd 不能为空');
    if (recentFailures(loginId).length >= MAX_FAILURES) {
      return fail(res, 429, '登录尝试过于频繁，请稍后再试');
    }
    if (!captcha || captcha.toLowerCase() !== CAPTCHA_TEXT.toLowerCase()) {
      return fail(res, 400, '验证码错误');
    }
    const admin = db.admins.find((a) => a.loginId === loginId);
    if (!admin || admin.password !== loginPwd) {
      db.loginFailures.set(loginId, [...recentFailures(loginId), Date.now()]);
      return fail(res, 401, '账号或密码不正确');
    }
    if (!admin.enabled) return fail(res, 403, '该账号已经被冻结，请联系管理员');
    db.loginFailures.delete(loginId);
    return ok(res, { token: newToken(admin._id), data: publicAdmin(admin) });
  },

  'GET /api/admin/whoami': (req, res) => {
    const admin = sessionAdmin(req);
    if (!admin) return fail(res, 401, '登录过期，请重新登录');
    const { _id, loginId, nickname, avatar, permission } = admin;
    return ok(res, { _id, loginId, nickname, avatar, permission });
  },

  'POST /api/admin/logout': (req, res) => {
    if (!requireAdmin(req, res, 'normal')) return;
    const token = bearerToken(req);
    if (token) db.tokens.delete(token);
    return ok(res, null);
  },

  'GET /api/admin/adminIsExist/:loginId': (req, res) => {
    if (!requireAdmin(req, res, 'super')) return;
    return ok(res, db.admins.some((a) => a.loginId === req.params.loginId));
  },

  'GET /api/admin': (req, res) => {
    if (!requireAdmin(req, res, 'super')) return;
    return ok(res, db.admins.map(publicAdmin));
  },

  'POST /api/admin': (req, res) => {
    if (!requireAdmin(req, res, 'super')) return;
    const body = bodyOf(req);
    const loginId = text(body.loginId);
    if (!loginId) return fail(res, 400, 'loginId 不能为空');
    if (!isPermission(body.permission)) return fail(res, 400, 'permission 只能是 1 或 2');
    if (db.admins.some((a) => a.loginId === loginId)) {
      return fail(res, 409, '该管理员已经注册过了');
    }
    const givenPassword = typeof body.loginPwd === 'string' ? body.loginPwd : '';
    const password = givenPassword || generatedPassword();
    const createdAt = Date.now();
    const admin: MockAdmin = {
      _id: objectId(createdAt),
      loginId,
      nickname: text(body.nickname) ?? '新增管理员',
      avatar: text(body.avatar) ?? DEFAULT_AVATAR,
      permission: body.permission,
      enabled: true,
      createdAt,
      password,
    };
    db.admins.push(admin);
    const answer = givenPassword
      ? publicAdmin(admin)
      : { ...publicAdmin(admin), initialPassword: password };
    return ok(res, answer, 201);
  },

  'GET /api/admin/:id': (req, res) => {
    const me = requireAdmin(req, res, 'normal');
    if (!me) return;
    if (me.permission !== 1 && me._id !== req.params.id) {
      return fail(res, 403, '没有权限进行此操作');
    }
    const admin = db.admins.find((a) => a._id === req.params.id);
    if (!admin) return fail(res, 404, '管理员不存在');
    return ok(res, publicAdmin(admin));
  },

  'PATCH /api/admin/:id': (req, res) => {
    const me = requireAdmin(req, res, 'normal');
    if (!me) return;
    const admin = isObjectId(req.params.id)
      ? db.admins.find((a) => a._id === req.params.id)
      : undefined;
    const self = me._id === req.params.id;
    if (me.permission !== 1 && !self) return fail(res, 403, '没有权限进行此操作');
    if (!admin) return fail(res, 404, '管理员不存在');
    const body = bodyOf(req);
    if ('permission' in body && !isPermission(body.permission)) {
      return fail(res, 400, 'permission 只能是 1 或 2');
    }
    if ('enabled' in body && typeof body.enabled !== 'boolean') {
      return fail(res, 400, 'enabled 必须是布尔值');
    }
    const permission = isPermission(body.permission) ? body.permission : admin.permission;
    const enabled = typeof body.enabled === 'boolean' ? body.enabled : admin.enabled;
    const changesRights = permission !== admin.permission || enabled !== admin.enabled;
    if (changesRights && (self || me.permission !== 1)) {
      return fail(res, 400, '无法进行此操作');
    }
    if (removesLastSuper(admin, { permission, enabled })) return fail(res, 400, '无法进行此操作');
    const password = typeof body.loginPwd === 'string' && body.loginPwd ? body.loginPwd : undefined;
    Object.assign(admin, {
      nickname: text(body.nickname) ?? admin.nickname,
      avatar: typeof body.avatar === 'string' ? body.avatar.trim() || DEFAULT_AVATAR : admin.avatar,
      permission,
      enabled,
      password: password ?? admin.password,
    });
    if (changesRights || password) revokeTokensOf(admin._id);
    return ok(res, publicAdmin(admin));
  },

  'DELETE /api/admin/:id': (req, res) => {
    const me = requireAdmin(req, res, 'super');
    if (!me) return;
    const index = db.admins.findIndex((a) => a._id === req.params.id);
    if (index < 0) return fail(res, 404, '管理员不存在');
    const admin = db.admins[index];
    if (admin._id === me._id) return fail(res, 400, '无法进行此操作');
    if (removesLastSuper(admin, { permission: 2, enabled: false })) {
      return fail(res, 400, '无法进行此操作');
    }
    db.admins.splice(index, 1);
    revokeTokensOf(admin._id);
    return ok(res, null);
  },
});
