import { AsyncLocalStorage } from 'node:async_hooks';
import { sql } from 'drizzle-orm';
import { scratchDatabase } from '../../test/live/postgres';
import { openDatabase, type Database, type StatementHook } from './client';

// The statement hook (lib/tracing.ts's SQL spans) on the database the suite runs on: PGlite, or
// PostgreSQL when TEST_DATABASE_URL is set, there with a pool of one connection so that callers queue.

const caller = new AsyncLocalStorage<string>();
const seen: Array<{ text: string; caller: string | undefined; outcome?: unknown }> = [];
const onStatement: StatementHook = (text) => {
  const entry: (typeof seen)[number] = { text, caller: caller.getStore() };
  seen.push(entry);
  return (error) => {
    expect(entry).not.toHaveProperty('outcome');
    entry.outcome = error;
  };
};

let database: Database;
let drop: () => Promise<void> = async () => undefined;
beforeAll(async () => {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    const scratch = await scratchDatabase(adminUrl, 'cs_hook');
    drop = scratch.drop;
    database = await openDatabase({ kind: 'postgres', url: scratch.url, poolSize: 1, onStatement });
  } else {
    database = await openDatabase({ kind: 'embedded', dataDir: null, onStatement });
  }
}, 120_000);
afterAll(async () => {
  await database.close();
  await drop();
});
beforeEach(() => {
  seen.length = 0;
});

// drizzle's queries start when awaited: each caller awaits its own inside its context.
describe('the statement hook', () => {
  it('sees each statement once, with its text and not its parameters, and hears its outcome', async () => {
    await caller.run('a', async () => await database.db.execute(sql`select ${'secret-parameter'}::text as x`));
    await expect(caller.run('b', async () => await database.db.execute(sql`select * from no_such_table`))).rejects.toThrow();
    expect(seen).toHaveLength(2);
    expect(seen[0]).toMatchObject({ caller: 'a', outcome: null });
    expect(seen[0].text).toMatch(/^select \$1::text as x$/);
    expect(JSON.stringify(seen)).not.toContain('secret-parameter');
    expect(seen[1]).toMatchObject({ caller: 'b', text: 'select * from no_such_table' });
    expect(seen[1].outcome).toBeInstanceOf(Error);
  });

  it("sees a transaction's statements, in its caller's context", async () => {
    await caller.run('tx', async () => await database.db.transaction(async (tx) => tx.execute(sql`select 1`)));
    // PGlite's transaction() sends its BEGIN and COMMIT itself, not through query().
    const expected = database.kind === 'postgres' ? ['begin', 'select 1', 'commit'] : ['select 1'];
    expect(seen.map((s) => s.text.toLowerCase())).toEqual(expected);
    expect(seen.every((s) => s.caller === 'tx' && s.outcome === null)).toBe(true);
  });

  it('keeps each caller its own statements when they queue for a connection', async () => {
    const callers = ['c1', 'c2', 'c3', 'c4', 'c5'];
    await Promise.all(callers.map((id) => caller.run(id, async () => await database.db.execute(sql.raw(`select '${id}' as id`)))));
    expect(seen).toHaveLength(callers.length);
    for (const entry of seen) expect(entry.text).toBe(`select '${entry.caller}' as id`);
  });
});
