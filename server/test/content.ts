import { canonicalLoginId } from '../src/lib/account-names';
import { sql } from 'drizzle-orm';
import type { Db } from '../src/db/client';
import { books, comments, interviews, issues, types, users } from '../src/db/schema';
import { newId } from '../src/lib/ids';
import { COMMENT_TYPES } from '#contract/comment';

type Table = 'users' | 'issues' | 'books' | 'interviews' | 'comments';
type Operation = 'insert' | 'update' | 'delete';

/**
 * Rows written straight to the database, for tests that need many of them or exact dates. They
 * bypass the API's rules (counters included), so counter tests create comments through the API.
 * Names default to something unique made from the row's id.
 */
export function contentFixtures(db: Db) {
  return {
    async type(typeName?: string): Promise<string> {
      const id = newId();
      await db.insert(types).values({ id, typeName: typeName ?? `type-${id}`, createdAt: Date.now() });
      return id;
    },

    async user(values: Partial<typeof users.$inferInsert> = {}): Promise<string> {
      const id = values.id ?? newId();
      const at = values.registerDate ?? Date.now();
      const loginId = values.loginId ?? `user-${id}`;
      await db.insert(users).values({
        id,
        loginId,
        passwordHash: 'not-a-real-hash',
        nickname: '用户',
        avatar: '/default-avatar.svg',
        registerDate: at,
        lastLoginDate: at,
        // As the repository would (user.repository.ts): the canonical name beside the name.
        loginKey: canonicalLoginId(loginId),
        ...values,
      });
      return id;
    },

    async book(typeId: string, values: Partial<typeof books.$inferInsert> = {}): Promise<string> {
      const id = values.id ?? newId();
      await db.insert(books).values({
        id,
        bookTitle: `book-${id}`,
        bookPic: '/default-cover.svg',
        downloadLink: 'https://example.com/book',
        bookIntro: '<p>intro</p>',
        onShelfDate: Date.now(),
        requirePoints: 10,
        typeId,
        ...values,
      });
      return id;
    },

    async interview(typeId: string, values: Partial<typeof interviews.$inferInsert> = {}): Promise<string> {
      const id = values.id ?? newId();
      await db.insert(interviews).values({
        id,
        interviewTitle: `interview-${id}`,
        interviewContent: '<p>answer</p>',
        onShelfDate: Date.now(),
        typeId,
        ...values,
      });
      return id;
    },

    async issue(userId: string, typeId: string, values: Partial<typeof issues.$inferInsert> = {}): Promise<string> {
      const id = values.id ?? newId();
      await db.insert(issues).values({
        id,
        issueTitle: `issue-${id}`,
        issueContent: '<p>question</p>',
        issueDate: Date.now(),
        userId,
        typeId,
        ...values,
      });
      return id;
    },

    async comment(
      values: Pick<typeof comments.$inferInsert, 'userId' | 'typeId'> & Partial<typeof comments.$inferInsert>,
    ): Promise<string> {
      const id = values.id ?? newId();
      await db.insert(comments).values({
        id,
        commentContent: `<p>comment ${id}</p>`,
        commentDate: Date.now(),
        commentType: values.bookId ? COMMENT_TYPES.book : COMMENT_TYPES.issue,
        ...values,
      });
      return id;
    },

    /** Makes every `operation` on `table` fail from inside the database, as a broken disk or a bug would. */
    async failOn(table: Table, operation: Operation) {
      await db.execute(
        sql.raw(`
        create or replace function test_refuse() returns trigger language plpgsql as $$
        begin raise exception 'refused by test trigger'; end $$`),
      );
      await db.execute(
        sql.raw(
          `create trigger test_refuse_${table}_${operation} before ${operation} on ${table} for each row execute function test_refuse()`,
        ),
      );
    },

    async stopFailing(table: Table, operation: Operation) {
      await db.execute(sql.raw(`drop trigger test_refuse_${table}_${operation} on ${table}`));
    },
  };
}
