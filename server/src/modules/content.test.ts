import { eq } from 'drizzle-orm';
import { AUDIT_ACTIONS } from '#contract/audit';
import { COMMENT_TYPES } from '#contract/comment';
import { books, comments, interviews, issues } from '../db/schema';
import { contentFixtures } from '../../test/content';
import { bearer, createTestContext, type TestContext } from '../../test/harness';

/**
 * What every content resource shares, once for all of them: a delete takes what goes with it to
 * the recycle bin as one entry and is recorded in the audit log; a second delete is a 404; a delete
 * that fails midway leaves every row and count as it was.
 */

let t: TestContext;
let token: string;
let root: string;
let fx: ReturnType<typeof contentFixtures>;
let typeId: string;
let userId: string;
beforeAll(async () => {
  t = await createTestContext();
  token = (await t.createAdmin('content-editor', 2)).token;
  root = await t.rootToken();
  fx = contentFixtures(t.database.db);
  typeId = await fx.type('共用');
  userId = await fx.user();
});
afterAll(() => t.close());

const as = () => ({ headers: bearer(token) });
const db = () => t.database.db;

async function commentOn(target: { issueId: string } | { bookId: string }, content = '<p>评论</p>'): Promise<string> {
  const commentType = 'issueId' in target ? COMMENT_TYPES.issue : COMMENT_TYPES.book;
  const response = await t.inject({
    method: 'POST',
    url: '/api/comment',
    ...as(),
    payload: { userId, commentType, ...target, commentContent: content },
  });
  if (response.statusCode !== 201) throw new Error(response.body);
  return response.json().data._id;
}

const commentsOf = async (column: 'issueId' | 'bookId', id: string) => db().select().from(comments).where(eq(comments[column], id));
const issueCount = async (id: string) => (await db().select({ n: issues.commentNumber }).from(issues).where(eq(issues.id, id)))[0]?.n;
const bookCount = async (id: string) => (await db().select({ n: books.commentNumber }).from(books).where(eq(books.id, id)))[0]?.n;

/** A book or issue given two comments: the delete takes both to the bin and the state shows them. */
async function withTwoComments(column: 'issueId' | 'bookId', url: string, id: string) {
  await commentOn({ [column]: id } as { issueId: string } | { bookId: string });
  await commentOn({ [column]: id } as { issueId: string } | { bookId: string });
  return {
    id,
    cascaded: 2,
    state: async () => ({
      comments: (await commentsOf(column, id)).length,
      commentNumber: (await t.inject({ method: 'GET', url: `${url}/${id}`, ...as() })).json().data?.commentNumber ?? null,
    }),
  };
}

interface Resource {
  name: string;
  entity: 'book' | 'issue' | 'interview' | 'comment';
  url: string;
  table: 'books' | 'issues' | 'interviews' | 'comments';
  notFound: string;
  /** Makes the record with what goes with it; answers its id and the rows its delete takes along. */
  make(): Promise<{ id: string; cascaded: number; state: () => Promise<unknown> }>;
  /** What must hold once it is deleted (its children gone, its parent's count lowered). */
  afterDelete(id: string): Promise<void>;
}

let lastParent = '';

