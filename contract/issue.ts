import { Type, type Static } from '@sinclair/typebox';
import { HtmlField } from './fields';
import { Id, RefId } from './ids';
import { IfVersion, Version } from './version';
import { BooleanFilter, IdFilter, PageQuery, TextFilter } from './paging';
import { UserSummary } from './user';

export * from './values/issue';

export const Issue = Type.Object(
  {
    _id: Id,
    issueTitle: Type.String(),
    issueContent: Type.String({ description: '已净化的 HTML' }),
    scanNumber: Type.Integer(),
    commentNumber: Type.Integer(),
    issueStatus: Type.Boolean({ description: 'false 待审核，true 已通过' }),
    issueDate: Type.Integer({ description: 'epoch 毫秒' }),
    userId: RefId,
    typeId: RefId,
    user: UserSummary,
    version: Version,
  },
  { title: 'Issue' },
);
export type Issue = Static<typeof Issue>;

export const IssueListQuery = Type.Object(
  {
    ...PageQuery,
    issueTitle: TextFilter('问答标题'),
    typeId: IdFilter('分类 id'),
    issueStatus: BooleanFilter('审核状态：false 待审核，true 已通过'),
  },
  { additionalProperties: false },
);
export type IssueListQuery = Static<typeof IssueListQuery>;

const Title = Type.String({ minLength: 1, maxLength: 200 });
const Content = HtmlField(500_000);

export const CreateIssueBody = Type.Object(
  { issueTitle: Title, issueContent: Content, userId: RefId, typeId: RefId },
  { additionalProperties: false },
);
export type CreateIssueBody = Static<typeof CreateIssueBody>;

export const UpdateIssueBody = Type.Object(
  {
    issueTitle: Type.Optional(Title),
    issueContent: Type.Optional(Content),
    typeId: Type.Optional(RefId),
    issueStatus: Type.Optional(Type.Boolean({ description: 'true 即审核通过' })),
    ...IfVersion,
  },
  { additionalProperties: false },
);
export type UpdateIssueBody = Static<typeof UpdateIssueBody>;
