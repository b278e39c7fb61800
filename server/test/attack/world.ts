import type { CatalogEntry } from '../../src/plugins/auth';
import { contentFixtures } from '../content';
import { CAPTCHA, ROOT_LOGIN, ROOT_PASSWORD, passwordOf, type TestContext } from '../harness';
import { COMMENT_TYPES } from '#contract/comment';

/** One record of every kind, and an admin of each level: what the routes' parameters point at. */
export interface World {
  rootId: string;
  rootToken: string;
  normal: { id: string; token: string; loginId: string };
  /** A member of the public site (signed up through POST /api/user), with its token. */
  member: { id: string; token: string };
  typeId: string;
  userId: string;
  bookId: string;
  interviewId: string;
  issueId: string;
  commentId: string;
  /** A change of the world's user (its nickname), to revert. */
  auditId: string;
  /** A notification (通知), switched off so that nothing is ever sent to it. */
  webhookId: string;
}

export async function buildWorld(t: TestContext, tag = 'world'): Promise<World> {
  const fixtures = contentFixtures(t.database.db);
  const rootToken = await t.rootToken();
  const whoami = await t.inject({ method: 'GET', url: '/api/admin/whoami', headers: { authorization: `Bearer ${rootToken}` } });
  const normalLogin = `${tag}-normal`;
  const normal = await t.createAdmin(normalLogin, 2);
  const typeId = await fixtures.type(`${tag}-type`);
  const userId = await fixtures.user({ loginId: `${tag}-user` });
  const bookId = await fixtures.book(typeId);
  const interviewId = await fixtures.interview(typeId);
  const issueId = await fixtures.issue(userId, typeId);
  const commentId = await fixtures.comment({ userId, typeId, issueId });
  const auth = { authorization: `Bearer ${rootToken}` };
  await t.inject({ method: 'PATCH', url: `/api/user/${userId}`, headers: auth, payload: { nickname: `${tag}-renamed` } });
  const history = await t.inject({ method: 'GET', url: `/api/audit/user/${userId}`, headers: auth });
  const webhook = await t.inject({
    method: 'POST',
    url: '/api/settings/webhooks',
    headers: auth,
    payload: { name: `${tag}-hook`, kind: 'json', url: 'https://93.184.216.34/hook', events: ['item.waiting'], enabled: false },
  });
  return {
    rootId: whoami.json().data._id,
    rootToken,
    normal: { id: normal.id, token: normal.token, loginId: normalLogin },
    member: await t.signUpMember('world-member'),
    typeId,
    userId,
    bookId,
    interviewId,
    issueId,
    commentId,
    auditId: history.json().data[0]._id,
    webhookId: webhook.json().data.webhook._id,
  };
}

const NO_SUCH_ID = 'ffffffffffffffffffffffff';

export const routeKey = (route: Pick<CatalogEntry, 'method' | 'url'>) => `${route.method} ${route.url}`;

/**
 * A body each POST and PATCH route accepts as it stands; `unique` keeps names that must be
 * unique apart. A route with a body missing here fails the tests that use this table. `as`: whose
 * token sends it, for the bodies that hold the sender's own password (a wrong one would count
 * against the login throttle).
 */
/** A WebAuthn answer (registration or assertion) whose challenge the server never made. */
function unaskedCredential(type: 'webauthn.create' | 'webauthn.get') {
  const clientDataJSON = Buffer.from(JSON.stringify({ type, challenge: 'dW5hc2tlZA', origin: 'http://localhost' })).toString('base64url');
  const response =
    type === 'webauthn.create'
      ? { clientDataJSON, attestationObject: 'AAAA' }
      : { clientDataJSON, authenticatorData: 'AAAA', signature: 'AAAA' };
  return { id: 'AAAA', rawId: 'AAAA', type: 'public-key', response, clientExtensionResults: {} };
}

