import { Type, type Static } from '@sinclair/typebox';
import { HtmlField, ImagePath } from './fields';
import { Id, RefId } from './ids';
import { IfVersion, Version } from './version';
import { IdFilter, PageQuery, TextFilter } from './paging';

export * from './values/book';

export const Book = Type.Object(
  {
    _id: Id,
    bookTitle: Type.String(),
    bookPic: Type.String(),
    downloadLink: Type.String(),
    bookIntro: Type.String({ description: '已净化的 HTML' }),
    scanNumber: Type.Integer(),
    commentNumber: Type.Integer(),
    onShelfDate: Type.Integer({ description: 'epoch 毫秒' }),
    requirePoints: Type.Integer(),
    typeId: RefId,
    version: Version,
  },
  { title: 'Book' },
);
export type Book = Static<typeof Book>;

export const BookListQuery = Type.Object(
  { ...PageQuery, bookTitle: TextFilter('书籍标题'), typeId: IdFilter('分类 id') },
  { additionalProperties: false },
);
export type BookListQuery = Static<typeof BookListQuery>;

const fields = {
  bookTitle: Type.String({ minLength: 1, maxLength: 100 }),
  downloadLink: Type.String({ maxLength: 2048, pattern: '^https?://[^\\s]+$', description: 'http 或 https 地址' }),
  bookIntro: HtmlField(500_000),
  requirePoints: Type.Integer({ minimum: 0, maximum: 1_000_000 }),
  typeId: RefId,
};
const bookPic = Type.Optional(ImagePath);

export const CreateBookBody = Type.Object({ ...fields, bookPic }, { additionalProperties: false });
export type CreateBookBody = Static<typeof CreateBookBody>;

export const UpdateBookBody = Type.Object(
  { ...Type.Partial(Type.Object({ ...fields, bookPic })).properties, ...IfVersion },
  { additionalProperties: false },
);
export type UpdateBookBody = Static<typeof UpdateBookBody>;
