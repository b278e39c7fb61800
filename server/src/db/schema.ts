import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';

/**
 * A GIN index on the distinct 1-, 2- and 3-character pieces of the lower-cased text
 * (`search_grams`, migration 0008): what serves the lists' substring filters (`ILIKE '%text%'`)
 * for terms of any length, a one-character Chinese surname included, where pg_trgm served only
 * terms of three or more. See docs/decisions/0007-short-term-search.md.
 */
const grams = (name: string, column: AnyPgColumn) => index(name).using('gin', sql`search_grams(${column})`);

// Times are epoch milliseconds (docs/api.md), kept as bigint and read back as JS numbers.
const epochMs = (name: string) => bigint(name, { mode: 'number' });
const id = (name: string) => varchar(name, { length: 24 });
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

export const admins = pgTable(
  'admins',
  {
    id: id('id').primaryKey(),
    loginId: text('login_id').notNull(),
    passwordHash: text('password_hash').notNull(),
    /** True while passwordHash is the old system's unsalted md5 (an imported account, docs/import.md). */
    passwordLegacy: boolean('password_legacy').notNull().default(false),
    nickname: text('nickname').notNull(),
    avatar: text('avatar').notNull(),
    permission: smallint('permission').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: epochMs('created_at').notNull(),
    /** canonicalLoginId(loginId) (lib/account-names.ts); null only for rows the migration runner has not reached yet. */
    loginKey: text('login_key'),
    /** The TOTP secret, encrypted (modules/account/secret-box.ts); set while two-step sign-in is on. */
    totpSecret: text('totp_secret'),
    /** A secret from /2fa/setup not yet confirmed by /2fa/enable, encrypted likewise. */
    totpPendingSecret: text('totp_pending_secret'),
    /** The last TOTP time step accepted: a code of this step or an earlier one is refused (no replay). */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    /** Set with a generated password: until changed, the admin's sessions may only call whoami and change it. */
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    /** Bumped by the trigger bump_version (migration: record versions) on every update that changes the record (docs/api.md, versions). */
    version: integer('version').notNull().default(1),
  },
  (t) => [uniqueIndex('admins_login_id_key').on(t.loginId), uniqueIndex('admins_login_key_key').on(t.loginKey)],
);

/** One row per issued token: deleting it (logout, disable, demotion, password change) kills the token. */
export const adminSessions = pgTable(
  'admin_sessions',
  {
    id: varchar('id', { length: 32 }).primaryKey(),
    adminId: id('admin_id')
      .notNull()
      .references(() => admins.id, { onDelete: 'cascade' }),
    createdAt: epochMs('created_at').notNull(),
    expiresAt: epochMs('expires_at').notNull(),
    /** Written at most once a minute per session (auth.service.ts), never once per request. */
    lastSeenAt: epochMs('last_seen_at'),
    ip: text('ip').notNull().default(''),
    userAgent: text('user_agent').notNull().default(''),
    /** When the admin last proved who they are in this session (sign-in, POST /api/admin/me/reauth). */
    reauthAt: epochMs('reauth_at'),
    /**
     * Signed in with a passkey (both factors at once): such a session satisfies require_2fa
     * without TOTP; a password sign-in of the same admin does not (decision 0015).
     */
    signedInWithPasskey: boolean('signed_in_with_passkey').notNull().default(false),
  },
  (t) => [index('admin_sessions_admin_id_idx').on(t.adminId), index('admin_sessions_expires_at_idx').on(t.expiresAt)],
);

/** Two-step sign-in recovery codes: only their keyed hashes; a used code's row is deleted. */
export const adminRecoveryCodes = pgTable(
  'admin_recovery_codes',
  {
    adminId: id('admin_id')
      .notNull()
      .references(() => admins.id, { onDelete: 'cascade' }),
    /** HMAC of the admin's id and the code (modules/auth/keys.ts): unique across admins. */
    codeHash: varchar('code_hash', { length: 64 }).primaryKey(),
  },
  (t) => [index('admin_recovery_codes_admin_id_idx').on(t.adminId)],
);

