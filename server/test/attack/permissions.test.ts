import type { CatalogEntry } from '../../src/plugins/auth';
import { ROOT_LOGIN, ROOT_PASSWORD, bearer, createTestContext, type TestContext, passwordOf } from '../harness';
import { UNKNOWN_ID, expectRefusal, fillPath } from './support';
import { buildWorld, routeKey, validBody, worldParams, type World } from './world';

/**
 * Who may call each route. 'self': any admin, but a normal admin only on their own record.
 * A route that is registered but missing here fails the first test, so no route goes unchecked.
 */
const RULES: Record<string, 'public' | 'admin' | 'super' | 'self'> = {
  'GET /res/captcha': 'public',
  'POST /api/admin/login': 'public',
  'GET /api/admin/whoami': 'admin',
  'POST /api/admin/logout': 'admin',
  'GET /api/admin': 'super',
  'POST /api/admin': 'super',
  'GET /api/admin/adminIsExist/:loginId': 'super',
  'GET /api/admin/:id': 'self',
  'PATCH /api/admin/:id': 'self',
  'DELETE /api/admin/:id': 'super',
  'POST /api/admin/login/2fa': 'public',
  'PATCH /api/admin/me': 'admin',
  'POST /api/admin/me/password': 'admin',
  'POST /api/admin/me/reauth': 'admin',
  // Before setup: without a secret set up, enable refuses before checking (and counting) the code.
  'POST /api/admin/me/2fa/enable': 'admin',
  'POST /api/admin/me/2fa/setup': 'admin',
  'POST /api/admin/me/2fa/disable': 'admin',
  'GET /api/admin/me/2fa/recovery-codes': 'admin',
  'POST /api/admin/me/2fa/recovery-codes': 'admin',
  'GET /api/admin/me/sessions': 'admin',
  'DELETE /api/admin/me/sessions/:sessionId': 'admin',
  'DELETE /api/admin/me/sessions': 'admin',
  'GET /api/admin/me/logins': 'admin',
  'GET /api/admin/me/passkeys': 'admin',
  'POST /api/admin/me/passkeys/options': 'admin',
  'POST /api/admin/me/passkeys': 'admin',
  'PATCH /api/admin/me/passkeys/:id': 'admin',
  'DELETE /api/admin/me/passkeys/:id': 'admin',
  'POST /api/admin/me/passkeys/proof-options': 'admin',
  'POST /api/admin/login/passkey/options': 'public',
  'POST /api/admin/login/passkey': 'public',
  'GET /api/admin/:id/sessions': 'super',
  'DELETE /api/admin/:id/sessions': 'super',
  'DELETE /api/admin/:id/2fa': 'super',
  'GET /api/settings/security': 'super',
  'PATCH /api/settings/security': 'super',
  'GET /api/settings/moderation': 'super',
  'PATCH /api/settings/moderation': 'super',
  // 通知 (webhooks): super admins only, reads included (a hook's address is a credential).
  'GET /api/settings/webhooks': 'super',
  'POST /api/settings/webhooks': 'super',
  'PATCH /api/settings/webhooks/:id': 'super',
  'DELETE /api/settings/webhooks/:id': 'super',
  'POST /api/settings/webhooks/:id/secret': 'super',
  'GET /api/settings/webhooks/:id/deliveries': 'super',
  'POST /api/settings/webhooks/:id/test': 'super',
  // The word list and 测试 are read by every admin (the queue shows why an item waits); changed by super admins.
  'GET /api/moderation/words': 'admin',
  'POST /api/moderation/words': 'super',
  'DELETE /api/moderation/words/:id': 'super',
  'GET /api/moderation/words/file': 'super',
  'POST /api/moderation/words/file': 'super',
  'POST /api/moderation/test': 'admin',
  'GET /api/moderation/recheck': 'super',
  'POST /api/moderation/recheck': 'super',
  'GET /api/type': 'admin',
  'POST /api/type': 'admin',
  'PATCH /api/type/:id': 'admin',
  'DELETE /api/type/:id': 'admin',
  'POST /api/upload': 'admin',
  'GET /api/user': 'admin',
  'GET /api/user/userIsExist/:loginId': 'admin',
  'GET /api/user/:id': 'admin',
  'GET /api/user/:id/impact': 'admin',
  'GET /api/user/:id/sessions': 'admin',
  'DELETE /api/user/:id/sessions': 'admin',
  'DELETE /api/user/:id/sessions/:sessionId': 'admin',
  'GET /api/user/:id/points': 'admin',
  'POST /api/user': 'admin',
  'PATCH /api/user/:id': 'admin',
  'DELETE /api/user/:id': 'super',
  'GET /api/book': 'admin',
  'GET /api/book/:id': 'admin',
  'POST /api/book': 'admin',
  'PATCH /api/book/:id': 'admin',
  'DELETE /api/book/:id': 'admin',
  'GET /api/interview': 'admin',
  'GET /api/interview/:id': 'admin',
  'POST /api/interview': 'admin',
  'PATCH /api/interview/:id': 'admin',
  'DELETE /api/interview/:id': 'admin',
  'GET /api/issue': 'admin',
  'GET /api/issue/:id': 'admin',
  'POST /api/issue': 'admin',
  'PATCH /api/issue/:id': 'admin',
  'DELETE /api/issue/:id': 'admin',
  'GET /api/comment/issuecomment/:id': 'admin',
  'GET /api/comment/bookcomment/:id': 'admin',
  'GET /api/comment/:commentType': 'admin',
  'POST /api/comment': 'admin',
  'DELETE /api/comment/:id': 'admin',
  'GET /api/stats': 'admin',
  // A normal admin sees only their own entries (checked in audit.test.ts); a revert needs what the
  // reverted change needed, checked by that record's own update.
  'GET /api/audit': 'admin',
  'GET /api/audit/export': 'admin',
  'GET /api/audit/verify': 'super',
  'GET /api/audit/:entity/:id': 'admin',
  'POST /api/audit/:auditId/revert': 'admin',
  // A bulk delete of users is a super admin's (checked in audit.test.ts), enabling and disabling any admin's.
  'POST /api/user/batch': 'admin',
  'POST /api/book/batch': 'admin',
  'POST /api/interview/batch': 'admin',
  'POST /api/issue/batch': 'admin',
  'POST /api/comment/batch': 'admin',
  'GET /api/trash': 'admin',
  // Restoring a user needs a super admin, as deleting one does: checked per entry (trash.test.ts).
  'POST /api/trash/:id/restore': 'admin',
  'DELETE /api/trash/:id': 'super',
  // 审核台 and the member's file: every admin moderates (rejecting a member is checked per item, review.test.ts).
  'GET /api/review': 'admin',
  'GET /api/review/counts': 'admin',
  'GET /api/review/events': 'admin',
  'POST /api/review/presence': 'admin',
  'POST /api/review/decisions': 'admin',
  'GET /api/review/reasons': 'admin',
  'POST /api/review/reasons': 'admin',
  'DELETE /api/review/reasons/:id': 'admin',
  'GET /api/user/:id/file': 'admin',
  'GET /api/user/:id/sanctions': 'admin',
  'POST /api/user/:id/sanctions': 'admin',
  'DELETE /api/user/:id/sanctions/:sanctionId': 'admin',
  'GET /api/user/:id/notes': 'admin',
  'POST /api/user/:id/notes': 'admin',
  'DELETE /api/user/:id/notes/:noteId': 'admin',
  'GET /api/user/export': 'admin',
  'GET /api/book/export': 'admin',
  'GET /api/interview/export': 'admin',
  'GET /api/issue/export': 'admin',
  'GET /api/comment/export': 'admin',
};

