import { Type, type Static, type TObject, type TProperties } from '@sinclair/typebox';
import { BookListQuery } from './book';
import { CommentListQuery, CommentType } from './comment';
import { InterviewListQuery } from './interview';
import { IssueListQuery } from './issue';
import { UserListQuery } from './user';

/**
 * An export takes exactly its list's filters (the same schema without the paging), so that the
 * file holds what the list shows, every page of it.
 */
const withoutPaging = <T extends TProperties>(list: TObject<T>) =>
  Type.Omit(list, ['current', 'pageSize'], { additionalProperties: false });

export const UserExportQuery = withoutPaging(UserListQuery);
export type UserExportQuery = Static<typeof UserExportQuery>;
export const BookExportQuery = withoutPaging(BookListQuery);
export type BookExportQuery = Static<typeof BookExportQuery>;
export const InterviewExportQuery = withoutPaging(InterviewListQuery);
export type InterviewExportQuery = Static<typeof InterviewExportQuery>;
export const IssueExportQuery = withoutPaging(IssueListQuery);
export type IssueExportQuery = Static<typeof IssueExportQuery>;
/**
 * The comment list is per comment type (its path parameter); the export takes it in the query,
 * 1 (comments on issues) unless given, as the list screen opens on them.
 */
export const CommentExportQuery = Type.Composite(
  [
    withoutPaging(CommentListQuery),
    Type.Object({ commentType: Type.Optional(Type.Union(CommentType.anyOf, { ...CommentType, default: 1 })) }),
  ],
  { additionalProperties: false },
);
export type CommentExportQuery = Static<typeof CommentExportQuery>;

/** The resources with an export, as in `GET /api/{resource}/export`. */
export type ExportResource = 'user' | 'book' | 'interview' | 'issue' | 'comment' | 'audit';