/** The second step of a sign-in with two-step on: a challenge (kept as its hash) between the password and the code. */
export const loginChallenges = pgTable(
  'login_challenges',
  {
    idHash: varchar('id_hash', { length: 64 }).primaryKey(),
    adminId: id('admin_id')
      .notNull()
      .references(() => admins.id, { onDelete: 'cascade' }),
    remember: boolean('remember').notNull(),
    failures: integer('failures').notNull().default(0),
    expiresAt: epochMs('expires_at').notNull(),
  },
  (t) => [index('login_challenges_expires_at_idx').on(t.expiresAt)],
);

/** An admin's passkeys (WebAuthn credentials, modules/passkey): deleted with the admin. */
export const adminPasskeys = pgTable(
  'admin_passkeys',
  {
    id: id('id').primaryKey(),
    adminId: id('admin_id')
      .notNull()
      .references(() => admins.id, { onDelete: 'cascade' }),
    /** The credential's id as the browser gives it (base64url): what a sign-in names. */
    credentialId: text('credential_id').notNull(),
    /** The COSE public key the authenticator made. */
    publicKey: bytea('public_key').notNull(),
    /** The authenticator's signature counter: a later sign-in must show a higher one (0: it keeps none). */
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    /** How the browser may reach the authenticator ('internal', 'usb', 'hybrid', …), as a JSON array. */
    transports: jsonb('transports').$type<string[]>().notNull().default([]),
    name: text('name').notNull(),
    createdAt: epochMs('created_at').notNull(),
    lastUsedAt: epochMs('last_used_at'),
  },
  (t) => [
    uniqueIndex('admin_passkeys_credential_id_key').on(t.credentialId),
    index('admin_passkeys_admin_id_idx').on(t.adminId, t.createdAt),
  ],
);

/**
 * WebAuthn challenges waiting for their answer, kept as their hash: single use (deleted by the
 * answer that uses them), short-lived, bound to the admin for adding a passkey or proving identity.
 */
export const passkeyChallenges = pgTable(
  'passkey_challenges',
  {
    idHash: varchar('id_hash', { length: 64 }).primaryKey(),
    /** 'register', 'signin' or 'proof'. */
    purpose: varchar('purpose', { length: 16 }).notNull(),
    /** The admin a 'register' or 'proof' challenge was made for; null for a sign-in. */
    adminId: id('admin_id').references(() => admins.id, { onDelete: 'cascade' }),
    expiresAt: epochMs('expires_at').notNull(),
  },
  (t) => [index('passkey_challenges_expires_at_idx').on(t.expiresAt)],
);

/** Sign-ins to an admin account, right or wrong, kept 90 days (GET /api/admin/me/logins). */
export const adminLogins = pgTable(
  'admin_logins',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    adminId: id('admin_id')
      .notNull()
      .references(() => admins.id, { onDelete: 'cascade' }),
    at: epochMs('at').notNull(),
    ip: text('ip').notNull(),
    userAgent: text('user_agent').notNull(),
    succeeded: boolean('succeeded').notNull(),
    result: text('result').notNull(),
  },
  (t) => [index('admin_logins_admin_id_at_idx').on(t.adminId, t.at.desc(), t.id.desc()), index('admin_logins_at_idx').on(t.at)],
);

/** Captcha answers live in the database so that any server process can check them. */
export const captchas = pgTable(
  'captchas',
  {
    id: varchar('id', { length: 32 }).primaryKey(),
    answerHash: text('answer_hash').notNull(),
    expiresAt: epochMs('expires_at').notNull(),
  },
  (t) => [index('captchas_expires_at_idx').on(t.expiresAt)],
);

/** Failed logins, keyed by `id:<loginId>` and `ip:<address>`, counted by every process alike. */
export const loginFailures = pgTable(
  'login_failures',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    key: text('key').notNull(),
    failedAt: epochMs('failed_at').notNull(),
  },
  (t) => [index('login_failures_key_failed_at_idx').on(t.key, t.failedAt)],
);

export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

export const types = pgTable(
  'types',
  {
    id: id('id').primaryKey(),
    typeName: text('type_name').notNull(),
    createdAt: epochMs('created_at').notNull(),
    /** Bumped by the trigger bump_version (migration: record versions) on every update that changes the record (docs/api.md, versions). */
    version: integer('version').notNull().default(1),
  },
  (t) => [uniqueIndex('types_type_name_key').on(t.typeName)],
);

