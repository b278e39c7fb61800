import { canonicalLoginId } from '../../src/lib/account-names';
import { CAPTCHA, bearer, createTestContext, passwordOf, type TestContext } from '../harness';
import { expectRefusal } from './support';

/**
 * Look-alike account names: case, full-width and confusable (Cyrillic) variants of a taken name
 * are the same account name, on create, rename, the existence checks and sign-in.
 */

let t: TestContext;
let root: string;
beforeAll(async () => {
  t = await createTestContext();
  root = await t.rootToken();
});
afterAll(() => t.close());

// 'ADMIN'; 'аdmіn' with Cyrillic а (U+0430) and і (U+0456); full-width 'ａｄｍｉｎ'; and a mix.
const VARIANTS = (name: string) => [
  name.toUpperCase(),
  name.replace(/a/g, '\u0430').replace(/i/g, '\u0456').replace(/o/g, '\u043e').replace(/e/g, '\u0435'),
  [...name].map((c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)).join(''),
  name[0].toUpperCase() + name.slice(1).replace(/a/g, '\u0430'),
];

describe('canonicalLoginId', () => {
  it('folds case, width and confusables to one skeleton', () => {
    for (const variant of VARIANTS('admin')) expect(canonicalLoginId(variant)).toBe(canonicalLoginId('admin'));
    expect(canonicalLoginId('аdmіn')).toBe(canonicalLoginId('ADMIN'));
    expect(canonicalLoginId('ａｄｍｉｎ')).toBe(canonicalLoginId('admin'));
    expect(canonicalLoginId('rn')).toBe(canonicalLoginId('m'));
    expect(canonicalLoginId('l0')).toBe(canonicalLoginId('1O'));
    expect(canonicalLoginId('admin')).not.toBe(canonicalLoginId('admins'));
    expect(canonicalLoginId('小王')).toBe('小王');
  });
});

describe('admins', () => {
  beforeAll(async () => {
    expect(
      (
        await t.inject({
          method: 'POST',
          url: '/api/admin',
          headers: bearer(root),
          payload: { loginId: 'admin', loginPwd: passwordOf('admin'), permission: 2 },
        })
      ).statusCode,
    ).toBe(201);
  });

  it.each(VARIANTS('admin'))('creating %s beside admin is 409 该管理员已经注册过了', async (loginId) => {
    const response = await t.inject({
      method: 'POST',
      url: '/api/admin',
      headers: bearer(root),
      payload: { loginId, loginPwd: 'Orchard-Lantern-1', permission: 1 },
    });
    expectRefusal(response, 409, '该管理员已经注册过了');
  });

  it.each(VARIANTS('admin'))('adminIsExist/%s answers true', async (loginId) => {
    const response = await t.inject({
      method: 'GET',
      url: `/api/admin/adminIsExist/${encodeURIComponent(loginId)}`,
      headers: bearer(root),
    });
    expect(response.json().data).toBe(true);
  });

  it.each(VARIANTS('admin'))('signing in as %s signs in as admin', async (loginId) => {
    const response = await t.login(loginId, passwordOf('admin'));
    expect(response.statusCode).toBe(200);
    expect(response.json().data.data.loginId).toBe('admin');
  });

  it('failed sign-ins under look-alike names count against the one account', async () => {
    const variants = VARIANTS('admin');
    for (let i = 0; i < 5; i++) {
      await t.login(variants[i % variants.length], 'wrong-password-x', { ip: `198.51.110.${i + 1}` });
    }
    expectRefusal(await t.login('admin', passwordOf('admin'), { ip: '198.51.110.99' }), 429, '登录尝试过于频繁，请稍后再试');
  });
});

describe('users', () => {
  let otherId: string;
  beforeAll(async () => {
    expect((await t.inject({ method: 'POST', url: '/api/user', headers: bearer(root), payload: { loginId: 'alice' } })).statusCode).toBe(
      201,
    );
    otherId = (await t.inject({ method: 'POST', url: '/api/user', headers: bearer(root), payload: { loginId: 'bob' } })).json().data._id;
  });

  it.each(VARIANTS('alice'))('creating %s beside alice is 409 该用户已存在', async (loginId) => {
    expectRefusal(await t.inject({ method: 'POST', url: '/api/user', headers: bearer(root), payload: { loginId } }), 409, '该用户已存在');
  });

  it.each(VARIANTS('alice'))('renaming bob to %s is 409 该用户已存在', async (loginId) => {
    expectRefusal(
      await t.inject({ method: 'PATCH', url: `/api/user/${otherId}`, headers: bearer(root), payload: { loginId } }),
      409,
      '该用户已存在',
    );
  });

  it.each(VARIANTS('alice'))('userIsExist/%s answers true', async (loginId) => {
    const response = await t.inject({ method: 'GET', url: `/api/user/userIsExist/${encodeURIComponent(loginId)}`, headers: bearer(root) });
    expect(response.json().data).toBe(true);
  });

  it('a user may rename itself to a variant of its own name', async () => {
    const response = await t.inject({ method: 'PATCH', url: `/api/user/${otherId}`, headers: bearer(root), payload: { loginId: 'Bob' } });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.loginId).toBe('Bob');
  });
});

describe('invisible characters', () => {
  // Zero-width space, soft hyphen, word joiner, variation selector 16, Mongolian vowel separator,
  // combining grapheme joiner: each makes a name that looks like `carol`.
  const INVISIBLE = ['\u200b', '\u00ad', '\u2060', '\ufe0f', '\u180e', '\u034f'];
  const signUp = async (loginId: string) =>
    t.inject({ method: 'POST', url: '/api/user', headers: { cookie: await t.captchaCookie() }, payload: { loginId, captcha: CAPTCHA } });

  it.each(INVISIBLE.map((c) => [`U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`, c]))(
    'a name holding %s is refused, by a sign-up, an admin creating a user or an admin',
    async (_name, invisible) => {
      const loginId = `car${invisible}ol`;
      expectRefusal(await signUp(loginId), 400, '账号（loginId）格式不正确');
      expectRefusal(
        await t.inject({ method: 'POST', url: '/api/user', headers: bearer(root), payload: { loginId } }),
        400,
        '账号（loginId）格式不正确',
      );
      expectRefusal(
        await t.inject({ method: 'POST', url: '/api/admin', headers: bearer(root), payload: { loginId, permission: 2 } }),
        400,
        '账号（loginId）格式不正确',
      );
    },
  );
});
