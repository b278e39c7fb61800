/**
 * Issue (问答) calls for `npm run dev:mock`, following CONTRACT.md and server/src/modules/issue
 * (NormalAdmin). Each issue is answered with its author as `user: { _id, nickname, avatar }`;
 * approving is `PATCH { issueStatus: true }`.
 */
import { defineMock } from '@umijs/max';
import {
  content,
  issueView,
  type MockIssue,
  newestFirst,
  removeIssue,
  retypeComments,
  typeExists,
} from './lib/content';
import {
  badRequest,
  bool,
  boolFilter,
  containsText,
  guarded,
  html,
  idFilter,
  idParam,
  notFound,
  pageOf,
  queryOf,
  readFields,
  readPage,
  refId,
  requiredHtml,
  str,
  textFilter,
} from './lib/input';
import { bodyOf, objectId, ok } from './lib/store';

const MISSING = '问答不存在';
const UNKNOWN_TYPE = '分类不存在';
const UNKNOWN_USER = '用户不存在';

const title = str({ min: 1, max: 200 });
const issueContent = html(500_000);
/** The server schemas' fields, in their order, so the first error reported is the same. */
const createSpec = { issueTitle: title, issueContent, userId: refId, typeId: refId };
const updateSpec = { issueTitle: title, issueContent, typeId: refId, issueStatus: bool };
const listSpec = { issueTitle: textFilter, typeId: idFilter, issueStatus: boolFilter };

function mustFind(id: string): MockIssue {
  const issue = content.issues.find((i) => i._id === id);
  if (!issue) throw notFound(MISSING);
  return issue;
}

export default defineMock({
  'GET /api/issue': guarded('normal', (req, res) => {
    const page = readPage(req);
    const filter = readFields(queryOf(req), listSpec);
    const status = filter.issueStatus ? filter.issueStatus === 'true' : undefined;
    const rows = content.issues
      .filter(
        (i) =>
          containsText(i.issueTitle, filter.issueTitle) &&
          (!filter.typeId || i.typeId === filter.typeId) &&
          (status === undefined || i.issueStatus === status),
      )
      .sort(newestFirst((i) => i.issueDate));
    ok(res, pageOf(rows, page, issueView));
  }),

  'GET /api/issue/:id': guarded('normal', (req, res) => {
    ok(res, issueView(mustFind(idParam(req))));
  }),

  /** A new issue waits for review. */
  'POST /api/issue': guarded('normal', (req, res) => {
    const body = readFields(bodyOf(req), createSpec, ['issueTitle', 'issueContent', 'userId', 'typeId']);
    const cleanContent = requiredHtml('issueContent', body.issueContent);
    if (!content.users.some((u) => u._id === body.userId)) throw badRequest(UNKNOWN_USER);
    if (!typeExists(body.typeId)) throw badRequest(UNKNOWN_TYPE);
    const at = Date.now();
    const issue: MockIssue = {
      _id: objectId(at),
      issueTitle: body.issueTitle,
      issueContent: cleanContent,
      scanNumber: 0,
      commentNumber: 0,
      issueStatus: false,
      issueDate: at,
      userId: body.userId,
      typeId: body.typeId,
    };
    content.issues.push(issue);
    ok(res, issueView(issue), 201);
  }),

  'PATCH /api/issue/:id': guarded('normal', (req, res) => {
    const id = idParam(req);
    const changes = readFields(bodyOf(req), updateSpec);
    if (changes.issueContent !== undefined) {
      changes.issueContent = requiredHtml('issueContent', changes.issueContent);
    }
    // As on the server, an unknown type is refused before the issue is looked for.
    if (changes.typeId && !typeExists(changes.typeId)) throw badRequest(UNKNOWN_TYPE);
    const issue = mustFind(id);
    Object.assign(issue, changes);
    // A comment's type is its issue's.
    if (changes.typeId) retypeComments(1, issue._id, changes.typeId);
    ok(res, issueView(issue));
  }),

  /** Takes the issue's comments along. */
  'DELETE /api/issue/:id': guarded('normal', (req, res) => {
    removeIssue(mustFind(idParam(req))._id);
    ok(res, null);
  }),
});