export const users = pgTable(
  'users',
  {
    id: id('id').primaryKey(),
    loginId: text('login_id').notNull(),
    passwordHash: text('password_hash').notNull(),
    /** True while passwordHash is the old system's unsalted md5 (an imported account, docs/import.md). */
    passwordLegacy: boolean('password_legacy').notNull().default(false),
    nickname: text('nickname').notNull(),
    avatar: text('avatar').notNull(),
    mail: text('mail').notNull().default(''),
    qq: text('qq').notNull().default(''),
    wechat: text('wechat').notNull().default(''),
    intro: text('intro').notNull().default(''),
    points: integer('points').notNull().default(100),
    enabled: boolean('enabled').notNull().default(true),
    registerDate: epochMs('register_date').notNull(),
    lastLoginDate: epochMs('last_login_date').notNull(),
    /** canonicalLoginId(loginId) (lib/account-names.ts); null only for rows the migration runner has not reached yet. */
    loginKey: text('login_key'),
    /** 先审后发: every post of this member is held for review (modules/moderation). */
    reviewFirst: boolean('review_first').notNull().default(false),
    /** Set with a generated password, kept for the member sign-in to honour as the admins' flag is. */
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    /** Bumped by the trigger bump_version (migration: record versions) on every update that changes the record (docs/api.md, versions). */
    version: integer('version').notNull().default(1),
  },
  (t) => [
    uniqueIndex('users_login_id_key').on(t.loginId),
    uniqueIndex('users_login_key_key').on(t.loginKey),
    // The rows that collided when login_key was first computed carry a suffixed key (db/login-keys.ts).
    index('users_login_key_collision_idx').on(t.id).where(sql`${t.loginKey} like '% #%'`),
    index('users_register_date_idx').on(t.registerDate.desc(), t.id.desc()),
    grams('users_login_id_grams_idx', t.loginId),
    grams('users_nickname_grams_idx', t.nickname),
    index('users_enabled_register_date_idx').on(t.enabled, t.registerDate.desc(), t.id.desc()),
    // GET /api/user/pointsrank: the top ten enabled users by points, read from the index's start.
    index('users_points_rank_idx').on(t.points.desc(), t.registerDate.desc(), t.id.desc()).where(sql`${t.enabled}`),
  ],
);

export const books = pgTable(
  'books',
  {
    id: id('id').primaryKey(),
    bookTitle: text('book_title').notNull(),
    bookPic: text('book_pic').notNull(),
    downloadLink: text('download_link').notNull(),
    bookIntro: text('book_intro').notNull(),
    scanNumber: integer('scan_number').notNull().default(0),
    commentNumber: integer('comment_number').notNull().default(0),
    onShelfDate: epochMs('on_shelf_date').notNull(),
    requirePoints: integer('require_points').notNull(),
    typeId: id('type_id')
      .notNull()
      .references(() => types.id, { onDelete: 'restrict' }),
    /** Bumped by the trigger bump_version (migration: record versions) on every update that changes the record (docs/api.md, versions). */
    version: integer('version').notNull().default(1),
  },
  (t) => [
    index('books_on_shelf_date_idx').on(t.onShelfDate.desc(), t.id.desc()),
    index('books_type_id_on_shelf_date_idx').on(t.typeId, t.onShelfDate.desc(), t.id.desc()),
    grams('books_book_title_grams_idx', t.bookTitle),
  ],
);

export const interviews = pgTable(
  'interviews',
  {
    id: id('id').primaryKey(),
    interviewTitle: text('interview_title').notNull(),
    interviewContent: text('interview_content').notNull(),
    onShelfDate: epochMs('on_shelf_date').notNull(),
    typeId: id('type_id')
      .notNull()
      .references(() => types.id, { onDelete: 'restrict' }),
    /** Bumped by the trigger bump_version (migration: record versions) on every update that changes the record (docs/api.md, versions). */
    version: integer('version').notNull().default(1),
  },
  (t) => [
    index('interviews_on_shelf_date_idx').on(t.onShelfDate.desc(), t.id.desc()),
    index('interviews_type_id_on_shelf_date_idx').on(t.typeId, t.onShelfDate.desc(), t.id.desc()),
    grams('interviews_interview_title_grams_idx', t.interviewTitle),
  ],
);