export function validBody(
  key: string,
  world: World,
  unique: string,
  as: 'super' | 'normal' = 'super',
): Record<string, unknown> | undefined {
  const html = `<p>${unique}</p>`;
  const ownPassword = as === 'super' ? ROOT_PASSWORD : passwordOf(world.normal.loginId);
  const bodies: Record<string, Record<string, unknown>> = {
    'POST /api/admin/login': { loginId: ROOT_LOGIN, loginPwd: ROOT_PASSWORD, captcha: CAPTCHA },
    // A challenge nobody was given: answered 400 「验证已过期，请重新登录」.
    'POST /api/admin/login/2fa': { challenge: `c-${unique}`, code: '123456' },
    'PATCH /api/admin/me': { nickname: `m-${unique}`.slice(0, 32) },
    // Answers to a challenge nobody was given: 400 「通行密钥验证已过期，请重试」, nothing added or signed in.
    'POST /api/admin/me/passkeys': { name: `k-${unique}`.slice(0, 32), response: unaskedCredential('webauthn.create') },
    'PATCH /api/admin/me/passkeys/:id': { name: `k-${unique}`.slice(0, 32) },
    'POST /api/admin/login/passkey': { response: unaskedCredential('webauthn.get') },
    // The same password again: valid, and the table's admins keep signing in.
    'POST /api/admin/me/password': { currentPassword: ownPassword, newPassword: ownPassword },
    'POST /api/admin/me/2fa/enable': { code: '123456' },
    'POST /api/admin/me/2fa/disable': { currentPassword: ownPassword, code: '123456' },
    'POST /api/admin/me/2fa/recovery-codes': { currentPassword: ownPassword },
    // Off: on, it would hold every admin of the world without two-step sign-in to the setup calls.
    'PATCH /api/settings/security': { require2fa: false },
    'PATCH /api/settings/moderation': { holdFirstPosts: 0 },
    // A public address written as an IP (no name to resolve); nothing is sent without the job.
    'POST /api/settings/webhooks': {
      name: `h-${unique}`.slice(0, 64),
      kind: 'json',
      url: 'https://93.184.216.34/hook',
      events: ['item.waiting'],
    },
    'PATCH /api/settings/webhooks/:id': { enabled: true },
    'POST /api/moderation/words': { word: `w${unique}`.slice(0, 64), action: 'flag' },
    'POST /api/moderation/words/file': { text: `f${unique}\t标记\n` },
    'POST /api/moderation/test': { text: html },
    // Only what is new since now: nothing to do, and no run left going between the cases.
    'POST /api/moderation/recheck': { kinds: ['user'], since: 4_000_000_000_000 },
    // The sender's own password: a proof that succeeds (a wrong one would count against the throttle).
    'POST /api/admin/me/reauth': { password: ownPassword },
    'POST /api/user/:id/sanctions': { kind: 'mute', days: 1, reason: `r-${unique}`.slice(0, 200) },
    'POST /api/user/:id/notes': { body: `n-${unique}` },
    // Leaving an item one never opened: nothing to tell the others.
    'POST /api/review/presence': { kind: 'issue', id: world.issueId, open: false },
    // An item that does not exist: 409 naming it, nothing decided.
    'POST /api/review/decisions': { items: [{ kind: 'issue', id: NO_SUCH_ID }], decision: 'approve' },
    'POST /api/review/reasons': { text: `理由${unique}`.slice(0, 100) },
    'POST /api/admin': { loginId: `a-${unique}`, loginPwd: 'password-123', permission: 2 },
    'PATCH /api/admin/:id': { nickname: `n-${unique}`.slice(0, 32) },
    'POST /api/type': { typeName: `t-${unique}`.slice(0, 32) },
    'PATCH /api/type/:id': { typeName: `t-${unique}`.slice(0, 32) },
    'POST /api/user': { loginId: `u-${unique}`, loginPwd: 'password-123' },
    'PATCH /api/user/:id': { nickname: `n-${unique}`.slice(0, 32) },
    'POST /api/book': {
      bookTitle: `b-${unique}`,
      downloadLink: 'https://example.com/b',
      bookIntro: html,
      requirePoints: 1,
      typeId: world.typeId,
    },
    'PATCH /api/book/:id': { bookTitle: `b-${unique}` },
    'POST /api/interview': { interviewTitle: `i-${unique}`, interviewContent: html, typeId: world.typeId },
    'PATCH /api/interview/:id': { interviewTitle: `i-${unique}` },
    'POST /api/issue': { issueTitle: `q-${unique}`, issueContent: html, userId: world.userId, typeId: world.typeId },
    'PATCH /api/issue/:id': { issueTitle: `q-${unique}` },
    'POST /api/comment': { userId: world.userId, commentType: COMMENT_TYPES.issue, issueId: world.issueId, commentContent: html },
    // Bulk actions that keep the world's records; a bulk delete names an id that does not exist
    // (400, nothing deleted), as the permission table's single deletes do.
    'POST /api/user/batch': { action: 'enable', ids: [world.userId] },
    'POST /api/issue/batch': { action: 'approve', ids: [world.issueId] },
    'POST /api/book/batch': { action: 'delete', ids: [NO_SUCH_ID] },
    'POST /api/interview/batch': { action: 'delete', ids: [NO_SUCH_ID] },
    'POST /api/comment/batch': { action: 'delete', ids: [NO_SUCH_ID] },
  };
  return bodies[key];
}

