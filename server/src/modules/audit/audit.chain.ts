import { sql } from 'drizzle-orm';
import { AUDIT_CHAIN_BREAKS, type AuditChainBreak, type AuditChainReport } from '#contract/audit';
import { queryRows, type Db } from '../../db/client';

/**
 * The audit log's hash chain (docs/decisions/0016-audit-hash-chain.md): every entry holds the
 * hash of the one before it, linked at commit by the database (migration 0013). `verifyChain`
 * walks it in seq order and names the first entry where it breaks.
 */

const BATCH = 1000;

interface ChainRow {
  id: string;
  seq: string;
  at: string;
  prev_hash: string;
  hash: string;
  expected: string;
}

interface Gap {
  from: number;
  to: number;
  lastHash: string;
}

/** The purged ranges, adjacent ones merged, by where each starts. */
async function gapsOf(db: Db): Promise<Map<number, Gap>> {
  const rows = await queryRows<{ from_seq: string; to_seq: string; last_hash: string }>(
    db,
    sql`select from_seq, to_seq, last_hash from audit_chain_gaps order by from_seq`,
  );
  const merged: Gap[] = [];
  for (const row of rows) {
    const gap = { from: Number(row.from_seq), to: Number(row.to_seq), lastHash: row.last_hash };
    const last = merged[merged.length - 1];
    if (last && last.to + 1 === gap.from) Object.assign(last, { to: gap.to, lastHash: gap.lastHash });
    else merged.push(gap);
  }
  return new Map(merged.map((gap) => [gap.from, gap]));
}

export async function verifyChain(db: Db): Promise<AuditChainReport> {
  const gaps = await gapsOf(db);
  const purged = [...gaps.values()].reduce((sum, gap) => sum + gap.to - gap.from + 1, 0);
  const [head] = await queryRows<{ seq: string; hash: string }>(db, sql`select seq, hash from audit_chain where id = 1`);
  let count = 0;
  const broken = (row: { id: string; seq: string | null; at: string }, reason: AuditChainBreak): AuditChainReport => ({
    ok: false,
    count,
    purged,
    broken: { id: String(row.id), seq: row.seq === null ? null : Number(row.seq), at: Number(row.at), reason },
  });

  // A committed entry is always linked; one without a seq was written past the trigger.
  const [unlinked] = await queryRows<{ id: string; seq: null; at: string }>(
    db,
    sql`select id, seq, at from audit_log where seq is null order by id limit 1`,
  );

  let expectedSeq = 1;
  let expectedPrev = '';
  /** Steps over a purged range that starts where the chain is: the next entry links to its last hash. */
  const skipGap = () => {
    const gap = gaps.get(expectedSeq);
    if (!gap) return;
    expectedSeq = gap.to + 1;
    expectedPrev = gap.lastHash;
  };
  let after = 0;
  for (;;) {
    const rows = await queryRows<ChainRow>(
      db,
      sql`select a.id, a.seq, a.at, a.prev_hash, a.hash, audit_entry_hash(a.prev_hash, a) as expected
          from audit_log a where a.seq > ${after} order by a.seq limit ${BATCH}`,
    );
    for (const row of rows) {
      skipGap();
      if (Number(row.seq) !== expectedSeq) return broken(row, AUDIT_CHAIN_BREAKS.missing);
      if (row.prev_hash !== expectedPrev) return broken(row, AUDIT_CHAIN_BREAKS.link);
      if (row.hash !== row.expected) return broken(row, AUDIT_CHAIN_BREAKS.content);
      count++;
      expectedSeq++;
      expectedPrev = row.hash;
    }
    if (rows.length < BATCH) break;
    after = Number(rows[rows.length - 1].seq);
  }
  if (unlinked) return broken(unlinked, AUDIT_CHAIN_BREAKS.unlinked);
  skipGap();
  // The head says where the chain ends: entries removed from its end leave it pointing further.
  const headSeq = head ? Number(head.seq) : 0;
  if (headSeq !== expectedSeq - 1 || (head?.hash ?? '') !== expectedPrev) {
    return { ok: false, count, purged, broken: { id: '', seq: expectedSeq, at: 0, reason: AUDIT_CHAIN_BREAKS.tail } };
  }
  return { ok: true, count, purged };
}

/**
 * Records that the entries `removed` (seq and hash) were purged: their ranges, merged with the
 * recorded ranges they touch. Called in the purge's transaction, under the chain head's lock.
 */
export async function recordGaps(tx: Db, removed: ReadonlyArray<{ seq: number; hash: string }>): Promise<void> {
  const sorted = [...removed].sort((a, b) => a.seq - b.seq);
  const ranges: Gap[] = [];
  for (const entry of sorted) {
    const last = ranges[ranges.length - 1];
    if (last && last.to + 1 === entry.seq) Object.assign(last, { to: entry.seq, lastHash: entry.hash });
    else ranges.push({ from: entry.seq, to: entry.seq, lastHash: entry.hash });
  }
  for (const range of ranges) {
    // Joined to the range that ends just before it and to the one that starts just after it.
    const [before] = await queryRows<{ from_seq: string }>(
      tx,
      sql`delete from audit_chain_gaps where to_seq = ${range.from - 1} returning from_seq`,
    );
    const [next] = await queryRows<{ to_seq: string; last_hash: string }>(
      tx,
      sql`delete from audit_chain_gaps where from_seq = ${range.to + 1} returning to_seq, last_hash`,
    );
    const from = before ? Number(before.from_seq) : range.from;
    const to = next ? Number(next.to_seq) : range.to;
    const lastHash = next ? next.last_hash : range.lastHash;
    await tx.execute(sql`insert into audit_chain_gaps (from_seq, to_seq, last_hash) values (${from}, ${to}, ${lastHash})`);
  }
}