export const issues = pgTable(
  'issues',
  {
    id: id('id').primaryKey(),
    issueTitle: text('issue_title').notNull(),
    issueContent: text('issue_content').notNull(),
    scanNumber: integer('scan_number').notNull().default(0),
    commentNumber: integer('comment_number').notNull().default(0),
    issueStatus: boolean('issue_status').notNull().default(false),
    issueDate: epochMs('issue_date').notNull(),
    userId: id('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    typeId: id('type_id')
      .notNull()
      .references(() => types.id, { onDelete: 'restrict' }),
    /** Bumped by the trigger bump_version (migration: record versions) on every update that changes the record (docs/api.md, versions). */
    version: integer('version').notNull().default(1),
  },
  (t) => [
    index('issues_issue_date_idx').on(t.issueDate.desc(), t.id.desc()),
    index('issues_status_date_idx').on(t.issueStatus, t.issueDate.desc(), t.id.desc()),
    index('issues_status_type_date_idx').on(t.issueStatus, t.typeId, t.issueDate.desc(), t.id.desc()),
    index('issues_type_id_date_idx').on(t.typeId, t.issueDate.desc(), t.id.desc()),
    index('issues_user_id_idx').on(t.userId),
    grams('issues_issue_title_grams_idx', t.issueTitle),
  ],
);

export const comments = pgTable(
  'comments',
  {
    id: id('id').primaryKey(),
    userId: id('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    issueId: id('issue_id').references(() => issues.id, { onDelete: 'cascade' }),
    bookId: id('book_id').references(() => books.id, { onDelete: 'cascade' }),
    typeId: id('type_id')
      .notNull()
      .references(() => types.id, { onDelete: 'restrict' }),
    commentContent: text('comment_content').notNull(),
    commentDate: epochMs('comment_date').notNull(),
    commentType: smallint('comment_type').notNull(),
    /** Held by a moderation rule: shown to admins, hidden from visitors and members until approved. */
    held: boolean('held').notNull().default(false),
  },
  (t) => [
    index('comments_type_date_idx').on(t.commentType, t.commentDate.desc(), t.id.desc()),
    index('comments_type_type_id_date_idx').on(t.commentType, t.typeId, t.commentDate.desc(), t.id.desc()),
    index('comments_issue_id_date_idx').on(t.issueId, t.commentDate.desc(), t.id.desc()).where(sql`${t.issueId} is not null`),
    index('comments_book_id_date_idx').on(t.bookId, t.commentDate.desc(), t.id.desc()).where(sql`${t.bookId} is not null`),
    index('comments_user_id_idx').on(t.userId),
    index('comments_type_id_idx').on(t.typeId),
    // Written directly, not through GIN's pending list: long texts fill the list fast, and the
    // insert that overflows it merges it while other members' inserts keep appending, for seconds
    // (docs/decisions/0022).
    grams('comments_comment_content_grams_idx', t.commentContent).with({ fastupdate: false }),
  ],
);

/** Uploaded images are kept in the database so every server process (and a backup) has them. */
export const uploads = pgTable('uploads', {
  id: id('id').primaryKey(),
  ext: varchar('ext', { length: 8 }).notNull(),
  mime: text('mime').notNull(),
  size: integer('size').notNull(),
  data: bytea('data').notNull(),
  createdAt: epochMs('created_at').notNull(),
});

/**
 * How many rows each paged list holds, by the filters that are not text: users by enabled, issues
 * by status and type, comments by comment type and type, books and interview questions by type.
 * Statement triggers (migration 0002) keep it in the same transaction as every change, so a
 * list's total is a sum over a few rows instead of a count over a table of a million.
 */
export const listCounts = pgTable(
  'list_counts',
  {
    list: text('list').notNull(),
    flag: boolean('flag').notNull().default(false),
    kind: smallint('kind').notNull().default(0),
    typeId: varchar('type_id', { length: 24 }).notNull().default(''),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.list, t.flag, t.kind, t.typeId] })],
);

