import { and, desc, eq } from 'drizzle-orm';
import { NOTE_MESSAGES, type CreateNoteBody, type UserNote } from '#contract/review';
import { USER_MESSAGES } from '#contract/user';
import type { Db } from '../../db/client';
import { userNotes, users } from '../../db/schema';
import { notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { Actor, Audit } from '../audit/audit';
import { AUDIT_ACTIONS } from '#contract/audit';

type NoteRow = typeof userNotes.$inferSelect;

export const toNote = (row: NoteRow): UserNote => ({
  _id: row.id,
  userId: row.userId,
  body: row.body,
  by: { _id: row.adminId, loginId: row.adminLoginId },
  createdAt: row.createdAt,
});

export type NoteService = ReturnType<typeof createNoteService>;

/** Admins' notes about a member (备注): any admin writes them; one's own or a super admin deletes. */
export function createNoteService(deps: { db: Db; audit: Audit; now?: () => number }) {
  const { db, audit } = deps;
  const now = deps.now ?? Date.now;
  return {
    async list(userId: string): Promise<UserNote[]> {
      const rows = await db
        .select()
        .from(userNotes)
        .where(eq(userNotes.userId, userId))
        .orderBy(desc(userNotes.createdAt), desc(userNotes.id));
      return rows.map(toNote);
    },

    async create(actor: Actor, userId: string, body: CreateNoteBody): Promise<UserNote> {
      return db.transaction(async (tx) => {
        const [user] = await tx.select({ loginId: users.loginId }).from(users).where(eq(users.id, userId));
        if (!user) throw notFound(USER_MESSAGES.notFound);
        const at = now();
        const row: NoteRow = {
          id: newId(at),
          userId,
          adminId: actor.id,
          adminLoginId: actor.loginId,
          body: body.body.trim(),
          createdAt: at,
        };
        await tx.insert(userNotes).values(row);
        await audit.record(tx, actor, {
          action: AUDIT_ACTIONS.addNote,
          entity: 'user',
          entityId: userId,
          title: user.loginId,
          changes: [{ field: 'note', note: row.body }],
        });
        return toNote(row);
      });
    },

    async remove(actor: Actor, userId: string, noteId: string): Promise<void> {
      const mine = actor.permission === 1 ? undefined : eq(userNotes.adminId, actor.id);
      await db.transaction(async (tx) => {
        const [gone] = await tx
          .delete(userNotes)
          .where(and(eq(userNotes.id, noteId), eq(userNotes.userId, userId), mine))
          .returning({ body: userNotes.body });
        if (!gone) throw notFound(NOTE_MESSAGES.notFound);
        const [user] = await tx.select({ loginId: users.loginId }).from(users).where(eq(users.id, userId));
        await audit.record(tx, actor, {
          action: AUDIT_ACTIONS.removeNote,
          entity: 'user',
          entityId: userId,
          title: user?.loginId ?? userId,
          changes: [{ field: 'note', note: gone.body }],
        });
      });
    },
  };
}
