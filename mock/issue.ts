/**
 * Issue (问答) calls for `npm run dev:mock`, following docs/api.md and server/src/modules/issue
 * (NormalAdmin). Each issue is answered with its author as `user: { _id, nickname, avatar }`;
 * approving is `PATCH { issueStatus: true }`.
 */
import { defineMock } from '@umijs/max';
import { typedContentMocks } from './lib/crud';
import { content, issueView, type MockIssue, removeIssue, userExists } from './lib/content';
import { badRequest, bool, html, refId, str } from './lib/input';
import { objectId } from './lib/store';

const title = str({ min: 1, max: 200 });
const issueContent = html(500_000);

export default defineMock(
  typedContentMocks('/api/issue', {
    rows: () => content.issues,
    missing: '问答不存在',
    filters: { issueTitle: 'text', typeId: 'id', issueStatus: 'bool' },
    dateOf: (issue) => issue.issueDate,
    show: issueView,
    html: 'issueContent',
    /** The server schemas' fields, in their order, so the first error reported is the same. */
    createSpec: { issueTitle: title, issueContent, userId: refId, typeId: refId },
    required: ['issueTitle', 'issueContent', 'userId', 'typeId'],
    updateSpec: { issueTitle: title, issueContent, typeId: refId, issueStatus: bool },
    check: (body) => {
      if (!userExists(body.userId)) throw badRequest('用户不存在');
    },
    // A new issue waits for review.
    build: (body, at): MockIssue => ({
      _id: objectId(at),
      issueTitle: body.issueTitle,
      issueContent: body.issueContent,
      scanNumber: 0,
      commentNumber: 0,
      issueStatus: false,
      issueDate: at,
      userId: body.userId,
      typeId: body.typeId,
    }),
    comments: 1,
    // Takes the issue's comments along.
    remove: removeIssue,
  }),
);