/**
 * How many rows of each paged list fall in each hour (span 1), day (span 24) and block of 32 days
 * (span 768) of its date, per combination of the exact filters its pages are counted by (`key`:
 * `column=value` pairs joined by `&`, by column name; '' for the unfiltered list). `start` is the
 * bucket's first hour since 1970 (UTC). Statement triggers (migration 0009) keep it in the same
 * transaction as every change, like list_counts. A deep page adds up the blocks from the newest,
 * then the days of the block or two its page falls in, then the hours of the day or two, and so
 * walks about an hour of its index instead of every row above the page
 * (docs/decisions/0008-deep-pages.md).
 */
export const listBuckets = pgTable(
  'list_buckets',
  {
    list: text('list').notNull(),
    key: text('key').notNull(),
    span: smallint('span').notNull(),
    start: integer('start').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.list, t.key, t.span, t.start] })],
);

/**
 * The audit log (操作日志): one row per record written through the API, inserted in the same
 * transaction as the write. `admin_id` is not a foreign key and `admin_login_id` is copied: an
 * entry outlives the admin and keeps the account they had at the time. `changes` holds, for a
 * change, the fields with their values before and after (never a password or its hash). Rows
 * older than AUDIT_RETENTION_DAYS are removed by the server (modules/audit/audit.retention.ts).
 * Every filter of GET /api/audit and the record history have an index ending in the list's order.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: epochMs('at').notNull(),
    adminId: id('admin_id').notNull(),
    adminLoginId: text('admin_login_id').notNull(),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: id('entity_id').notNull(),
    title: text('title').notNull(),
    changes: jsonb('changes'),
    /**
     * The hash chain (migration 0013, docs/decisions/0016-audit-hash-chain.md): filled at commit by
     * the deferred trigger `audit_chain_link`, in commit order; null only inside the writing transaction.
     */
    seq: bigint('seq', { mode: 'number' }),
    prevHash: text('prev_hash'),
    hash: text('hash'),
  },
  (t) => [
    uniqueIndex('audit_log_seq_idx').on(t.seq),
    index('audit_log_at_idx').on(t.at.desc(), t.id.desc()),
    index('audit_log_admin_at_idx').on(t.adminId, t.at.desc(), t.id.desc()),
    index('audit_log_entity_at_idx').on(t.entity, t.at.desc(), t.id.desc()),
    index('audit_log_action_at_idx').on(t.action, t.at.desc(), t.id.desc()),
    index('audit_log_record_idx').on(t.entity, t.entityId, t.at.desc(), t.id.desc()),
    // The 记录 filter: a record's id whatever its entity, or a substring of its title.
    index('audit_log_entity_id_at_idx').on(t.entityId, t.at.desc(), t.id.desc()),
    grams('audit_log_title_grams_idx', t.title),
  ],
);

/**
 * The head of the audit chain (one row, id 1, made by the first entry): the last linked entry's
 * seq and hash. Its row lock, taken at commit by `audit_chain_link`, orders the chain as commits are.
 */
export const auditChain = pgTable('audit_chain', {
  id: smallint('id').primaryKey(),
  seq: bigint('seq', { mode: 'number' }).notNull(),
  hash: text('hash').notNull(),
});

/**
 * Ranges of the chain that retention removed (seq from..to, merged when adjacent) and the hash of
 * the last removed entry: what the next remaining entry's prev_hash must equal.
 */
export const auditChainGaps = pgTable(
  'audit_chain_gaps',
  {
    fromSeq: bigint('from_seq', { mode: 'number' }).primaryKey(),
    toSeq: bigint('to_seq', { mode: 'number' }).notNull(),
    lastHash: text('last_hash').notNull(),
  },
  (t) => [uniqueIndex('audit_chain_gaps_to_seq_idx').on(t.toSeq)],
);

/**
 * Refused calls (401 / 403 on a guarded route, throttled sign-ins): one row per (minute window,
 * address, route, reason), counted, so that a flood costs one row a minute (modules/audit/security-events.ts).
 */
export const securityEvents = pgTable(
  'security_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    windowStart: epochMs('window_start').notNull(),
    firstAt: epochMs('first_at').notNull(),
    lastAt: epochMs('last_at').notNull(),
    adminId: text('admin_id').notNull().default(''),
    adminLoginId: text('admin_login_id').notNull().default(''),
    address: text('address').notNull(),
    method: text('method').notNull(),
    route: text('route').notNull(),
    status: smallint('status').notNull(),
    reason: text('reason').notNull(),
    count: integer('count').notNull(),
  },
  (t) => [
    uniqueIndex('security_events_window_key_idx').on(t.windowStart, t.address, t.method, t.route, t.reason, t.adminId),
    index('security_events_last_at_idx').on(t.lastAt.desc(), t.id.desc()),
  ],
);

