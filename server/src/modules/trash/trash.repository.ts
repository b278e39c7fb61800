import { and, count, eq, sql } from 'drizzle-orm';
import type { TrashEntity } from '#contract/trash';
import { queryRows, type Db } from '../../db/client';
import { nearestEndPage, newestFirst, paginate } from '../../db/list';
import { trash } from '../../db/schema';
import type { Locked } from '../../db/write-lock';
import { BINNED, type ContentTable } from '../../db/entities';
import { canonicalLoginId } from '../../lib/account-names';
import type { PageRequest } from '../../lib/paging';

export type TrashRow = Omit<typeof trash.$inferSelect, 'rows'>;
export type TrashRepository = ReturnType<typeof createTrashRepository>;

/** Every lock a restore or purge may need: the tables it inserts into and the parents it recounts. */
export type TrashLocks = Locked<ContentTable>;

/**
 * The references a restored row needs, checked in restore order after the rows before it are
 * back: the first row whose parent is missing names the reason of the refusal.
 */
export const PARENTS: Record<
  ContentTable,
  Array<[column: string, parent: ContentTable | 'types', reason: 'user' | 'issue' | 'book' | 'type']>
> = {
  users: [],
  books: [['type_id', 'types', 'type']],
  interviews: [['type_id', 'types', 'type']],
  issues: [
    ['user_id', 'users', 'user'],
    ['type_id', 'types', 'type'],
  ],
  comments: [
    ['user_id', 'users', 'user'],
    ['issue_id', 'issues', 'issue'],
    ['book_id', 'books', 'book'],
    ['type_id', 'types', 'type'],
  ],
};

/** The rows of one table held by entry `id`, as a set-returning expression with alias `r`. */
const heldRows = (id: string, table: ContentTable) =>
  sql`(select r.* from trash e cross join jsonb_array_elements(e.rows) part
        cross join jsonb_populate_recordset(null::${sql.identifier(table)}, part->'rows') r
        where e.id = ${id} and part->>'table' = ${table})`;

/** `a, b, c` as parameters: the same on both drivers, where an array parameter is not. */
const idList = (ids: string[]) =>
  sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );

// An uploaded file's address as the rows hold it (UPLOAD_URL_PREFIX, a 24-hex id, an extension).
const UPLOAD_REFERENCE = '/static/uploads/([0-9a-f]{24})\\.';