const RESOURCES: Resource[] = [
  {
    name: 'a book with its comments',
    entity: 'book',
    url: '/api/book',
    table: 'books',
    notFound: '书籍不存在',
    async make() {
      const created = await t.inject({
        method: 'POST',
        url: '/api/book',
        ...as(),
        payload: { bookTitle: '共用的书', downloadLink: 'https://pan.example.com/s/x', bookIntro: '<p>书</p>', requirePoints: 1, typeId },
      });
      const id = created.json().data._id as string;
      return withTwoComments('bookId', '/api/book', id);
    },
    async afterDelete(id) {
      expect(await commentsOf('bookId', id)).toEqual([]);
    },
  },
  {
    name: 'an issue with its comments',
    entity: 'issue',
    url: '/api/issue',
    table: 'issues',
    notFound: '问答不存在',
    async make() {
      const id = await fx.issue(userId, typeId);
      return withTwoComments('issueId', '/api/issue', id);
    },
    async afterDelete(id) {
      expect(await commentsOf('issueId', id)).toEqual([]);
    },
  },
  {
    name: 'an interview question',
    entity: 'interview',
    url: '/api/interview',
    table: 'interviews',
    notFound: '面试题不存在',
    async make() {
      const created = await t.inject({
        method: 'POST',
        url: '/api/interview',
        ...as(),
        payload: { interviewTitle: '共用的题', interviewContent: '<p>题</p>', typeId },
      });
      const id = created.json().data._id as string;
      return { id, cascaded: 0, state: async () => (await db().select().from(interviews).where(eq(interviews.id, id))).length };
    },
    async afterDelete(id) {
      expect((await t.inject({ method: 'GET', url: `/api/interview/${id}`, ...as() })).statusCode).toBe(404);
    },
  },
  {
    name: "a comment on an issue, lowering the issue's commentNumber",
    entity: 'comment',
    url: '/api/comment',
    table: 'comments',
    notFound: '评论不存在',
    async make() {
      const issueId = await fx.issue(userId, typeId);
      lastParent = issueId;
      const id = await commentOn({ issueId }, '<p>a</p>');
      await commentOn({ issueId }, '<p>b</p>');
      return {
        id,
        cascaded: 0,
        state: async () => ({ count: await issueCount(issueId), rows: (await commentsOf('issueId', issueId)).length }),
      };
    },
    async afterDelete() {
      expect(await issueCount(lastParent)).toBe(1);
    },
  },
  {
    name: "a comment on a book, lowering the book's commentNumber",
    entity: 'comment',
    url: '/api/comment',
    table: 'comments',
    notFound: '评论不存在',
    async make() {
      const bookId = await fx.book(typeId);
      lastParent = bookId;
      const id = await commentOn({ bookId }, '<p>c</p>');
      return {
        id,
        cascaded: 0,
        state: async () => ({ count: await bookCount(bookId), rows: (await commentsOf('bookId', bookId)).length }),
      };
    },
    async afterDelete() {
      expect(await bookCount(lastParent)).toBe(0);
    },
  },
];

describe.each(RESOURCES)('deleting $name', (resource) => {
  it('goes to the bin as one entry with what went with it, is in the audit log, and a second delete is a 404', async () => {
    const { id, cascaded, state } = await resource.make();
    expect((await t.inject({ method: 'DELETE', url: `${resource.url}/${id}`, ...as() })).statusCode).toBe(200);
    await resource.afterDelete(id);

    const bin = (await t.inject({ method: 'GET', url: `/api/trash?entity=${resource.entity}&pageSize=100`, headers: bearer(root) })).json()
      .data.data;
    expect(bin.filter((entry: { entityId: string }) => entry.entityId === id)).toEqual([
      expect.objectContaining({ entity: resource.entity, entityId: id, cascaded }),
    ]);
    const history = (await t.inject({ method: 'GET', url: `/api/audit/${resource.entity}/${id}`, headers: bearer(root) })).json().data;
    expect(history.map((entry: { action: string }) => entry.action)).toContain(AUDIT_ACTIONS.delete);

    const before = await state();
    const again = await t.inject({ method: 'DELETE', url: `${resource.url}/${id}`, ...as() });
    expect(again.statusCode).toBe(404);
    expect(again.json().msg).toBe(resource.notFound);
    expect(await state()).toEqual(before);
  });

  it('leaves every row and count as it was when the deletion fails midway', async () => {
    const { id, state } = await resource.make();
    const before = await state();
    await fx.failOn(resource.table, 'delete');
    try {
      expect((await t.inject({ method: 'DELETE', url: `${resource.url}/${id}`, ...as() })).statusCode).toBe(500);
    } finally {
      await fx.stopFailing(resource.table, 'delete');
    }
    expect(await state()).toEqual(before);
  });
});
