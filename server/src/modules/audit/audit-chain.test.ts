import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { AUDIT_CHAIN_BREAKS, type AuditChainReport } from '#contract/audit';
import { bearer, createTestContext, freshDatabase, ROOT_LOGIN, type TestContext } from '../../../test/harness';
import { backup, restore } from '../../backup/backup';
import { verifyChain } from './audit.chain';
import { createAudit } from './audit';
import { openDatabase, queryRows, type Database } from '../../db/client';
import { scratchDatabase } from '../../../test/live/postgres';
import { createAuditRepository } from './audit.repository';
import { createAuditRetention } from './audit.retention';
import { createSecurityEvents } from './security-events';

let t: TestContext;
let root: string;
let normal: { id: string; token: string };
beforeAll(async () => {
  t = await createTestContext();
  root = await t.rootToken();
  normal = await t.createAdmin('chain-normal', 2);
}, 120_000);
afterAll(() => t.close());

const DAY_MS = 24 * 60 * 60 * 1000;

async function verify(token = root): Promise<AuditChainReport> {
  const response = await t.inject({ method: 'GET', url: '/api/audit/verify', headers: bearer(token) });
  expect(response.statusCode).toBe(200);
  return response.json().data;
}

/** Writes `n` audit entries through the API (each a type created: one entry apiece). */
async function write(n: number, prefix: string) {
  for (let i = 0; i < n; i++) {
    const response = await t.inject({ method: 'POST', url: '/api/type', headers: bearer(root), payload: { typeName: `${prefix}-${i}` } });
    expect(response.statusCode).toBe(201);
  }
}

async function chain(): Promise<Array<{ id: string; seq: string; title: string }>> {
  return queryRows(t.database.db, sql`select a.id::text, a.seq::text, a.title from audit_log a order by a.seq`);
}

