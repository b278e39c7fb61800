import { eq, sql } from 'drizzle-orm';
import { createTestContext, type TestContext } from '../../test/harness';
import { contentFixtures } from '../../test/content';
import { createAuditRepository } from '../modules/audit/audit.repository';
import { createCommentRepository } from '../modules/comment/comment.repository';
import { queryRows } from './client';
import { nearestEndPage, STATEMENT_NAME_MAX, statementName } from './list';
import { auditLog } from './schema';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

describe('pages of a counted list read from the nearer end', () => {
  beforeAll(async () => {
    // 157 entries, many sharing a time (ties are broken by id), two kinds of entity.
    await ctx.database.db.execute(sql`
      insert into audit_log (at, admin_id, admin_login_id, action, entity, entity_id, title)
      select 1000 + (g % 23) * 7, 'a', 'a', '修改', case when g % 3 = 0 then 'book' else 'user' end, lpad(to_hex(g), 24, '0'), 't'
      from generate_series(1, 157) g`);
  });

  it('are every page that skipping the rows from the newest would give, past the end included', async () => {
    const { db } = ctx.database;
    for (const where of [undefined, eq(auditLog.entity, 'user'), eq(auditLog.entity, 'book')]) {
      const plain = await queryRows<{ id: number }>(
        db,
        sql`select id from audit_log where ${where ?? sql`true`} order by at desc, id desc`,
      );
      for (const limit of [1, 7, 10]) {
        for (let offset = 0; offset <= plain.length + limit; offset++) {
          const { pageIds, total } = nearestEndPage({ db, table: auditLog, where, date: auditLog.at, id: auditLog.id, limit, offset });
          const found = await queryRows<{ id: number; total: number }>(
            db,
            sql`select page.id, ${total} as total from ${pageIds} join audit_log a on a.id = page.id order by a.at desc, a.id desc`,
          );
          expect({ limit, offset, ids: found.map((r) => Number(r.id)) }).toEqual({
            limit,
            offset,
            ids: plain.slice(offset, offset + limit).map((r) => Number(r.id)),
          });
          for (const row of found) expect(Number(row.total)).toBe(plain.length);
        }
      }
    }
  });

  it('give the audit list its rows and its total on any page', async () => {
    const audit = createAuditRepository(ctx.database.db);
    const [{ n }] = await queryRows<{ n: number }>(ctx.database.db, sql`select count(*)::int as n from audit_log where entity = 'user'`);
    const total = Number(n);
    const last = Math.ceil(total / 10);
    for (const current of [1, 2, last - 1, last, last + 1]) {
      const page = await audit.list({ entity: 'user' }, { current, pageSize: 10 });
      expect({ current, count: page.count, rows: page.data.length }).toEqual({
        current,
        count: total,
        rows: Math.max(0, Math.min(10, total - (current - 1) * 10)),
      });
      expect(page.data.every((row) => row.entity === 'user')).toBe(true);
    }
  });
});

describe('prepared statements of the lists', () => {
  it('keep every name within the 63 bytes PostgreSQL keeps, and apart', () => {
    const first = statementName(`comment_l0000000_scan_commentType_typeId_commentContentGram_plain_first_1`);
    const next = statementName(`comment_l0000000_scan_commentType_typeId_commentContentGram_plain_next_1`);
    expect(Buffer.byteLength(first)).toBeLessThanOrEqual(STATEMENT_NAME_MAX);
    expect(Buffer.byteLength(next)).toBeLessThanOrEqual(STATEMENT_NAME_MAX);
    expect(first).not.toBe(next);
    expect(statementName('comment_list_commentType')).toBe('comment_list_commentType');
  });

  // On PostgreSQL, without the layers, the first and the next batch of this scan had names that
  // differed only past byte 63: the second batch failed with "prepared statement already exists".
  it('scan a filtered list batch after batch on every layer set', async () => {
    const fixtures = contentFixtures(ctx.database.db);
    const typeId = await fixtures.type('list-scan-type');
    const userId = await fixtures.user({ loginId: 'list-scan-user' });
    const issueId = await fixtures.issue(userId, typeId);
    const ids = [];
    for (let i = 0; i < 3; i++) {
      ids.push(await fixtures.comment({ userId, typeId, issueId, commentContent: `<p>扫描 ${i}</p>`, commentDate: 1000 + i }));
    }
    const batches = [];
    for await (const batch of createCommentRepository(ctx.database.db).scan({ commentType: 1, typeId, commentContent: '扫描' }, 1)) {
      batches.push(batch.map((row) => row.id));
    }
    expect(batches).toEqual([[ids[2]], [ids[1]], [ids[0]]]);
  });
});