export function createTrashRepository(db: Db) {
  const listColumns = {
    id: trash.id,
    entity: trash.entity,
    entityId: trash.entityId,
    title: trash.title,
    cascaded: trash.cascaded,
    deletedBy: trash.deletedBy,
    deletedByLoginId: trash.deletedByLoginId,
    deletedAt: trash.deletedAt,
    expiresAt: trash.expiresAt,
  };

  /**
   * Removes these entries' uploads that nothing else refers to: no live row (admins included)
   * and no other entry. The caller holds the content write locks, so no row that could refer to
   * one is written meanwhile. Each check is a scan, paid only by a purge that held a file.
   */
  async function deleteOrphanUploads(candidates: string[], tx: TrashLocks): Promise<number> {
    if (!candidates.length) return 0;
    const referenced = (table: string, column: string) =>
      sql`exists (select 1 from ${sql.identifier(table)} x where position(u.id in x.${sql.identifier(column)}) > 0)`;
    const rows = await queryRows<{ id: string }>(
      tx,
      sql`delete from uploads u where u.id in (${idList(candidates)})
        and not ${referenced('admins', 'avatar')} and not ${referenced('users', 'avatar')}
        and not ${referenced('books', 'book_pic')} and not ${referenced('books', 'book_intro')}
        and not ${referenced('interviews', 'interview_content')} and not ${referenced('issues', 'issue_content')}
        and not ${referenced('comments', 'comment_content')}
        and not exists (select 1 from trash e where position(u.id in e.rows::text) > 0)
        returning u.id`,
    );
    return rows.length;
  }

  return {
    /**
     * Keeps what deleting `entity` `id` is about to remove as one bin entry, in the transaction
     * that removes it (before the deletes, under their locks). False when there is no such record.
     */
    async capture(
      tx: Db,
      entry: { id: string; entity: TrashEntity; entityId: string; by: { id: string; loginId: string }; at: number; expiresAt: number },
    ): Promise<string | null> {
      const { cascade, title } = BINNED[entry.entity].bin;
      const parts = cascade.map(
        ([table, where], index) =>
          sql`select ${index} as ord, ${table}::text as tbl,
            coalesce((select jsonb_agg(to_jsonb(t) order by t.id) from ${sql.identifier(table)} t where ${where(entry.entityId)}), '[]'::jsonb) as rows`,
      );
      const mainTable = BINNED[entry.entity].table;
      const rows = await queryRows<{ id: string }>(
        tx,
        sql`with parts as (${sql.join(parts, sql` union all `)})
          insert into trash (id, entity, entity_id, title, cascaded, rows, deleted_by, deleted_by_login_id, deleted_at, expires_at)
          select ${entry.id}, ${entry.entity}, ${entry.entityId}, ${title},
            (select sum(jsonb_array_length(rows)) from parts)::int - 1,
            (select jsonb_agg(jsonb_build_object('table', tbl, 'rows', rows) order by ord) from parts),
            ${entry.by.id}, ${entry.by.loginId}, ${entry.at}, ${entry.expiresAt}
          from ${sql.identifier(mainTable)} m where m.id = ${entry.entityId}
          returning id`,
      );
      return rows[0]?.id ?? null;
    },

    async list(filter: { entity?: TrashEntity }, page: PageRequest): Promise<{ rows: TrashRow[]; total: number }> {
      const where = filter.entity ? eq(trash.entity, filter.entity) : undefined;
      // Served by trash_deleted_at_idx or trash_entity_deleted_at_idx, said in their order (newestFirst);
      // the bin is small (retention), and counted on each call, its page read from the nearer end.
      const { count: total, data } = await paginate<TrashRow>(page, {
        rows: (limit, offset) => {
          const { pageIds, total } = nearestEndPage({ db, table: trash, where, date: trash.deletedAt, id: trash.id, limit, offset });
          return db
            .select({ ...listColumns, total })
            .from(trash)
            .innerJoin(pageIds, sql`page.id = ${trash.id}`)
            .orderBy(...newestFirst(trash.deletedAt, trash.id));
        },
        total: async () => {
          const [{ n }] = await db.select({ n: count() }).from(trash).where(where);
          return Number(n);
        },
      });
      return { rows: data, total };
    },

    /** The entry, locked until the transaction ends: a second restore or purge waits, then finds none. */
    async lock(id: string, tx: TrashLocks): Promise<TrashRow | null> {
      const [row] = await tx.select(listColumns).from(trash).where(eq(trash.id, id)).for('update');
      return row ?? null;
    },

    /**
     * The login ids among the entry's users that a live user has taken meanwhile: the same name,
     * or one with the same canonical form (`Bob` binned, `bob` or `ｂｏｂ` created since).
     */
    async takenLoginIds(id: string, tx: TrashLocks): Promise<string[]> {
      const held = await queryRows<{ login_id: string }>(tx, sql`select h.login_id from ${heldRows(id, 'users')} h`);
      if (!held.length) return [];
      const keyOf = new Map(held.map((row) => [row.login_id, canonicalLoginId(row.login_id)]));
      const live = await queryRows<{ login_id: string; login_key: string | null }>(
        tx,
        sql`select login_id, login_key from users
            where login_id in (${idList([...keyOf.keys()])}) or login_key in (${idList([...new Set(keyOf.values())])})`,
      );
      const takenIds = new Set(live.map((row) => row.login_id));
      const takenKeys = new Set(live.map((row) => row.login_key));
      return held.map((row) => row.login_id).filter((loginId) => takenIds.has(loginId) || takenKeys.has(keyOf.get(loginId)!));
    },

    /**
     * Gives the entry's restored users the canonical key of their name. A user binned before
     * login_key existed comes back without one, and an old suffixed key (a name that collided at
     * the migration) is no longer needed once takenLoginIds found the name free.
     */
    async rekeyRestoredUsers(id: string, tx: TrashLocks): Promise<void> {
      const held = await queryRows<{ id: string; login_id: string }>(tx, sql`select h.id, h.login_id from ${heldRows(id, 'users')} h`);
      if (!held.length) return;
      const values = held.map((row) => ({ id: row.id, k: canonicalLoginId(row.login_id) }));
      await tx.execute(sql`
        update users u set login_key = v.k
        from json_to_recordset(${JSON.stringify(values)}::json) as v(id text, k text)
        where u.id = v.id and u.login_key is distinct from v.k`);
    },

    /** The reason the first held row of `table` cannot come back (a missing parent), or null. */
    async missingParent(id: string, table: ContentTable, tx: TrashLocks): Promise<'user' | 'issue' | 'book' | 'type' | null> {
      for (const [column, parent, reason] of PARENTS[table]) {
        const col = sql.identifier(column);
        const rows = await queryRows(
          tx,
          sql`select 1 from ${heldRows(id, table)} h
            where h.${col} is not null and not exists (select 1 from ${sql.identifier(parent)} p where p.id = h.${col}) limit 1`,
        );
        if (rows.length) return reason;
      }
      return null;
    },

    /** Puts the entry's rows of `table` back as they were; the triggers count them in. */
    async reinsert(id: string, table: ContentTable, tx: TrashLocks): Promise<number> {
      const rows = await queryRows(tx, sql`insert into ${sql.identifier(table)} select * from ${heldRows(id, table)} h returning 1`);
      return rows.length;
    },

    /**
     * Sets commentNumber of every issue and book the entry's rows touch (restored ones, and the
     * parents of restored comments) to their true count; a held comment comes back held and uncounted.
     */
    async recountParents(id: string, tx: TrashLocks): Promise<void> {
      for (const [parent, column] of [
        ['issues', 'issue_id'],
        ['books', 'book_id'],
      ] as const) {
        await tx.execute(sql`update ${sql.identifier(parent)} p
          set comment_number = (select count(*)::int from comments c where c.${sql.identifier(column)} = p.id and not c.held)
          where p.id in (select h.id from ${heldRows(id, parent)} h union select h.${sql.identifier(column)} from ${heldRows(id, 'comments')} h)`);
      }
    },

    /**
     * Deletes the entries, what their members and books left behind (points history, unlocks:
     * kept outside the bin so that a restore finds them, schema.ts), and then the uploads only
     * they referred to; answers how many entries and uploads went.
     */
    async remove(ids: string[], tx: TrashLocks): Promise<{ entries: number; uploads: number }> {
      if (!ids.length) return { entries: 0, uploads: 0 };
      const held = await queryRows<{ tbl: 'users' | 'books'; id: string }>(
        tx,
        sql`select part->>'table' as tbl, r->>'id' as id
          from trash e cross join jsonb_array_elements(e.rows) part cross join jsonb_array_elements(part->'rows') r
          where e.id in (${idList(ids)}) and part->>'table' in ('users', 'books')`,
      );
      const removed = await queryRows<{ upload: string | null }>(
        tx,
        sql`with gone as (delete from trash where id in (${idList(ids)}) returning id, rows)
          select gone.id as entry, (regexp_matches(gone.rows::text, ${UPLOAD_REFERENCE}, 'g'))[1] as upload from gone
          union all select gone.id, null from gone`,
      );
      // A record live again under the same id (imported since) keeps its rows.
      const forget = async (table: string, column: string, parent: 'users' | 'books') => {
        const parents = held.filter((row) => row.tbl === parent).map((row) => row.id);
        if (!parents.length) return;
        await tx.execute(
          sql`delete from ${sql.identifier(table)} a where a.${sql.identifier(column)} in (${idList(parents)})
            and not exists (select 1 from ${sql.identifier(parent)} p where p.id = a.${sql.identifier(column)})`,
        );
      };
      await forget('points_ledger', 'user_id', 'users');
      await forget('book_unlocks', 'user_id', 'users');
      await forget('book_unlocks', 'book_id', 'books');
      const entries = removed.filter((r) => r.upload === null).length;
      const candidates = [...new Set(removed.flatMap((r) => (r.upload ? [r.upload] : [])))];
      return { entries, uploads: await deleteOrphanUploads(candidates, tx) };
    },

    /** Up to `limit` ids of entries expired at `now`, oldest first (trash_expires_at_idx). */
    async expired(now: number, limit: number, tx: TrashLocks): Promise<string[]> {
      const rows = await tx
        .select({ id: trash.id })
        .from(trash)
        .where(and(sql`${trash.expiresAt} <= ${now}`))
        .orderBy(trash.expiresAt)
        .limit(limit);
      return rows.map((r) => r.id);
    },
  };
}