describe('the hash chain', () => {
  it('links every entry at commit; GET /api/audit/verify says ok and how many (a super admin only)', async () => {
    await write(5, 'chain-ok');
    const report = await verify();
    const [{ n }] = await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from audit_log`);
    expect(report).toEqual({ ok: true, count: n, purged: 0 });
    const rows = await chain();
    expect(rows.map((row) => Number(row.seq))).toEqual(rows.map((_, i) => i + 1));
    expect((await t.inject({ method: 'GET', url: '/api/audit/verify', headers: bearer(normal.token) })).statusCode).toBe(403);
    expect((await t.inject({ method: 'GET', url: '/api/audit/verify' })).statusCode).toBe(401);
  });

  it('names the first entry whose content was changed, and is whole again once it is put back', async () => {
    await write(3, 'chain-tamper');
    const rows = await chain();
    const target = rows[rows.length - 2];
    await t.database.db.execute(sql`update audit_log set title = 'forged' where id = ${Number(target.id)}`);
    expect(await verify()).toMatchObject({
      ok: false,
      broken: { id: target.id, seq: Number(target.seq), reason: AUDIT_CHAIN_BREAKS.content },
    });
    await t.database.db.execute(sql`update audit_log set title = ${target.title} where id = ${Number(target.id)}`);
    expect((await verify()).ok).toBe(true);
  });

  it('names the entry after a deleted one, and the entries swapped in order', async () => {
    await write(4, 'chain-delete');
    let rows = await chain();
    const [, gone, after] = rows.slice(-4);
    const saved = await queryRows<Record<string, unknown>>(t.database.db, sql`select * from audit_log where id = ${Number(gone.id)}`);
    await t.database.db.execute(sql`delete from audit_log where id = ${Number(gone.id)}`);
    expect(await verify()).toMatchObject({ ok: false, broken: { id: after.id, reason: AUDIT_CHAIN_BREAKS.missing } });
    // Put back as it was (its hash with it, so the trigger keeps it): whole again.
    const row = saved[0];
    await t.database.db.execute(
      sql`insert into audit_log (id, at, admin_id, admin_login_id, action, entity, entity_id, title, changes, seq, prev_hash, hash)
          values (${row.id}, ${row.at}, ${row.admin_id}, ${row.admin_login_id}, ${row.action}, ${row.entity}, ${row.entity_id}, ${row.title},
                  ${row.changes === null ? null : JSON.stringify(row.changes)}::jsonb, ${row.seq}, ${row.prev_hash}, ${row.hash})`,
    );
    expect((await verify()).ok).toBe(true);

    // Two entries trade places in the chain.
    rows = await chain();
    const [a, b] = rows.slice(-3, -1);
    await t.database.db.execute(sql`update audit_log set seq = -1 where id = ${Number(a.id)}`);
    await t.database.db.execute(sql`update audit_log set seq = ${Number(a.seq)} where id = ${Number(b.id)}`);
    await t.database.db.execute(sql`update audit_log set seq = ${Number(b.seq)} where id = ${Number(a.id)}`);
    expect(await verify()).toMatchObject({ ok: false, broken: { id: b.id, seq: Number(a.seq) } });
    await t.database.db.execute(sql`update audit_log set seq = -1 where id = ${Number(b.id)}`);
    await t.database.db.execute(sql`update audit_log set seq = ${Number(a.seq)} where id = ${Number(a.id)}`);
    await t.database.db.execute(sql`update audit_log set seq = ${Number(b.seq)} where id = ${Number(b.id)}`);
    expect((await verify()).ok).toBe(true);
  });

  it('notices the newest entries deleted (the head says where the chain ends)', async () => {
    await write(2, 'chain-tail');
    const rows = await chain();
    const last = rows[rows.length - 1];
    const saved = (await queryRows<Record<string, unknown>>(t.database.db, sql`select * from audit_log where id = ${Number(last.id)}`))[0];
    await t.database.db.execute(sql`delete from audit_log where id = ${Number(last.id)}`);
    expect(await verify()).toMatchObject({ ok: false, broken: { seq: Number(last.seq), reason: AUDIT_CHAIN_BREAKS.tail } });
    await t.database.db.execute(
      sql`insert into audit_log (id, at, admin_id, admin_login_id, action, entity, entity_id, title, changes, seq, prev_hash, hash)
          values (${saved.id}, ${saved.at}, ${saved.admin_id}, ${saved.admin_login_id}, ${saved.action}, ${saved.entity}, ${saved.entity_id},
                  ${saved.title}, ${saved.changes === null ? null : JSON.stringify(saved.changes)}::jsonb, ${saved.seq}, ${saved.prev_hash}, ${saved.hash})`,
    );
    expect((await verify()).ok).toBe(true);
  });

  it('stays whole under concurrent writers (chain order = commit order)', async () => {
    const before = (await verify()).count;
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        t.inject({ method: 'POST', url: '/api/type', headers: bearer(root), payload: { typeName: `chain-race-${i}` } }),
      ),
    );
    expect(await verify()).toEqual({ ok: true, count: before + 40, purged: 0 });
  });

  it('retention purges keep the rest verifiable, whatever their order in the chain', async () => {
    const at = t.clock.now();
    // Old entries interleaved with recent ones in the chain: the purge leaves holes, each recorded.
    for (let i = 0; i < 3; i++) {
      await t.database.db.execute(sql`
        insert into audit_log (at, admin_id, admin_login_id, action, entity, entity_id, title)
        select ${at - 40 * DAY_MS}::bigint - g, 'x', ${ROOT_LOGIN}, '修改', 'user', 'x', 'old' from generate_series(1, 30) g`);
      await write(1, `chain-keep-${i}`);
    }
    const retention = createAuditRetention({ repo: createAuditRepository(t.database.db), days: 30, now: t.clock.now });
    expect(await retention.runOnce()).toBe(90);
    const report = await verify();
    expect(report).toMatchObject({ ok: true, purged: 90 });
    // And a tampered entry after the holes is still found.
    const rows = await chain();
    const target = rows[rows.length - 1];
    await t.database.db.execute(sql`update audit_log set title = 'forged' where id = ${Number(target.id)}`);
    expect(await verify()).toMatchObject({ ok: false, broken: { id: target.id, reason: AUDIT_CHAIN_BREAKS.content } });
    await t.database.db.execute(sql`update audit_log set title = ${target.title} where id = ${Number(target.id)}`);
    // Purging everything that is left (the clock far ahead) keeps a verifiable, empty chain.
    const later = () => t.clock.now() + 400 * DAY_MS;
    await createAuditRetention({ repo: createAuditRepository(t.database.db), days: 30, now: later }).runOnce();
    expect(await verify()).toMatchObject({ ok: true, count: 0 });
    await write(1, 'chain-after-purge');
    expect(await verify()).toMatchObject({ ok: true, count: 1 });
  });
});

describe('two processes writing at once (PostgreSQL: two pools on one database)', () => {
  it('200 transactions of 1 to 3 entries each, spread over both: one chain, in commit order, that verifies', async () => {
    const adminUrl = process.env.TEST_DATABASE_URL;
    // On PGlite there is one connection: the same writes, one pool.
    const scratch = adminUrl ? await scratchDatabase(adminUrl, 'cs_chain') : null;
    const handles: Database[] = scratch
      ? await Promise.all([0, 1].map(() => openDatabase({ kind: 'postgres', url: scratch.url, poolSize: 5 })))
      : [t.database];
    try {
      if (scratch) await handles[0].migrate();
      const audit = createAudit();
      const actor = { id: 'x', loginId: 'racer', permission: 1 };
      const before = (await verifyChain(handles[0].db)).count;
      await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          handles[i % handles.length].db.transaction((tx) =>
            audit.record(
              tx,
              actor,
              Array.from({ length: (i % 3) + 1 }, (_, j) => ({
                action: '新增' as const,
                entity: 'user' as const,
                entityId: 'x',
                title: `race ${i}.${j}`,
              })),
            ),
          ),
        ),
      );
      // 1, 2, 3, 1, 2, 3 … entries: 399 in all.
      expect(await verifyChain(handles[0].db)).toMatchObject({ ok: true, count: before + 399 });
    } finally {
      if (scratch) {
        await Promise.all(handles.map((handle) => handle.close()));
        await scratch.drop();
      }
    }
  }, 120_000);
});

describe('backup and restore', () => {
  it('a restored log verifies as the original did, and goes on linking after it', async () => {
    const before = await verify();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cs-chain-'));
    const archive = path.join(dir, 'chain.jsonl.gz');
    const target = await freshDatabase();
    try {
      await backup(t.database.db, archive);
      await restore(target.database, archive);
      expect(await verifyChain(target.database.db)).toEqual(before);
      await target.database.db.execute(
        sql`insert into audit_log (at, admin_id, admin_login_id, action, entity, entity_id, title) values (1, 'x', 'x', '新增', 'user', 'x', 'after restore')`,
      );
      expect(await verifyChain(target.database.db)).toMatchObject({ ok: true, count: before.count + 1 });
    } finally {
      await target.database.close();
      await target.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('security events', () => {
  it('records refused calls, a flood as one counted row, and lists them for a super admin only', async () => {
    for (let i = 0; i < 50; i++) {
      expect((await t.inject({ method: 'GET', url: '/api/user', remoteAddress: '203.0.113.9' })).statusCode).toBe(401);
    }
    expect(
      (await t.inject({ method: 'GET', url: '/api/admin', headers: bearer(normal.token), remoteAddress: '203.0.113.10' })).statusCode,
    ).toBe(403);
    const list = await t.inject({ method: 'GET', url: '/api/audit?security=true&pageSize=100', headers: bearer(root) });
    expect(list.statusCode).toBe(200);
    const events = list.json().data.data as Array<Record<string, unknown>>;
    expect(events).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ address: '203.0.113.9', route: '/api/user', status: 401, count: 50, adminLoginId: '' }),
        expect.objectContaining({ address: '203.0.113.10', route: '/api/admin', status: 403, count: 1, adminLoginId: 'chain-normal' }),
      ]),
    );
    const flood = events.find((event) => event.address === '203.0.113.9');
    // The reason is the answer's errorCode.
    expect(flood?.reason).toMatch(/^[A-Z_]+$/);
    expect(list.json().data).toMatchObject({ currentPage: 1, eachPage: 100, count: events.length });
    expect((await t.inject({ method: 'GET', url: '/api/audit?security=true', headers: bearer(normal.token) })).statusCode).toBe(403);
  });

  it('records throttled sign-ins (429)', async () => {
    let status = 0;
    for (let i = 0; i < 30 && status !== 429; i++)
      status = (await t.login('chain-normal', 'wrong-password-1', { ip: '203.0.113.11' })).statusCode;
    expect(status).toBe(429);
    const events = (await t.inject({ method: 'GET', url: '/api/audit?security=true&pageSize=100', headers: bearer(root) })).json().data
      .data;
    expect(events).toEqual(
      expect.arrayContaining([expect.objectContaining({ address: '203.0.113.11', status: 429, route: '/api/admin/login' })]),
    );
  });

  it('holds a bounded number of keys between writes: the rest is counted under one overflow key', async () => {
    const events = createSecurityEvents({ db: t.database.db, maxKeys: 3 });
    for (let i = 0; i < 100; i++) {
      events.note({
        at: 0,
        adminId: '',
        adminLoginId: '',
        address: `198.51.100.${i}`,
        method: 'GET',
        route: '/api/x',
        status: 401,
        reason: 'X',
      });
    }
    expect(events.pendingKeys()).toBe(4);
    await events.flush();
    const [row] = await queryRows<{ count: number }>(
      t.database.db,
      sql`select count from security_events where address = '*' and window_start = 0`,
    );
    expect(row.count).toBe(97);
  });
});
