import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { AuthorFile } from '#contract/review';
import type { Db } from '../../db/client';
import { comments, issues, reviewDecisions, userNotes, users, userSanctions } from '../../db/schema';
import { toNote } from '../sanction/note.service';
import { toSanction } from '../sanction/sanction.service';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The author's file (作者档案) of several members at once: a fixed number of indexed queries
 * whatever their number (users by id; issues, comments, decisions, sanctions and notes by user id).
 */
export async function authorFiles(db: Db, ids: readonly string[], at: number): Promise<Map<string, AuthorFile>> {
  const wanted = [...new Set(ids)];
  const files = new Map<string, AuthorFile>();
  if (!wanted.length) return files;
  const [people, issueCounts, commentCounts, rejected, sanctions, notes] = await Promise.all([
    db
      .select({
        id: users.id,
        loginId: users.loginId,
        nickname: users.nickname,
        avatar: users.avatar,
        enabled: users.enabled,
        registerDate: users.registerDate,
        points: users.points,
      })
      .from(users)
      .where(inArray(users.id, wanted)),
    db
      .select({ userId: issues.userId, live: issues.issueStatus, n: sql<number>`count(*)::int` })
      .from(issues)
      .where(inArray(issues.userId, wanted))
      .groupBy(issues.userId, issues.issueStatus),
    db
      .select({ userId: comments.userId, held: comments.held, n: sql<number>`count(*)::int` })
      .from(comments)
      .where(inArray(comments.userId, wanted))
      .groupBy(comments.userId, comments.held),
    db
      .select({ userId: reviewDecisions.authorId, kind: reviewDecisions.kind, n: sql<number>`count(*)::int` })
      .from(reviewDecisions)
      .where(and(inArray(reviewDecisions.authorId, wanted), eq(reviewDecisions.decision, 'reject'), isNull(reviewDecisions.revertedAt)))
      .groupBy(reviewDecisions.authorId, reviewDecisions.kind),
    db
      .select()
      .from(userSanctions)
      .where(inArray(userSanctions.userId, wanted))
      .orderBy(desc(userSanctions.startsAt), desc(userSanctions.id)),
    db.select().from(userNotes).where(inArray(userNotes.userId, wanted)).orderBy(desc(userNotes.createdAt), desc(userNotes.id)),
  ]);
  for (const person of people) {
    files.set(person.id, {
      _id: person.id,
      loginId: person.loginId,
      nickname: person.nickname,
      avatar: person.avatar,
      enabled: person.enabled,
      registerDate: person.registerDate,
      accountAgeDays: Math.max(0, Math.floor((at - person.registerDate) / DAY_MS)),
      points: person.points,
      issues: { published: 0, held: 0, rejected: 0 },
      comments: { published: 0, held: 0, rejected: 0 },
      sanctions: [],
      notes: [],
    });
  }
  for (const row of issueCounts) {
    const file = files.get(row.userId);
    if (file) file.issues[row.live ? 'published' : 'held'] += Number(row.n);
  }
  for (const row of commentCounts) {
    const file = files.get(row.userId);
    if (file) file.comments[row.held ? 'held' : 'published'] += Number(row.n);
  }
  for (const row of rejected) {
    const file = files.get(row.userId);
    if (file && (row.kind === 'issue' || row.kind === 'comment'))
      file[row.kind === 'issue' ? 'issues' : 'comments'].rejected += Number(row.n);
  }
  for (const row of sanctions) files.get(row.userId)?.sanctions.push(toSanction(row, at));
  for (const row of notes) files.get(row.userId)?.notes.push(toNote(row));
  return files;
}