type RecordKey = 'typeId' | 'userId' | 'bookId' | 'interviewId' | 'issueId' | 'commentId' | 'webhookId';
const ID_OWNERS: Array<[prefix: string, record: RecordKey]> = [
  ['/api/settings/webhooks/', 'webhookId'],
  ['/api/comment/issuecomment/', 'issueId'],
  ['/api/comment/bookcomment/', 'bookId'],
  ['/api/comment/', 'commentId'],
  ['/api/type/', 'typeId'],
  ['/api/user/', 'userId'],
  ['/api/book/', 'bookId'],
  ['/api/interview/', 'interviewId'],
  ['/api/issue/', 'issueId'],
];

/** Path parameters that point at the world's records (the normal admin's own id for /api/admin). */
export function worldParams(url: string, world: World): Record<string, string | number> {
  const owner = ID_OWNERS.find(([prefix]) => url.startsWith(prefix));
  const id = owner ? world[owner[1]] : world.normal.id;
  return {
    id,
    loginId: world.normal.loginId,
    commentType: COMMENT_TYPES.issue,
    entity: 'user',
    auditId: world.auditId,
    sessionId: '0'.repeat(32),
    // A sanction or a note that does not exist: 404 once past the access check.
    sanctionId: NO_SUCH_ID,
    noteId: NO_SUCH_ID,
  };
}

interface JsonSchemaLike {
  type?: string;
  properties?: Record<string, JsonSchemaLike>;
  required?: string[];
  maxLength?: number;
  minLength?: number;
  pattern?: string;
  anyOf?: JsonSchemaLike[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
}

/** A route's body, querystring or params schema as plain JSON Schema. */
export function schemaPart(route: CatalogEntry, part: 'body' | 'querystring' | 'params'): JsonSchemaLike | undefined {
  return (route.schema as Record<string, JsonSchemaLike> | undefined)?.[part];
}

export type { JsonSchemaLike };

export type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'null' | 'array' | 'object';

export function jsonType(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value as JsonType;
}

/** The JSON types a field's schema admits (a const admits the type of its value). */
export function admittedTypes(schema: JsonSchemaLike): Set<JsonType> {
  if (schema.anyOf) return new Set(schema.anyOf.flatMap((option) => [...admittedTypes(option)]));
  if (schema.type) return new Set([schema.type as JsonType]);
  if (schema.const !== undefined) return new Set([jsonType(schema.const)]);
  return new Set<JsonType>(['string', 'number', 'integer', 'boolean', 'null', 'array', 'object']);
}

/** Whether a JSON value is of a type the schema does not admit (an integer is a number too). */
export function isWrongType(schema: JsonSchemaLike, value: unknown): boolean {
  const types = admittedTypes(schema);
  const type = jsonType(value);
  return !types.has(type) && !(type === 'integer' && types.has('number'));
}