/**
 * The recycle bin: one row per deletion an admin made, holding every row that deletion removed
 * (`rows`: `[{ table, rows }]` in dependency order, each row as to_jsonb gave it) until it is
 * restored, purged or expires. The live tables never hold deleted rows, so no list, count,
 * trigger-kept counter or statistic has to know the bin exists; nothing reads this table but the
 * bin itself.
 */
export const trash = pgTable(
  'trash',
  {
    id: id('id').primaryKey(),
    entity: text('entity').notNull(),
    entityId: id('entity_id').notNull(),
    title: text('title').notNull(),
    /** How many records went with the deleted one (its cascade), not counting itself. */
    cascaded: integer('cascaded').notNull(),
    rows: jsonb('rows').notNull(),
    deletedBy: id('deleted_by').notNull(),
    deletedByLoginId: text('deleted_by_login_id').notNull(),
    deletedAt: epochMs('deleted_at').notNull(),
    expiresAt: epochMs('expires_at').notNull(),
  },
  (t) => [
    index('trash_deleted_at_idx').on(t.deletedAt.desc(), t.id.desc()),
    index('trash_entity_deleted_at_idx').on(t.entity, t.deletedAt.desc(), t.id.desc()),
    index('trash_expires_at_idx').on(t.expiresAt),
  ],
);

/**
 * One row per member (public site user) token: deleting it ends the token. Ended by the member's
 * sign-out, an admin's 结束会话, the user's deletion (cascade) or a password change; a disabled
 * user's token is refused by the session check's join and its rows deleted with the change.
 */
export const userSessions = pgTable(
  'user_sessions',
  {
    id: varchar('id', { length: 32 }).primaryKey(),
    userId: id('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: epochMs('created_at').notNull(),
    expiresAt: epochMs('expires_at').notNull(),
    /** When this session last proved the account's current password (passwordcheck): a new password is taken only shortly after. */
    passwordCheckedAt: epochMs('password_checked_at'),
    ip: text('ip').notNull().default(''),
    userAgent: text('user_agent').notNull().default(''),
  },
  (t) => [index('user_sessions_user_id_idx').on(t.userId), index('user_sessions_expires_at_idx').on(t.expiresAt)],
);

/**
 * Every change of a user's points, by the server's rules (docs/api.md "Public calls"), with the
 * balance after it. No foreign key: a member sent to the recycle bin and brought back keeps their
 * history; purging the member from the bin deletes it (trash.repository.ts).
 */
export const pointsLedger = pgTable(
  'points_ledger',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: id('user_id').notNull(),
    delta: integer('delta').notNull(),
    /** One of POINTS_REASONS (contract/values/site.ts). */
    reason: text('reason').notNull(),
    /** The record the change is about (the comment, the book), '' for none. */
    refId: varchar('ref_id', { length: 24 }).notNull().default(''),
    balance: integer('balance').notNull(),
    at: epochMs('at').notNull(),
  },
  (t) => [
    index('points_ledger_user_at_idx').on(t.userId, t.at.desc(), t.id.desc()),
    // What a comment has earned its author (site/comment-credit.ts): one lookup per approved or
    // re-held comment, instead of a walk through all of the author's ledger.
    index('points_ledger_user_ref_idx').on(t.userId, t.refId),
  ],
);

/**
 * The books whose download link a member has paid for, once each. No foreign keys: a member or a
 * book sent to the recycle bin and brought back keeps what was paid for, whichever comes back
 * first; purging either from the bin deletes its unlocks (trash.repository.ts).
 */
export const bookUnlocks = pgTable(
  'book_unlocks',
  {
    // A single-column key, as the backup reads every table in batches by one (backup.ts).
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: id('user_id').notNull(),
    bookId: id('book_id').notNull(),
    at: epochMs('at').notNull(),
  },
  (t) => [uniqueIndex('book_unlocks_user_book_key').on(t.userId, t.bookId), index('book_unlocks_book_id_idx').on(t.bookId)],
);

