import { Type, type Static } from '@sinclair/typebox';

export * from './values/upload';

/** What an upload answers: the path the stored image is served at. */
export const UploadedImage = Type.String({ description: '/static/uploads/<id>.<ext>' });
export type UploadedImage = Static<typeof UploadedImage>;
