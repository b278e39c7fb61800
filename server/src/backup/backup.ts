import { loadingComments } from '../db/bulk-load';
import fs from 'node:fs';
import readline from 'node:readline';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import zlib from 'node:zlib';
import { asc, getTableColumns, gt, is, sql, type Column } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { queryRows, type Database, type Db } from '../db/client';
import { ENTITY_TABLES_BY_REFERENCE } from '../db/entities';
import { ALL_TABLES, writeTransaction } from '../db/write-lock';
import * as schema from '../db/schema';

/**
 * A portable backup: gzip-compressed JSON lines, the same for the embedded database and for
 * PostgreSQL (PGlite has no pg_dump), read and written through the application's own client.
 *
 *   {"format":"coderstation-backup","version":1,"createdAt":…,"migratedUpTo":…}
 *   {"table":"users","columns":["id","login_id",…],"binary":[]}
 *   ["6b04…","alice",…]                      one line per row, values in column order
 *   {"end":"users","rows":123}
 *   …
 *   {"end":true,"rows":{"users":123,…}}      the trailer: an archive without it is incomplete
 *
 * Uploaded images live in the uploads table (bytea, base64 in the archive), so the archive holds
 * every upload too.
 */

export const BACKUP_FORMAT = 'coderstation-backup';
export const BACKUP_VERSION = 1;

/**
 * Every table with data of its own, in an order where each row's references come before it: the
 * admins' own tables after admins, then the entity registry's tables (in its reference order),
 * then what refers to them.
 */
const [FIRST_ENTITY, ...OTHER_ENTITIES] = ENTITY_TABLES_BY_REFERENCE;
export const BACKED_UP_TABLES: readonly string[] = [
  FIRST_ENTITY,
  'admin_sessions',
  'admin_recovery_codes',
  'login_challenges',
  'admin_passkeys',
  'passkey_challenges',
  'admin_logins',
  'captchas',
  'login_failures',
  'settings',
  ...OTHER_ENTITIES,
  'user_sessions',
  'points_ledger',
  'book_unlocks',
  'rate_events',
  'uploads',
  'audit_log',
  // The chain's head and purged ranges travel with the entries, so a restored log still verifies.
  'audit_chain',
  'audit_chain_gaps',
  'security_events',
  'trash',
  'moderation_words',
  'moderation_settings',
  'moderation_flags',
  'webhooks',
  'webhook_deliveries',
  'user_sanctions',
  'user_notes',
  'review_decisions',
  'review_reasons',
];

/** Tables the database derives from the others (kept by triggers); a restore rebuilds them. */
export const DERIVED_TABLES = ['list_counts', 'list_buckets', 'open_flag_counts'];

export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}

interface TableInfo {
  table: PgTable;
  name: string;
  /** SQL column name -> drizzle column and its key in row objects. */
  columns: Map<string, { key: string; column: Column }>;
  /** The single-column primary key batches are read by, if the table has one. */
  primaryKey: Column | undefined;
  /** Rows per batch: a few for the tables that hold images or binned cascades, many for the rest. */
  batch: number;
}

function tables(): Map<string, TableInfo> {
  const found = new Map<string, TableInfo>();
  for (const value of Object.values(schema)) {
    if (!is(value, PgTable)) continue;
    const config = getTableConfig(value);
    const columns = new Map(Object.entries(getTableColumns(value)).map(([key, column]) => [column.name, { key, column }] as const));
    const primaryKey = config.columns.find((c) => c.primary);
    found.set(config.name, {
      table: value,
      name: config.name,
      columns,
      primaryKey,
      batch: [...columns.values()].some(({ column }) => ['bytea', 'jsonb'].includes(column.getSQLType())) ? 8 : 1000,
    });
  }
  return found;
}

/** The tables the schema declares that a backup neither saves nor knows to rebuild: must be none. */
export function tablesWithoutBackupRule(): string[] {
  return [...tables().keys()].filter((name) => !(BACKED_UP_TABLES as readonly string[]).includes(name) && !DERIVED_TABLES.includes(name));
}

function backedUp(): Array<TableInfo & { primaryKey: Column }> {
  const all = tables();
  return BACKED_UP_TABLES.map((name) => {
    const info = all.get(name);
    if (!info) throw new BackupError(`数据库结构中没有表 ${name}`);
    if (!info.primaryKey) throw new BackupError(`表 ${name} 没有单列主键，无法分批备份`);
    return info as TableInfo & { primaryKey: Column };
  });
}