/** The public site's limited actions (sign-ups, questions, comments, uploads), by `action:member:<id>` and `action:ip:<address>`, counted by every process alike. */
export const rateEvents = pgTable(
  'rate_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    key: text('key').notNull(),
    at: epochMs('at').notNull(),
  },
  (t) => [index('rate_events_key_at_idx').on(t.key, t.at)],
);

/**
 * Sanctions on a member (issue 25): 禁言 (`mute`: cannot post or comment) and 封禁 (`suspend`:
 * cannot sign in), for `days` or for good (null). Active while not lifted and `ends_at` is null or
 * later than now; the clock's lift (modules/sanction, a Job) only writes `lifted_at` for the
 * record. No foreign key: a member sent to the recycle bin and brought back keeps their file.
 */
export const userSanctions = pgTable(
  'user_sanctions',
  {
    id: id('id').primaryKey(),
    userId: id('user_id').notNull(),
    kind: text('kind').notNull(),
    days: smallint('days'),
    reason: text('reason').notNull(),
    byAdminId: id('by_admin_id').notNull(),
    byLoginId: text('by_login_id').notNull(),
    startsAt: epochMs('starts_at').notNull(),
    endsAt: epochMs('ends_at'),
    /** Who lifted it by hand; null with lifted_at set: the clock did, at its end. */
    liftedBy: id('lifted_by'),
    liftedByLoginId: text('lifted_by_login_id'),
    liftedAt: epochMs('lifted_at'),
  },
  (t) => [
    index('user_sanctions_user_idx').on(t.userId, t.startsAt.desc(), t.id.desc()),
    // What the clock still has to lift: a few rows, whatever the history holds.
    index('user_sanctions_open_end_idx').on(t.endsAt).where(sql`${t.liftedAt} is null and ${t.endsAt} is not null`),
  ],
);

/** Admins' notes about a member, shown in the author's file. */
export const userNotes = pgTable(
  'user_notes',
  {
    id: id('id').primaryKey(),
    userId: id('user_id').notNull(),
    adminId: id('admin_id').notNull(),
    adminLoginId: text('admin_login_id').notNull(),
    body: text('body').notNull(),
    createdAt: epochMs('created_at').notNull(),
  },
  (t) => [index('user_notes_user_idx').on(t.userId, t.createdAt.desc(), t.id.desc())],
);

/**
 * Every decision of the review queue (审核台): who decided which item how, so that a second
 * decision is told who made the first, and the author's file counts what was rejected (the
 * rejected rows themselves are in the recycle bin). `reverted_at` is set by 撤销.
 */
export const reviewDecisions = pgTable(
  'review_decisions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind').notNull(),
    itemId: id('item_id').notNull(),
    authorId: id('author_id').notNull(),
    decision: text('decision').notNull(),
    reason: text('reason').notNull().default(''),
    decidedBy: id('decided_by').notNull(),
    decidedByLoginId: text('decided_by_login_id').notNull(),
    decidedAt: epochMs('decided_at').notNull(),
    revertedAt: epochMs('reverted_at'),
  },
  (t) => [
    index('review_decisions_item_idx').on(t.kind, t.itemId, t.decidedAt.desc(), t.id.desc()),
    index('review_decisions_author_idx').on(t.authorId, t.kind, t.decision).where(sql`${t.revertedAt} is null`),
  ],
);

/** The reasons of 拒绝 the admins keep for the queue's reason list. */
export const reviewReasons = pgTable(
  'review_reasons',
  {
    id: id('id').primaryKey(),
    text: text('text').notNull(),
    createdAt: epochMs('created_at').notNull(),
  },
  (t) => [uniqueIndex('review_reasons_text_key').on(t.text)],
);

/**
 * The moderation word list (敏感词): `folded` is the word as the matcher sees it (modules/moderation/fold.ts),
 * unique so that two spellings of one word cannot carry two actions.
 */
