import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../src/db/client';
import { call, imageForm, pngWithTail, type Answer } from '../live/client';
import { COMMENT_TYPES } from '#contract/comment';

/**
 * Concurrent writes with a ledger: which writes the server acknowledged (2xx) and which were cut
 * off with no answer. After a crash and a restart, `verify` holds the database to the ledger.
 *
 * Creations only ever hang under "keeper" rows that nothing deletes, and the rows that get deleted
 * ("doomed" users and issues, each with comments around them) were made before the load starts:
 * so every acknowledged creation must still be there, and every doomed row is either wholly there
 * (with all it had) or wholly gone.
 */

interface Doomed {
  id: string;
  /** Rows that go with it when it is deleted. */
  issues: number;
  comments: number;
}

export interface Ledger {
  typeId: string;
  keeperUsers: string[];
  keeperIssues: string[];
  keeperBooks: string[];
  doomedUsers: Doomed[];
  doomedIssues: Doomed[];
  created: { users: string[]; books: string[]; issues: string[]; comments: string[]; uploads: Array<{ path: string; bytes: Buffer }> };
  deleted: { users: string[]; issues: string[] };
  /** Calls that got no answer (the crash cut them off) or an answer that is not 2xx. */
  unanswered: number;
  refused: Array<{ call: string; status: number; body: unknown }>;
}

