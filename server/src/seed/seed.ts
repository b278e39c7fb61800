import { loadingComments } from '../db/bulk-load';
import { backfillLoginKeys } from '../db/login-keys';
import { randomBytes } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { ALL_TABLES, writeTransaction, type LockedTable } from '../db/write-lock';
import { queryRows } from '../db/client';
import { DEFAULT_AVATAR, DEFAULT_BOOK_COVER } from '../lib/defaults';
import { newId } from '../lib/ids';
import { canonicalLoginId } from '../lib/account-names';
import { hashPassword } from '../lib/passwords';
import * as pool from './content';

export interface SeedSizes {
  users: number;
  books: number;
  interviews: number;
  issues: number;
  comments: number;
}

export const DEFAULT_SIZES: SeedSizes = { users: 200, books: 40, interviews: 60, issues: 300, comments: 1500 };
export const DEMO_SIZES: SeedSizes = { users: 30, books: 16, interviews: 24, issues: 40, comments: 160 };

/** Every seeded user can sign in to the public site with this password. */
export const SEEDED_USER_PASSWORD = '123456';

export type Progress = (table: string, done: number, total: number) => void;

const DAY_MS = 24 * 60 * 60 * 1000;
const BATCH = 20_000;

/** One text[] parameter in PostgreSQL's array syntax: a pool travels as a single value. */
function pgTextArray(values: string[]): string {
  return `{${values.map((v) => `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(',')}}`;
}
const list = (values: string[]) => sql`${pgTextArray(values)}::text[]`;
/** `values[hash(g, salt)]`: a deterministic pick per row, different per column by salt. */
const pick = (values: string[], salt: number) => sql`(${list(values)})[1 + abs(hashint4(g + ${salt})) % ${values.length}]`;
/** One int[] parameter. */
const intList = (values: number[]) => sql`${`{${values.join(',')}}`}::int[]`;
/**
 * The template of row `g` among `n`: each in turn for the first `n` rows (so a small set shows
 * them all), then a hash of the row number. Every column of the row reads the same template.
 */
const templateOf = (n: number, salt: number) => sql`(case when g <= ${n} then g else 1 + abs(hashint4(g + ${salt})) % ${n} end)`;
/** A number in [0, n) derived from the row number. */
const hashMod = (n: number, salt: number) => sql`(abs(hashint4(g * 31 + ${salt})) % ${n})`;

async function inBatches(total: number, table: LockedTable, progress: Progress, insert: (from: number, to: number) => SQL, db: Db) {
  progress(table, 0, total);
  for (let from = 1; from <= total; from += BATCH) {
    const to = Math.min(total, from + BATCH - 1);
    // A server may be writing the same database (PostgreSQL): each batch takes its table's write lock.
    await writeTransaction(db, [table], (tx) => tx.execute(insert(from, to)));
    progress(table, to, total);
  }
}

/**
 * Ids that look like the rest (8 hex of seconds first, so they sort by date), then a run tag and
 * the row number so that no two seeded rows collide, in this run or another.
 */
const seededId = (dateExpr: SQL, runTag: string) =>
  sql`lpad(to_hex((${dateExpr} / 1000)::bigint), 8, '0') || ${runTag} || lpad(to_hex(g), 8, '0')`;

export async function seed(db: Db, sizes: SeedSizes, progress: Progress = () => undefined, now = Date.now()) {
  const run = randomBytes(4).toString('hex');
  const runShort = run.slice(0, 5);

  // Types: the reference's categories, reusing those that already exist.
  for (const typeName of pool.TYPE_NAMES) {
    await writeTransaction(db, ['types'], (tx) =>
      tx.execute(sql`insert into types (id, type_name, created_at) values (${newId()}, ${typeName}, ${now}) on conflict do nothing`),
    );
  }
  const types = await queryRows<{ id: string; name: string }>(db, sql`select id, type_name as name from types order by created_at, id`);
  const typeIdOf = new Map(types.map((t) => [t.name, t.id]));
  /** The type ids of `templates`, in their order: what a row of template k is filed under. */
  const typeIdsOf = (templates: { type: pool.TypeName }[]) => list(templates.map((t) => typeIdOf.get(t.type)!));
  progress('types', types.length, types.length);

  const passwordHash = await hashPassword(SEEDED_USER_PASSWORD);
  // Each user's canonical name comes from TypeScript only (lib/account-names.ts), as for every
  // user: worked out per batch here and handed to the batch's insert, instead of filled in by
  // backfillLoginKeys afterwards (a thousand rows a round trip, ten thousand round trips at 10M).
  const loginIdSql = sql`'user_' || ${runShort} || '_' || g`;
  const loginKeys = (from: number, to: number) =>
    Array.from({ length: to - from + 1 }, (_, i) => canonicalLoginId(`user_${runShort}_${from + i}`));

  // Users: registered over the last two years, evenly, in row order.
  const userSpan = 730 * DAY_MS;
  const userDate = sql`(${now - userSpan}::bigint + (g::bigint * ${userSpan}) / ${Math.max(sizes.users, 1)})`;
  await inBatches(
    sizes.users,
    'users',
    progress,
    (from, to) => sql`
    insert into users (id, login_id, password_hash, nickname, avatar, mail, qq, wechat, intro, points, enabled, register_date, last_login_date, login_key)
    select ${seededId(userDate, run)},
           ${loginIdSql},
           ${passwordHash},
           case when ${hashMod(3, 1)} = 0
                then ${pick(pool.NICK_PREFIXES, 2)} || ${pick(pool.NICK_SUFFIXES, 3)}
                else ${pick(pool.SURNAMES, 4)} || ${pick(pool.GIVEN_NAMES, 5)} end,
           ${DEFAULT_AVATAR},
           case when ${hashMod(3, 6)} = 0 then 'user_' || ${runShort} || '_' || g || '@example.com' else '' end,
           case when ${hashMod(4, 7)} = 0 then (100000 + ${hashMod(899999999, 8)})::text else '' end,
           case when ${hashMod(5, 9)} = 0 then 'wx_' || ${runShort} || g else '' end,
           ${pick(pool.INTROS, 10)},
           100 + ${hashMod(900, 11)},
           ${hashMod(20, 12)} <> 0,
           ${userDate},
           least(${now}::bigint, ${userDate} + ${hashMod(60, 13)}::bigint * ${DAY_MS}),
           -- A key another user holds already is left for backfillLoginKeys, which settles collisions.
           case when not exists (select 1 from users u where u.login_key = k.key) then k.key end
    -- Row g's key is the array's (g - from + 1)th, read once by unnest rather than indexed per row.
    from unnest(${list(loginKeys(from, to))}) with ordinality as k(key, n), lateral (select (${from}::int + n::int - 1) as g) rows`,
    db,
  );
  // Only the rows whose canonical name another user held: none in a fresh database.
  await backfillLoginKeys(db);

  // Row-numbered copies of the keys to pick from: a hash of the row number finds its target with
  // one index lookup (the lateral joins below), never a scan of the whole table per batch.
  await db.execute(sql`drop table if exists seed_pick_users`);
  await db.execute(sql`create temp table seed_pick_users as select (row_number() over (order by id))::int as n, id from users`);
  await db.execute(sql`create index on seed_pick_users (n)`);
  await db.execute(sql`analyze seed_pick_users`);
  const [{ n: userCount }] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from seed_pick_users`);

  const bookSpan = 1000 * DAY_MS;
  const bookDate = sql`(${now - bookSpan}::bigint + (g::bigint * ${bookSpan}) / ${Math.max(sizes.books, 1)})`;
  const bookTitles = pool.BOOKS.map((b) => b.title);
  await inBatches(
    sizes.books,
    'books',
    progress,
    (from, to) => sql`
    insert into books (id, book_title, book_pic, download_link, book_intro, scan_number, comment_number, on_shelf_date, require_points, type_id)
    select ${seededId(bookDate, run)},
           case when g <= ${bookTitles.length} then (${list(bookTitles)})[k]
                else (${list(bookTitles)})[k] || '（第' || (1 + g / ${bookTitles.length}) || '版）' end,
           ${DEFAULT_BOOK_COVER},
           'https://pan.baidu.com/s/1' || substr(md5(${run} || g), 1, 22),
           (${list(pool.BOOKS.map((b) => b.intro))})[k],
           ${hashMod(5000, 23)},
           0,
           ${bookDate},
           ((${hashMod(4, 24)}) + 1) * 10,
           (${typeIdsOf(pool.BOOKS)})[k]
    from (select g, ${templateOf(bookTitles.length, 21)} as k from generate_series(${from}::int, ${to}::int) g) picked`,
    db,
  );

  const interviewDate = sql`(${now - 600 * DAY_MS}::bigint + (g::bigint * ${600 * DAY_MS}) / ${Math.max(sizes.interviews, 1)})`;
  const interviewTitles = pool.INTERVIEWS.map((q) => q.title);
  await inBatches(
    sizes.interviews,
    'interviews',
    progress,
    (from, to) => sql`
    insert into interviews (id, interview_title, interview_content, on_shelf_date, type_id)
    select ${seededId(interviewDate, run)},
           case when g <= ${interviewTitles.length} then (${list(interviewTitles)})[k]
                else (${list(interviewTitles)})[k] || '（' || g || '）' end,
           (${list(pool.INTERVIEWS.map((q) => q.content))})[k],
           ${interviewDate},
           (${typeIdsOf(pool.INTERVIEWS)})[k]
    from (select g, ${templateOf(interviewTitles.length, 31)} as k from generate_series(${from}::int, ${to}::int) g) picked`,
    db,
  );

  const issueSpan = 365 * DAY_MS;
  const issueDate = sql`(${now - issueSpan}::bigint + (g::bigint * ${issueSpan}) / ${Math.max(sizes.issues, 1)})`;
  const issueTitles = pool.ISSUES.map((i) => i.title);
  if (userCount > 0) {
    await inBatches(
      sizes.issues,
      'issues',
      progress,
      (from, to) => sql`
      insert into issues (id, issue_title, issue_content, scan_number, comment_number, issue_status, issue_date, user_id, type_id)
      select ${seededId(issueDate, run)},
             (${list(issueTitles)})[k],
             (${list(pool.ISSUES.map((i) => i.content))})[k],
             ${hashMod(3000, 43)},
             0,
             ${hashMod(10, 44)} < 7,
             ${issueDate},
             u.id,
             (${typeIdsOf(pool.ISSUES)})[k]
      from (select g, ${templateOf(issueTitles.length, 41)} as k from generate_series(${from}::int, ${to}::int) g) rows
      -- Only users registered before the question: they come first in id order (users span
      -- 730 days, questions the last 365).
      cross join lateral (select id from seed_pick_users where n = 1 + ${hashMod(userCount, 46)} % greatest(1, (${userCount}::bigint * (${sizes.issues}::bigint + g)) / (2 * ${Math.max(sizes.issues, 1)}::bigint))::int) u`,
      db,
    );
  }

  await db.execute(sql`drop table if exists seed_pick_issues`);
  // `k`: the template an issue was made from (null for one an administrator or user wrote), whose
  // answers its comments are drawn from.
  await db.execute(sql`create temp table seed_pick_issues as
    select (row_number() over (order by id))::int as n, id, type_id, array_position(${list(issueTitles)}, issue_title) as k from issues`);
  await db.execute(sql`create index on seed_pick_issues (n)`);
  await db.execute(sql`analyze seed_pick_issues`);
  await db.execute(sql`drop table if exists seed_pick_books`);
  await db.execute(sql`create temp table seed_pick_books as select (row_number() over (order by id))::int as n, id, type_id from books`);
  await db.execute(sql`create index on seed_pick_books (n)`);
  await db.execute(sql`analyze seed_pick_books`);
  const [{ issues: issueCount, books: bookCount }] = await queryRows<{ issues: number; books: number }>(
    db,
    sql`select (select count(*)::int from seed_pick_issues) as issues, (select count(*)::int from seed_pick_books) as books`,
  );

  // Comments: seven in ten on issues, the rest on books, spread over the last year in row order
  // (so ids grow with the date and inserts append to the indexes). Each picks a user and a target
  // from those created before it, which also gives older questions more answers, as in life.
  // An issue of template k takes its comments from its own answers and the replies that suit any
  // question: one flat array, template k's share starting at replyStart[k], replyCount[k] long.
  const replySets = pool.ISSUES.map((i) => [...i.answers, ...pool.ISSUE_REPLIES]);
  const replyStart = replySets.map((_, k) => 1 + replySets.slice(0, k).reduce((sum, set) => sum + set.length, 0));
  const replies = list(replySets.flat());
  if (userCount > 0 && (issueCount > 0 || bookCount > 0)) {
    const onIssue = issueCount > 0 && bookCount > 0 ? sql`${hashMod(10, 51)} < 7` : issueCount > 0 ? sql`true` : sql`false`;
    const total = Math.max(sizes.comments, 1);
    const commentDate = sql`(${now - issueSpan}::bigint + (g::bigint * ${issueSpan}) / ${total})`;
    // Of `count` rows in id order, the first share that existed at comment g (their spans end now).
    const before = (count: number, spanDays: number) =>
      sql`greatest(1, (${count}::bigint * (${(spanDays - 365) * total}::bigint + 365 * g::bigint)) / (${spanDays * total}::bigint))::int`;
    await loadingComments(db, () =>
      inBatches(
        sizes.comments,
        'comments',
        progress,
        (from, to) => sql`
      insert into comments (id, user_id, issue_id, book_id, type_id, comment_content, comment_date, comment_type)
      select ${seededId(commentDate, run)},
             u.id,
             i.id,
             case when i.id is null then b.id end,
             coalesce(i.type_id, b.type_id),
             case when i.id is null then ${pick(pool.BOOK_COMMENTS, 53)}
                  when i.k is null then ${pick(pool.ISSUE_REPLIES, 57)}
                  else (${replies})[(${intList(replyStart)})[i.k] + ${hashMod(1_000_003, 58)} % (${intList(replySets.map((r) => r.length))})[i.k]] end,
             ${commentDate},
             case when i.id is null then 2 else 1 end
      from generate_series(${from}::int, ${to}::int) g
      cross join lateral (select id from seed_pick_users where n = 1 + ${hashMod(userCount, 54)} % ${before(userCount, 730)}) u
      left join lateral (select id, type_id, k from seed_pick_issues
                         where ${onIssue} and n = 1 + ${hashMod(Math.max(issueCount, 1), 55)} % ${before(Math.max(issueCount, 1), 365)}) i on true
      left join lateral (select id, type_id from seed_pick_books
                         where not (${onIssue}) and n = 1 + ${hashMod(Math.max(bookCount, 1), 56)} % ${before(Math.max(bookCount, 1), 1000)}) b on true`,
        db,
      ),
    );
  }

  // Counters follow from the rows, so they are exact whatever was there before (held comments are not counted).
  progress('counters', 0, 2);
  await writeTransaction(db, ['issues', 'comments'], (tx) =>
    tx.execute(sql`
    update issues set comment_number = coalesce(c.n, 0)
    from (select i.id, count(c.id)::int as n from issues i left join comments c on c.issue_id = i.id and not c.held group by i.id) c
    where c.id = issues.id and issues.comment_number is distinct from coalesce(c.n, 0)`),
  );
  progress('counters', 1, 2);
  await writeTransaction(db, ['books', 'comments'], (tx) =>
    tx.execute(sql`
    update books set comment_number = coalesce(c.n, 0)
    from (select b.id, count(c.id)::int as n from books b left join comments c on c.book_id = b.id and not c.held group by b.id) c
    where c.id = books.id and books.comment_number is distinct from coalesce(c.n, 0)`),
  );
  progress('counters', 2, 2);

  await db.execute(sql`drop table if exists seed_pick_users`);
  await db.execute(sql`drop table if exists seed_pick_issues`);
  await db.execute(sql`drop table if exists seed_pick_books`);
  // Vacuum as well as analyze: the visibility map it sets is what lets the lists' page queries
  // read their indexes alone (index-only scans) straight after a bulk load.
  await db.execute(sql`vacuum analyze`);
}

/** True when there is no content yet (a fresh install), so `--demo` may fill it. */
export async function isEmpty(db: Db): Promise<boolean> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select (select count(*) from users) + (select count(*) from books) + (select count(*) from issues) + (select count(*) from interviews) as n`,
  );
  return Number(row.n) === 0;
}

/** Removes all content (not admins, sessions or uploads). */
export async function resetContent(db: Db) {
  await writeTransaction(db, ALL_TABLES, (tx) =>
    tx.execute(sql`truncate book_unlocks, points_ledger, user_sessions, comments, issues, interviews, books, users, types`),
  );
}
