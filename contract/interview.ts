import { Type, type Static } from '@sinclair/typebox';
import { HtmlField } from './fields';
import { Id, RefId } from './ids';
import { IfVersion, Version } from './version';
import { IdFilter, PageQuery, TextFilter } from './paging';

export * from './values/interview';

export const Interview = Type.Object(
  {
    _id: Id,
    interviewTitle: Type.String(),
    interviewContent: Type.String({ description: '已净化的 HTML' }),
    onShelfDate: Type.Integer({ description: 'epoch 毫秒' }),
    typeId: RefId,
    version: Version,
  },
  { title: 'Interview' },
);
export type Interview = Static<typeof Interview>;

export const InterviewListQuery = Type.Object(
  { ...PageQuery, interviewTitle: TextFilter('题目标题'), typeId: IdFilter('分类 id') },
  { additionalProperties: false },
);
export type InterviewListQuery = Static<typeof InterviewListQuery>;

const fields = {
  interviewTitle: Type.String({ minLength: 1, maxLength: 200 }),
  interviewContent: HtmlField(500_000),
  typeId: RefId,
};

export const CreateInterviewBody = Type.Object(fields, { additionalProperties: false });
export type CreateInterviewBody = Static<typeof CreateInterviewBody>;

export const UpdateInterviewBody = Type.Object(
  { ...Type.Partial(Type.Object(fields)).properties, ...IfVersion },
  { additionalProperties: false },
);
export type UpdateInterviewBody = Static<typeof UpdateInterviewBody>;
