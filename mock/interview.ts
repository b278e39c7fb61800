/**
 * Interview question calls for `npm run dev:mock`, following docs/api.md and
 * server/src/modules/interview (NormalAdmin).
 */
import { defineMock } from '@umijs/max';
import { typedContentMocks } from './lib/crud';
import { content, type MockInterview, removeInterview } from './lib/content';
import { html, refId, str } from './lib/input';
import { objectId } from './lib/store';

/** The server schema's fields, in its order, so the first error reported is the same. */
const spec = {
  interviewTitle: str({ min: 1, max: 200 }),
  interviewContent: html(500_000),
  typeId: refId,
};

export default defineMock(
  typedContentMocks('/api/interview', {
    rows: () => content.interviews,
    missing: '面试题不存在',
    filters: { interviewTitle: 'text', typeId: 'id' },
    dateOf: (interview) => interview.onShelfDate,
    show: (interview) => ({ ...interview }),
    html: 'interviewContent',
    createSpec: spec,
    required: ['interviewTitle', 'interviewContent', 'typeId'],
    updateSpec: spec,
    build: (body, at): MockInterview => ({
      _id: objectId(at),
      interviewTitle: body.interviewTitle,
      interviewContent: body.interviewContent,
      onShelfDate: at,
      typeId: body.typeId,
    }),
    remove: removeInterview,
  }),
);