const EXPIRED = '登录过期，请重新登录';
const FORBIDDEN = '没有权限进行此操作';

let t: TestContext;
let world: World;
beforeAll(async () => {
  t = await createTestContext();
  world = await buildWorld(t);
}, 120_000);
afterAll(() => t.close());

type Role = 'nobody' | 'member' | 'normal' | 'super';
let serial = 0;

async function tokenOf(role: Role, route: CatalogEntry): Promise<string | null> {
  if (role === 'nobody') return null;
  if (role === 'member') return world.member.token;
  // Signing out ends the token used for it: that call gets one of its own.
  if (routeKey(route) === 'POST /api/admin/logout') {
    return role === 'super' ? t.tokenFor(ROOT_LOGIN, ROOT_PASSWORD) : t.tokenFor(world.normal.loginId, passwordOf(world.normal.loginId));
  }
  return role === 'super' ? world.rootToken : world.normal.token;
}

/** A request the route would carry out: real records for reads and edits, none for deletes. */
async function streamed(response: Awaited<ReturnType<TestContext['inject']>>) {
  (response as unknown as { stream(): NodeJS.ReadableStream & { destroy(): void } }).stream().destroy();
  return response;
}

async function call(route: CatalogEntry, role: Role, id?: string) {
  const token = await tokenOf(role, route);
  const params = { ...worldParams(route.url, world), ...(route.method === 'DELETE' && { id: UNKNOWN_ID }), ...(id && { id }) };
  const body = validBody(routeKey(route), world, `perm${++serial}`, role === 'normal' ? 'normal' : 'super');
  // A refusal ends at once and is read whole; an admin's call stays open.
  const stream = route.stream === true && (role === 'normal' || role === 'super');
  const response = await t.inject({
    method: route.method as 'GET',
    url: fillPath(route.url, params),
    headers: token ? bearer(token) : {},
    ...(body && { payload: body }),
    ...(stream && { payloadAsStream: true }),
  });
  return stream ? streamed(response) : response;
}

