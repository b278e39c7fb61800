import { eq, sql } from 'drizzle-orm';
import { createTestContext, type TestContext } from '../../test/harness';
import { createAuditRepository } from '../modules/audit/audit.repository';
import { queryRows } from './client';
import { nearestEndPage } from './list';
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
