/**
 * What both source readers (the Navicat dump script and mongoexport's Extended JSON) turn a
 * MongoDB document into, so that the mapping does not care where a document came from.
 */
export class ObjectIdValue {
  constructor(readonly hex: string) {}
}

export type Value = null | boolean | number | string | Date | ObjectIdValue | Value[] | Doc;
export interface Doc {
  [field: string]: Value;
}

/** A document and where it was read: the dump script's line, or a mongoexport file's line. */
export interface SourceDoc {
  doc: Doc;
  line: number;
  file: string;
}

export interface SourceData {
  format: 'dump' | 'mongoexport';
  /** Documents by collection name, in file order. */
  collections: Map<string, SourceDoc[]>;
}

/** A source that cannot be read as a whole: nothing is imported from it. */
export class SourceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SourceError';
  }
}