function expectStatus(answer: Answer, status: number, what: string) {
  if (answer.status !== status) throw new Error(`${what}: expected ${status}, got ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.data;
}

export async function prepare(url: string, token: string, size = { doomedUsers: 10, doomedIssues: 10 }): Promise<Ledger> {
  const post = async (path: string, body: unknown, what: string) => expectStatus(await call(url, 'POST', path, { token, body }), 201, what);
  const tag = Date.now().toString(36);
  const type = await post('/api/type', { typeName: `故障-${tag}` }, 'type');
  const user = async (name: string) =>
    (await post('/api/user', { loginId: `${name}-${tag}`, loginPwd: 'user-password' }, 'user'))._id as string;
  const issue = async (userId: string, title: string) =>
    (await post('/api/issue', { issueTitle: title, issueContent: '<p>问题</p>', userId, typeId: type._id }, 'issue'))._id as string;
  const book = async (title: string) =>
    (
      await post(
        '/api/book',
        { bookTitle: title, downloadLink: 'https://example.com/b', bookIntro: '<p>简介</p>', requirePoints: 0, typeId: type._id },
        'book',
      )
    )._id as string;
  const comment = async (userId: string, target: { issueId: string } | { bookId: string }) =>
    post(
      '/api/comment',
      { userId, commentType: 'issueId' in target ? COMMENT_TYPES.issue : COMMENT_TYPES.book, ...target, commentContent: '<p>评论</p>' },
      'comment',
    );

  const keeperUsers = [await user('keeper-a'), await user('keeper-b'), await user('keeper-c')];
  const keeperIssues = [await issue(keeperUsers[0], '保留问答一'), await issue(keeperUsers[1], '保留问答二')];
  const keeperBooks = [await book('保留书籍一'), await book('保留书籍二')];

  const doomedUsers: Doomed[] = [];
  for (let i = 0; i < size.doomedUsers; i++) {
    const id = await user(`doomed-${i}`);
    const own = await issue(id, `将随用户删除的问答 ${i}`);
    await comment(keeperUsers[0], { issueId: own });
    await comment(id, { issueId: own });
    // Comments on keeper rows: deleting the user must lower those counters in the same transaction.
    await comment(id, { issueId: keeperIssues[i % 2] });
    await comment(id, { bookId: keeperBooks[i % 2] });
    doomedUsers.push({ id, issues: 1, comments: 4 });
  }
  const doomedIssues: Doomed[] = [];
  for (let i = 0; i < size.doomedIssues; i++) {
    const id = await issue(keeperUsers[2], `将被删除的问答 ${i}`);
    for (let c = 0; c < 3; c++) await comment(keeperUsers[c], { issueId: id });
    doomedIssues.push({ id, issues: 1, comments: 3 });
  }

  return {
    typeId: type._id,
    keeperUsers,
    keeperIssues,
    keeperBooks,
    doomedUsers,
    doomedIssues,
    created: { users: [], books: [], issues: [], comments: [], uploads: [] },
    deleted: { users: [], issues: [] },
    unanswered: 0,
    refused: [],
  };
}

export interface Load {
  /** Calls sent and not answered yet. */
  inFlight(): number;
  acknowledged(): number;
  /** Stops sending and waits for every call to end one way or the other. */
  stop(): Promise<void>;
}

/** `workers` loops, each sending one write after another, until stopped or the server is gone. */
export function startWrites(url: string, token: string, ledger: Ledger, workers = 8): Load {
  let running = true;
  let inFlight = 0;
  let acked = 0;
  let serial = 0;
  const doomedUsers = [...ledger.doomedUsers];
  const doomedIssues = [...ledger.doomedIssues];

  const send = async (method: string, path: string, body: unknown, onAck: (data: { _id: string }) => void, form?: FormData) => {
    inFlight++;
    try {
      const answer = await call(url, method, path, form ? { token, form } : { token, body });
      if (answer.status >= 200 && answer.status < 300) {
        acked++;
        onAck(answer.body.data);
      } else {
        ledger.refused.push({ call: `${method} ${path}`, status: answer.status, body: answer.body });
      }
    } catch {
      ledger.unanswered++;
    } finally {
      inFlight--;
    }
  };

  const one = async (worker: number) => {
    const n = serial++;
    const keeperUser = ledger.keeperUsers[n % ledger.keeperUsers.length];
    switch (n % 8) {
      case 0:
        return send('POST', '/api/user', { loginId: `load-${worker}-${n}-${Date.now().toString(36)}`, loginPwd: 'user-password' }, (d) =>
          ledger.created.users.push(d._id),
        );
      case 1:
        return send(
          'POST',
          '/api/book',
          { bookTitle: `书 ${n}`, downloadLink: 'https://example.com/b', bookIntro: '<p>书</p>', requirePoints: 1, typeId: ledger.typeId },
          (d) => ledger.created.books.push(d._id),
        );
      case 2:
        return send(
          'POST',
          '/api/issue',
          { issueTitle: `问答 ${n}`, issueContent: '<p>问</p>', userId: keeperUser, typeId: ledger.typeId },
          (d) => ledger.created.issues.push(d._id),
        );
      case 3:
      case 4: {
        const target = n % 2 ? { issueId: ledger.keeperIssues[n % 2] } : { bookId: ledger.keeperBooks[n % 2] };
        return send(
          'POST',
          '/api/comment',
          {
            userId: keeperUser,
            commentType: 'issueId' in target ? COMMENT_TYPES.issue : COMMENT_TYPES.book,
            ...target,
            commentContent: `<p>评论 ${n}</p>`,
          },
          (d) => ledger.created.comments.push(d._id),
        );
      }
      case 5: {
        const bytes = pngWithTail(n, 256 + (n % 512));
        return send(
          'POST',
          '/api/upload',
          undefined,
          (d) => ledger.created.uploads.push({ path: d as unknown as string, bytes }),
          imageForm(bytes),
        );
      }
      case 6: {
        const doomed = doomedUsers.shift();
        if (doomed) return send('DELETE', `/api/user/${doomed.id}`, undefined, () => ledger.deleted.users.push(doomed.id));
        return;
      }
      default: {
        const doomed = doomedIssues.shift();
        if (doomed) return send('DELETE', `/api/issue/${doomed.id}`, undefined, () => ledger.deleted.issues.push(doomed.id));
        return;
      }
    }
  };

  const loops = Array.from({ length: workers }, async (_, worker) => {
    while (running) {
      const before = ledger.unanswered;
      await one(worker);
      // The server is gone: stop instead of spinning on refused connections.
      if (ledger.unanswered > before) return;
    }
  });

  return {
    inFlight: () => inFlight,
    acknowledged: () => acked,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

async function existing(db: Db, table: 'users' | 'books' | 'issues' | 'comments', ids: string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await queryRows<{ id: string }>(
    db,
    sql`select id from ${sql.identifier(table)} where id = any(${`{${ids.join(',')}}`}::text[])`,
  );
  return new Set(rows.map((r) => r.id));
}

/** Every way the database disagrees with the ledger (empty when it keeps every acknowledged write). */
export async function ledgerProblems(db: Db, ledger: Ledger): Promise<string[]> {
  const problems: string[] = [];
  for (const table of ['users', 'books', 'issues', 'comments'] as const) {
    const ids = ledger.created[table];
    const found = await existing(db, table, ids);
    const lost = ids.filter((id) => !found.has(id));
    if (lost.length) problems.push(`${lost.length} acknowledged ${table} lost: ${lost.slice(0, 5).join(', ')}`);
  }
  for (const upload of ledger.created.uploads) {
    const id = /\/([0-9a-f]{24})\./.exec(upload.path)?.[1] ?? '';
    const [row] = await queryRows<{ data: Buffer | Uint8Array }>(db, sql`select data from uploads where id = ${id}`);
    if (!row) problems.push(`acknowledged upload ${upload.path} lost`);
    else if (!Buffer.from(row.data).equals(upload.bytes)) problems.push(`upload ${upload.path} changed`);
  }

  const checkDoomed = async (kind: 'user' | 'issue', doomed: Doomed[], deleted: string[]) => {
    const table = kind === 'user' ? 'users' : 'issues';
    const present = await existing(
      db,
      table,
      doomed.map((d) => d.id),
    );
    for (const d of doomed) {
      const owner = kind === 'user' ? sql`user_id` : sql`id`;
      const [counts] = await queryRows<{ issues: number; comments: number }>(
        db,
        kind === 'user'
          ? sql`select (select count(*)::int from issues where ${owner} = ${d.id}) as issues,
                       (select count(*)::int from comments where user_id = ${d.id}
                          or issue_id in (select id from issues where user_id = ${d.id})) as comments`
          : sql`select (select count(*)::int from issues where id = ${d.id}) as issues,
                       (select count(*)::int from comments where issue_id = ${d.id}) as comments`,
      );
      if (deleted.includes(d.id) && present.has(d.id)) problems.push(`${kind} ${d.id} was deleted (2xx) but is back`);
      const whole = counts.issues === d.issues && counts.comments === d.comments;
      const gone = counts.issues === 0 && counts.comments === 0;
      if (present.has(d.id) ? !whole : !gone) {
        problems.push(
          `${kind} ${d.id} half deleted: ${present.has(d.id) ? 'present' : 'absent'} with ${JSON.stringify(counts)}, had ${JSON.stringify(d)}`,
        );
      }
    }
  };
  await checkDoomed('user', ledger.doomedUsers, ledger.deleted.users);
  await checkDoomed('issue', ledger.doomedIssues, ledger.deleted.issues);
  return problems;
}
