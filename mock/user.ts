/**
 * User calls for `npm run dev:mock`, following docs/api.md and server/src/modules/user
 * (NormalAdmin; DELETE is SuperAdmin only).
 *
 * The fixed paths (userIsExist, impact) come before `/api/user/:id`: the first matching key answers.
 */
import { defineMock } from '@umijs/max';
import {
  content,
  defaultNickname,
  DEFAULT_USER_POINTS,
  type MockUser,
  publicUser,
  randomPassword,
  removeUser,
  userImpact,
} from './lib/content';
import { collection } from './lib/crud';
import { badRequest, bool, conflict, guarded, idParam, imagePath, int, loginId, readFields, str } from './lib/input';
import { bodyOf, DEFAULT_AVATAR, objectId, ok } from './lib/store';

const TAKEN = '该用户已存在';
const MIN_PASSWORD_LENGTH = 6;

/** The profile fields both forms share, in the server schema's order so the first error matches. */
const profile = {
  avatar: imagePath,
  mail: str({ max: 254, pattern: /^(|[^\s@]+@[^\s@]+\.[^\s@]+)$/ }),
  qq: str({ max: 12, pattern: /^(|[1-9][0-9]{4,11})$/ }),
  wechat: str({ max: 64 }),
  intro: str({ max: 500 }),
  points: int({ min: 0, max: 100_000_000 }),
  enabled: bool,
  loginPwd: str({ max: 128 }),
};
const createSpec = { loginId, nickname: str({ max: 32 }), ...profile };
const updateSpec = { loginId, nickname: str({ min: 1, max: 32 }), ...profile };

function checkPassword(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw badRequest(`密码长度至少 ${MIN_PASSWORD_LENGTH} 位`);
  }
}

const users = collection({
  rows: () => content.users,
  missing: '用户不存在',
  filters: { loginId: 'text', nickname: 'text', enabled: 'bool' },
  dateOf: (user) => user.registerDate,
  show: publicUser,
  // Takes the user's issues and comments along, and fixes the counters of what they commented on.
  remove: removeUser,
});
const { mustFind } = users;

export default defineMock({
  'GET /api/user': users.list,

  'GET /api/user/userIsExist/:loginId': guarded('normal', (req, res) => {
    const wanted = loginId(req.params.loginId, 'loginId');
    ok(res, content.users.some((u) => u.loginId === wanted));
  }),

  'GET /api/user/:id/impact': guarded('normal', (req, res) => {
    ok(res, userImpact(mustFind(idParam(req))._id));
  }),

  'GET /api/user/:id': users.get,

  'POST /api/user': guarded('normal', (req, res) => {
    const body = readFields(bodyOf(req), createSpec, ['loginId']);
    // No password given: the server makes one and shows it once as initialPassword.
    const password = body.loginPwd || randomPassword();
    const generated = body.loginPwd ? undefined : password;
    checkPassword(password);
    if (content.users.some((u) => u.loginId === body.loginId)) throw conflict(TAKEN);
    const at = Date.now();
    const user: MockUser = {
      _id: objectId(at),
      loginId: body.loginId,
      nickname: body.nickname || defaultNickname(),
      avatar: body.avatar || DEFAULT_AVATAR,
      mail: body.mail ?? '',
      qq: body.qq ?? '',
      wechat: body.wechat ?? '',
      intro: body.intro ?? '',
      points: body.points ?? DEFAULT_USER_POINTS,
      enabled: body.enabled ?? true,
      registerDate: at,
      lastLoginDate: at,
      password,
    };
    content.users.push(user);
    ok(res, generated ? { ...publicUser(user), initialPassword: generated } : publicUser(user), 201);
  }),

  'PATCH /api/user/:id': guarded('normal', (req, res) => {
    const id = idParam(req);
    const { loginPwd, ...fields } = readFields(bodyOf(req), updateSpec);
    // The server's order: the password, then the loginId's owner, and only then "not found".
    if (loginPwd) checkPassword(loginPwd);
    if (fields.loginId && content.users.some((u) => u.loginId === fields.loginId && u._id !== id)) {
      throw conflict(TAKEN);
    }
    const user = mustFind(id);
    Object.assign(user, fields);
    if (fields.avatar !== undefined) user.avatar = fields.avatar || DEFAULT_AVATAR;
    // An empty password field means "unchanged", as on the admin form.
    if (loginPwd) user.password = loginPwd;
    ok(res, publicUser(user));
  }),

  'DELETE /api/user/:id': users.remove('super'),
});
