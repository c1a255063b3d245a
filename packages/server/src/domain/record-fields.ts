// The building blocks of the engine's record schemas (records.ts, state.ts): TypeBox schemas from
// which the records' TypeScript types come (issue 14 point 5), and which the store checks every
// loaded record against (store/record-schemas.ts). A record allows additional properties: a field
// written by a newer version is not damage, and TypeBox's `Static` ignores them, so the types stay
// exact.
import Type, { type TProperties, type TSchema } from 'typebox';

/** An integer JavaScript holds exactly (money is integer cents: beyond 2^53 it would round). */
export const Int = Type.Integer({ minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER });
export const Str = Type.String();
export const Bool = Type.Boolean();
/** Unix seconds. */
export const Time = Type.Number();
/** A non-negative integer: a sequence number, a counter. */
export const Count = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
/** A stored record: an object with these fields, and possibly others. */
export const StoredRecord = <P extends TProperties>(properties: P) =>
  Type.Object(properties, { additionalProperties: true });
