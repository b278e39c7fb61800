import { sql } from 'drizzle-orm';
import { createTestContext, type TestContext } from '../../test/harness';
import { seed } from '../seed/seed';
import { loadingComments } from './bulk-load';
import { queryRows } from './client';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

/** The comment texts' grams index's storage options, as PostgreSQL keeps them. */
const options = async () =>
  (
    await queryRows<{ options: string[] | null }>(
      t.database.db,
      sql`select reloptions as options from pg_class where relname = 'comments_comment_content_grams_idx'`,
    )
  )[0].options;

/** Pages merged from the pending list into the index: 0 when nothing was waiting in it. */
const pendingPagesMerged = async () =>
  Number(
    (
      await queryRows<{ pages: number }>(
        t.database.db,
        sql`select gin_clean_pending_list('comments_comment_content_grams_idx'::regclass) as pages`,
      )
    )[0].pages,
  );

describe('comment texts written straight into their index (migration 0024)', () => {
  it('is how the migrations leave the index', async () => {
    expect(await options()).toEqual(['fastupdate=off']);
  });

  it('a bulk load batches them through the pending list and leaves it merged and off', async () => {
    await seed(t.database.db, { users: 20, books: 5, interviews: 0, issues: 10, comments: 300 });
    expect(await options()).toEqual(['fastupdate=off']);
    expect(await pendingPagesMerged()).toBe(0);
    // Every comment the text holds is found through the index, as a scan of the table finds it.
    const byScan = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from comments where comment_content ilike '%的%'`,
    );
    const byIndex = await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      return queryRows<{ n: number }>(
        tx,
        sql`select count(*)::int as n from comments where search_grams(comment_content) @> search_term_grams('的') and comment_content ilike '%的%'`,
      );
    });
    expect(byScan[0].n).toBeGreaterThan(0);
    expect(byIndex[0].n).toBe(byScan[0].n);
  });

  it('a load that fails leaves the index as a single write wants it', async () => {
    const failed = loadingComments(t.database.db, async () => {
      expect(await options()).toEqual(['fastupdate=on']);
      throw new Error('the load broke off');
    });
    await expect(failed).rejects.toThrow('the load broke off');
    expect(await options()).toEqual(['fastupdate=off']);
  });
});
