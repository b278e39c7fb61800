/**
 * Interview question calls for `npm run dev:mock`, following CONTRACT.md and
 * server/src/modules/interview (NormalAdmin).
 */
import { defineMock } from '@umijs/max';
import {
  content,
  type MockInterview,
  newestFirst,
  removeInterview,
  typeExists,
} from './lib/content';
import {
  badRequest,
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

const MISSING = '面试题不存在';
const UNKNOWN_TYPE = '分类不存在';

/** The server schema's fields, in its order, so the first error reported is the same. */
const spec = {
  interviewTitle: str({ min: 1, max: 200 }),
  interviewContent: html(500_000),
  typeId: refId,
};
const REQUIRED = ['interviewTitle', 'interviewContent', 'typeId'] as const;
const listSpec = { interviewTitle: textFilter, typeId: idFilter };

const show = (interview: MockInterview): MockInterview => ({ ...interview });

function mustFind(id: string): MockInterview {
  const interview = content.interviews.find((i) => i._id === id);
  if (!interview) throw notFound(MISSING);
  return interview;
}

export default defineMock({
  'GET /api/interview': guarded('normal', (req, res) => {
    const page = readPage(req);
    const filter = readFields(queryOf(req), listSpec);
    const rows = content.interviews
      .filter(
        (i) =>
          containsText(i.interviewTitle, filter.interviewTitle) &&
          (!filter.typeId || i.typeId === filter.typeId),
      )
      .sort(newestFirst((i) => i.onShelfDate));
    ok(res, pageOf(rows, page, show));
  }),

  'GET /api/interview/:id': guarded('normal', (req, res) => {
    ok(res, show(mustFind(idParam(req))));
  }),

  'POST /api/interview': guarded('normal', (req, res) => {
    const body = readFields(bodyOf(req), spec, REQUIRED);
    const interviewContent = requiredHtml('interviewContent', body.interviewContent);
    if (!typeExists(body.typeId)) throw badRequest(UNKNOWN_TYPE);
    const at = Date.now();
    const interview: MockInterview = {
      _id: objectId(at),
      interviewTitle: body.interviewTitle,
      interviewContent,
      onShelfDate: at,
      typeId: body.typeId,
    };
    content.interviews.push(interview);
    ok(res, show(interview), 201);
  }),

  'PATCH /api/interview/:id': guarded('normal', (req, res) => {
    const id = idParam(req);
    const changes = readFields(bodyOf(req), spec);
    if (changes.interviewContent !== undefined) {
      changes.interviewContent = requiredHtml('interviewContent', changes.interviewContent);
    }
    // As on the server, an unknown type is refused before the question is looked for.
    if (changes.typeId && !typeExists(changes.typeId)) throw badRequest(UNKNOWN_TYPE);
    const interview = mustFind(id);
    Object.assign(interview, changes);
    ok(res, show(interview));
  }),

  'DELETE /api/interview/:id': guarded('normal', (req, res) => {
    removeInterview(mustFind(idParam(req))._id);
    ok(res, null);
  }),
});