export const moderationWords = pgTable(
  'moderation_words',
  {
    id: id('id').primaryKey(),
    word: text('word').notNull(),
    folded: text('folded').notNull(),
    /** 'reject' | 'hold' | 'flag' */
    action: varchar('action', { length: 8 }).notNull(),
    createdBy: id('created_by').notNull(),
    createdAt: epochMs('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('moderation_words_folded_key').on(t.folded),
    index('moderation_words_created_at_idx').on(t.createdAt.desc(), t.id.desc()),
  ],
);

/** The account rules, one row (id 1, written by the first change; none means all off): 0 turns a rule off. */
export const moderationSettings = pgTable('moderation_settings', {
  id: smallint('id').primaryKey(),
  /** Hold the first N posts (questions and comments) of every account. */
  holdFirstPosts: integer('hold_first_posts').notNull().default(0),
  /** Hold posts with a link from accounts registered less than D days ago. */
  holdLinksDays: integer('hold_links_days').notNull().default(0),
  /** Raised by every change of the word list: each process rebuilds its matcher when it sees a new one. */
  wordsVersion: integer('words_version').notNull().default(0),
  updatedAt: epochMs('updated_at').notNull(),
});

/**
 * What a rule held or flagged and waits for a decision (the queue, 审核台). `reasons`:
 * `[{ rule, action, words }]`. At most one open flag per item.
 */
export const moderationFlags = pgTable(
  'moderation_flags',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** 'issue' | 'comment' | 'user' */
    kind: varchar('kind', { length: 8 }).notNull(),
    itemId: id('item_id').notNull(),
    reasons: jsonb('reasons').notNull(),
    /** 'open' | 'approved' | 'rejected' */
    state: varchar('state', { length: 8 }).notNull().default('open'),
    decidedBy: id('decided_by'),
    decidedAt: epochMs('decided_at'),
    reason: text('reason'),
    createdAt: epochMs('created_at').notNull(),
  },
  (t) => [
    index('moderation_flags_state_created_at_idx').on(t.state, t.createdAt, t.id),
    uniqueIndex('moderation_flags_open_item_key').on(t.kind, t.itemId).where(sql`${t.state} = 'open'`),
    index('moderation_flags_item_idx').on(t.kind, t.itemId),
  ],
);

/**
 * How many flags of each kind are open: the 审核台's counts, read on every call of the queue. Kept
 * by the statement triggers of migration 0021 on moderation_flags, as list_counts is for the lists.
 */
export const openFlagCounts = pgTable('open_flag_counts', {
  /** 'issue' | 'comment' | 'user' */
  kind: varchar('kind', { length: 8 }).primaryKey(),
  n: bigint('n', { mode: 'number' }).notNull(),
});

/** Outgoing notifications: group robots (企业微信, 钉钉, 飞书) and generic signed JSON webhooks. */
export const webhooks = pgTable('webhooks', {
  id: id('id').primaryKey(),
  name: text('name').notNull(),
  /** 'wecom' | 'dingtalk' | 'feishu' | 'json' */
  kind: varchar('kind', { length: 10 }).notNull(),
  url: text('url').notNull(),
  /** Encrypted (modules/account/secret-box.ts); shown once when set, never returned again. */
  secret: text('secret'),
  /** Which events it receives: 'waiting' (new items waiting), 'rule' (a rule fired). */
  events: jsonb('events').notNull(),
  enabled: boolean('enabled').notNull().default(true),
  createdAt: epochMs('created_at').notNull(),
});

/** The delivery queue and log of each webhook; retried with back-off, old rows removed (WEBHOOK_RETENTION_DAYS). */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    webhookId: id('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    event: varchar('event', { length: 16 }).notNull(),
    payload: jsonb('payload').notNull(),
    /** 'pending' | 'delivered' | 'failed' (gave up after the last attempt) */
    state: varchar('state', { length: 10 }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: epochMs('next_attempt_at').notNull(),
    lastStatus: integer('last_status'),
    lastError: text('last_error'),
    /** How long the last send took (to the answer or the error), ms. */
    lastDurationMs: integer('last_duration_ms'),
    createdAt: epochMs('created_at').notNull(),
    deliveredAt: epochMs('delivered_at'),
  },
  (t) => [
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`${t.state} = 'pending'`),
    index('webhook_deliveries_webhook_idx').on(t.webhookId, t.createdAt.desc(), t.id.desc()),
    index('webhook_deliveries_created_at_idx').on(t.createdAt),
  ],
);