function allowed(response: { statusCode: number; body: string }, label: string) {
  expect({ label, status: response.statusCode, forbidden: [401, 403].includes(response.statusCode) || response.statusCode >= 500 }).toEqual(
    {
      label,
      status: response.statusCode,
      forbidden: false,
    },
  );
}

describe('permissions: every registered route against the table', () => {
  it('the table names exactly the registered routes', () => {
    const registered = t.app.routeCatalog.map(routeKey).sort();
    expect(registered).toEqual(Object.keys(RULES).sort());
  });

  it("each route's declared access agrees with the table", () => {
    for (const route of t.app.routeCatalog) {
      const rule = RULES[routeKey(route)];
      expect({ route: routeKey(route), access: route.access }).toEqual({
        route: routeKey(route),
        access: rule === 'self' ? 'admin' : rule,
      });
    }
  });

  describe.each(Object.keys(RULES))('%s', (key) => {
    const route = () => t.app.routeCatalog.find((r) => routeKey(r) === key)!;
    const rule = RULES[key];

    // The public site's routes at the same path (modules/site) answer visitors and members instead.
    const siteVariant = (audience: 'visitor' | 'member') => t.app.siteCatalog.some((r) => r.audience === audience && routeKey(r) === key);

    it(`no token: ${rule === 'public' ? 'allowed' : `401 ${EXPIRED}, unless the public site answers visitors here`}`, async () => {
      const response = await call(route(), 'nobody');
      if (rule === 'public' || siteVariant('visitor')) allowed(response, key);
      else expectRefusal(response, 401, EXPIRED);
    });

    it(`member: ${rule === 'public' ? 'allowed' : `403 ${FORBIDDEN}, unless the public site answers members here`}`, async () => {
      const response = await call(route(), 'member');
      if (rule === 'public') return allowed(response, key);
      if (!siteVariant('member')) return expectRefusal(response, 403, FORBIDDEN);
      // The member side itself: never a token failure, and another user's record is not the member's.
      if (key === 'PATCH /api/user/:id') return expectRefusal(response, 403, FORBIDDEN);
      expect({ key, tokenFailure: response.statusCode === 401 || response.statusCode >= 500 }).toEqual({ key, tokenFailure: false });
    });

    it(`normal admin: ${rule === 'super' ? `403 ${FORBIDDEN}` : rule === 'self' ? 'own record only' : 'allowed'}`, async () => {
      if (rule === 'super') return expectRefusal(await call(route(), 'normal'), 403, FORBIDDEN);
      if (rule === 'self') {
        allowed(await call(route(), 'normal', world.normal.id), `${key} on self`);
        return expectRefusal(await call(route(), 'normal', world.rootId), 403, FORBIDDEN);
      }
      allowed(await call(route(), 'normal'), key);
    });

    it('super admin: allowed', async () => {
      allowed(await call(route(), 'super'), key);
      if (rule === 'self') allowed(await call(route(), 'super', world.rootId), `${key} on self`);
    });
  });

  it('HEAD on a guarded GET route is guarded the same way', async () => {
    const visitorGets = new Set(t.app.siteCatalog.filter((r) => r.audience === 'visitor').map(routeKey));
    for (const route of t.app.routeCatalog.filter(
      (r) => r.method === 'GET' && RULES[routeKey(r)] !== 'public' && !visitorGets.has(routeKey(r)),
    )) {
      const url = fillPath(route.url, worldParams(route.url, world));
      expect({ url, status: (await t.inject({ method: 'HEAD', url })).statusCode }).toEqual({ url, status: 401 });
      const stream = route.stream === true;
      const normal = await t.inject({ method: 'HEAD', url, headers: bearer(world.normal.token), ...(stream && { payloadAsStream: true }) });
      if (stream) await streamed(normal);
      // The parameters point at the normal admin's own record, so a 'self' route lets it through.
      expect({ url, status: normal.statusCode }).toEqual({ url, status: RULES[routeKey(route)] === 'super' ? 403 : 200 });
    }
  });

  it('a method override header does not turn a read into a write', async () => {
    const response = await t.inject({
      method: 'GET',
      url: `/api/user/${world.userId}`,
      headers: { ...bearer(world.normal.token), 'x-http-method-override': 'DELETE', 'x-method-override': 'DELETE' },
    });
    expect(response.statusCode).toBe(200);
    expect((await t.inject({ method: 'GET', url: `/api/user/${world.userId}`, headers: bearer(world.rootToken) })).statusCode).toBe(200);
  });
});
