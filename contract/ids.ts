import { Type } from '@sinclair/typebox';

// Ids are 24 lowercase hex characters laid out like a MongoDB ObjectId, so that records imported
// from the reference keep theirs (docs/api.md "Conventions").
export const ID_PATTERN = '^[0-9a-f]{24}$';

/** A record's own `_id`. */
export const Id = Type.String({ pattern: ID_PATTERN });

/** A reference to another record (userId, typeId, ...). */
export const RefId = Type.String({ pattern: ID_PATTERN });

/**
 * A reference that may be absent, in an answer. Written as one schema of two types rather than a
 * union: the server's serializer picks a union's branch by running a validator on the value (a
 * regular expression per id, per row), and a type list by `typeof`.
 */
export const NullableRefId = Type.Unsafe<string | null>({ type: ['string', 'null'], pattern: ID_PATTERN });

export const IdParams = Type.Object({ id: Type.String({ pattern: ID_PATTERN, description: '24 位十六进制 id' }) });