const isBinary = (column: Column) => column.getSQLType() === 'bytea';

export const NEVER_SET_UP = '这个数据库里还没有 coderstation 的数据表（服务器从未在它上面启动过），没有可备份的内容';

/** When the newest migration this database has was written (drizzle's migration stamp), or 0. */
async function migratedUpTo(db: Db): Promise<number> {
  const [exists] = await queryRows<{ name: string | null }>(db, sql`select to_regclass('drizzle.__drizzle_migrations')::text as name`);
  if (!exists?.name) return 0;
  const [row] = await queryRows<{ at: string | number | null }>(db, sql`select max(created_at) as at from drizzle.__drizzle_migrations`);
  return Number(row?.at ?? 0);
}

async function write(out: Writable, value: unknown) {
  if (!out.write(`${JSON.stringify(value)}\n`)) await once(out, 'drain');
}

export type TableCounts = Record<string, number>;

/**
 * Writes every backed-up table to `file`, from one consistent snapshot (a repeatable-read,
 * read-only transaction), and answers the rows written per table.
 */
export async function backup(db: Db, file: string): Promise<TableCounts> {
  // Opened here, so that an existing file is refused before anything could remove it.
  const fd = fs.openSync(file, 'wx');
  const gzip = zlib.createGzip();
  const sink = fs.createWriteStream(file, { fd });
  const finished = new Promise<void>((resolve, reject) => {
    sink.on('finish', resolve);
    sink.on('error', reject);
    gzip.on('error', reject);
  });
  gzip.pipe(sink);
  const counts: TableCounts = {};
  try {
    await db.transaction(
      async (tx) => {
        const migrated = await migratedUpTo(tx);
        // A data folder or database the server never started on (a mistyped DATA_DIR) has no tables.
        if (!migrated) throw new BackupError(NEVER_SET_UP);
        await write(gzip, { format: BACKUP_FORMAT, version: BACKUP_VERSION, createdAt: Date.now(), migratedUpTo: migrated });
        for (const info of backedUp()) {
          const names = [...info.columns.keys()];
          const binary = names.filter((name) => isBinary(info.columns.get(name)!.column));
          await write(gzip, { table: info.name, columns: names, binary });
          let rows = 0;
          let after: unknown;
          for (;;) {
            const batch = (await tx
              .select()
              .from(info.table)
              .where(after === undefined ? undefined : gt(info.primaryKey, after))
              .orderBy(asc(info.primaryKey))
              .limit(info.batch)) as Array<Record<string, unknown>>;
            for (const row of batch) {
              await write(
                gzip,
                names.map((name) => {
                  const { key, column } = info.columns.get(name)!;
                  const value = row[key];
                  return isBinary(column) && value !== null ? Buffer.from(value as Uint8Array).toString('base64') : value;
                }),
              );
            }
            rows += batch.length;
            if (batch.length < info.batch) break;
            after = batch[batch.length - 1][info.columns.get(info.primaryKey.name)!.key];
          }
          await write(gzip, { end: info.name, rows });
          counts[info.name] = rows;
        }
        await write(gzip, { end: true, rows: counts });
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
    gzip.end();
    await finished;
  } catch (error) {
    gzip.destroy();
    sink.destroy();
    fs.rmSync(file, { force: true });
    throw error;
  }
  return counts;
}

/** Rows in the backed-up tables, per table. */
export async function countRows(db: Db): Promise<TableCounts> {
  const counts: TableCounts = {};
  for (const info of backedUp()) {
    const [row] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from ${info.table}`);
    counts[info.name] = Number(row.n);
  }
  return counts;
}

type Header = { format: string; version: number; createdAt: number; migratedUpTo: number };
type TableStart = { table: string; columns: string[]; binary: string[] };
type TableEnd = { end: string; rows: number };
type Trailer = { end: true; rows: TableCounts };

/**
 * Restores `file` into `database`: migrations first, then every table, all in one transaction,
 * so a damaged or incomplete archive changes nothing. A database that already holds rows is
 * refused unless `force`, which empties it (in the same transaction) first.
 */
export async function restore(database: Database, file: string, { force = false } = {}): Promise<TableCounts> {
  const lines = readline.createInterface({
    input: fs.createReadStream(file).pipe(zlib.createGunzip()),
    crlfDelay: Infinity,
  });
  const iterator = lines[Symbol.asyncIterator]();
  let lineNumber = 0;
  const next = async (): Promise<unknown> => {
    let result: IteratorResult<string>;
    try {
      result = await iterator.next();
    } catch (error) {
      throw new BackupError(`备份文件已损坏（第 ${lineNumber + 1} 行之后无法解压：${(error as Error).message}）`);
    }
    if (result.done) return undefined;
    lineNumber++;
    try {
      return JSON.parse(result.value);
    } catch {
      throw new BackupError(`备份文件第 ${lineNumber} 行不是合法的 JSON`);
    }
  };

  try {
    const header = (await next()) as Header | undefined;
    if (!header || header.format !== BACKUP_FORMAT) throw new BackupError('这不是 coderstation 的备份文件');
    if (header.version !== BACKUP_VERSION)
      throw new BackupError(`不支持的备份格式版本 ${header.version}（本程序读取版本 ${BACKUP_VERSION}）`);

    await database.migrate();
    const { db } = database;
    if (header.migratedUpTo > (await migratedUpTo(db))) {
      throw new BackupError('备份来自更新版本的程序（数据库迁移更新），请先升级本程序再恢复');
    }
    const existing = await countRows(db);
    const total = Object.values(existing).reduce((sum, n) => sum + n, 0);
    if (total > 0 && !force) {
      const held = Object.entries(existing)
        .filter(([, n]) => n > 0)
        .map(([name, n]) => `${name} ${n}`)
        .join('，');
      throw new BackupError(`目标数据库不是空的（${held}）。只能恢复到空数据库；确定要用备份覆盖其中的全部数据时加 --force`);
    }

    const all = tables();
    const restored: TableCounts = {};
    // Every table's write lock: a server on the same PostgreSQL waits instead of writing between.
    // The comments are a bulk load: their texts' grams batched and merged once (decisions/0022).
    await loadingComments(db, () =>
      writeTransaction(db, ALL_TABLES, async (tx) => {
        if (total > 0) {
          const names = backedUp().map((info) => sql.identifier(info.name));
          await tx.execute(sql`truncate table ${sql.join(names, sql`, `)} restart identity`);
        }
        for (;;) {
          const line = (await next()) as TableStart | Trailer | undefined;
          if (line === undefined) throw new BackupError('备份文件不完整（缺少结尾），可能在写入时被中断');
          if ('end' in line && line.end === true) {
            for (const [name, rows] of Object.entries(line.rows)) {
              if (restored[name] !== rows)
                throw new BackupError(`备份文件不完整：表 ${name} 应有 ${rows} 行，读到 ${restored[name] ?? 0} 行`);
            }
            break;
          }
          const start = line as TableStart;
          const info = all.get(start.table);
          if (!info || !(BACKED_UP_TABLES as readonly string[]).includes(start.table))
            throw new BackupError(`备份中有未知的表 ${start.table}`);
          for (const name of start.columns) {
            if (!info.columns.has(name)) throw new BackupError(`备份中表 ${start.table} 的列 ${name} 在当前数据库结构中不存在`);
          }
          const binary = new Set(start.binary);
          let rows = 0;
          let batch: Array<Record<string, unknown>> = [];
          const flush = async () => {
            if (batch.length) await tx.insert(info.table).values(batch);
            batch = [];
          };
          for (;;) {
            const row = await next();
            if (row === undefined) throw new BackupError(`备份文件不完整：表 ${start.table} 中途结束`);
            if (!Array.isArray(row)) {
              const end = row as TableEnd;
              if (end.end !== start.table || end.rows !== rows)
                throw new BackupError(`备份文件第 ${lineNumber} 行：表 ${start.table} 的结尾不对`);
              break;
            }
            const values: Record<string, unknown> = {};
            start.columns.forEach((name, i) => {
              const value = row[i];
              values[info.columns.get(name)!.key] = binary.has(name) && typeof value === 'string' ? Buffer.from(value, 'base64') : value;
            });
            batch.push(values);
            rows++;
            if (batch.length >= info.batch) await flush();
          }
          await flush();
          restored[start.table] = rows;
        }
        // A serial column continues after the largest restored value, not from 1.
        for (const info of backedUp()) {
          for (const [name] of info.columns) {
            const [sequence] = await queryRows<{ name: string | null }>(
              tx,
              sql`select pg_get_serial_sequence(${info.name}, ${name}) as name`,
            );
            if (!sequence?.name) continue;
            await tx.execute(
              sql`select setval(${sequence.name}, coalesce((select max(${sql.identifier(name)}) from ${sql.identifier(info.name)}), 0) + 1, false)`,
            );
          }
        }
      }),
    );
    return restored;
  } finally {
    lines.close();
  }
}
