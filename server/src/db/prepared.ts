import { Column, getTableName, is, Param, Placeholder, SQL, Subquery } from 'drizzle-orm';
import { NodePgPreparedQuery } from 'drizzle-orm/node-postgres';
import type { Db } from './client';
import { layersOf } from './layers';

// The `direct` layer (db/layers.ts, docs/decisions/0010): it reads drizzle's private fields, so
// prepared.test.ts checks it against drizzle's own execute on every run.

/**
 * The parts of drizzle's node-postgres prepared query that running it needs (declared private in
 * its typings): the statement, its parameters, its selected fields and how it talks to the pool.
 */
interface PreparedInternals {
  client: { query(config: object): Promise<{ rows: unknown[][] }> };
  params: unknown[];
  logger: { logQuery(query: string, params: unknown[]): void };
  fields?: Array<{ path: string[]; field: unknown }>;
  joinsNotNullableMap?: Record<string, boolean>;
  queryConfig: { name?: string; text: string; types: unknown };
}

interface Decoder {
  mapFromDriverValue(value: unknown): unknown;
}

// An SQL fragment's decoder (`sql<T>\`...\`.mapWith(...)`) is internal in drizzle's typings.
const sqlDecoder = (fragment: SQL) => (fragment as unknown as { decoder: Decoder }).decoder;

function decoderOf(field: unknown): Decoder {
  if (is(field, Column)) return field;
  if (is(field, SQL)) return sqlDecoder(field);
  if (is(field, Subquery)) return sqlDecoder((field as unknown as { _: { sql: SQL } })._.sql);
  return sqlDecoder((field as SQL.Aliased).sql);
}

const key = (name: string) => JSON.stringify(name);

/**
 * A function, generated once per statement, that turns a row (an array, as the statement
 * answers it) into the object drizzle would make of it: the same nesting, the same decoding, the
 * same rule for a left-joined table that found nothing (its nested object becomes null when the
 * first of its columns is null, as in drizzle's mapResultRow).
 */
function rowMapper(fields: NonNullable<PreparedInternals['fields']>, notNullable: Record<string, boolean> | undefined) {
  const decoders = fields.map(({ field }) => decoderOf(field));
  const read = (i: number) =>
    decoders[i].mapFromDriverValue === Column.prototype.mapFromDriverValue
      ? `r[${i}]`
      : `(r[${i}] === null ? null : d[${i}].mapFromDriverValue(r[${i}]))`;
  type Node = { index: number } | Map<string, Node>;
  const tree = new Map<string, Node>();
  fields.forEach(({ path }, index) => {
    let node = tree;
    path.forEach((chunk, depth) => {
      if (depth === path.length - 1) node.set(chunk, { index });
      else {
        if (!node.has(chunk)) node.set(chunk, new Map());
        node = node.get(chunk) as Map<string, Node>;
      }
    });
  });
  // A nested object whose table columns all come from one table that a left join may leave empty.
  const nullable = new Map<string, number>();
  if (notNullable) {
    for (const [name, node] of tree) {
      if (!(node instanceof Map)) continue;
      const columns = fields
        .map(({ path, field }, index) => ({ path, field, index }))
        .filter(({ path, field }) => path.length === 2 && path[0] === name && is(field, Column));
      if (!columns.length) continue;
      const tables = new Set(columns.map(({ field }) => getTableName((field as Column).table)));
      const [table] = tables;
      if (tables.size === 1 && !notNullable[table]) nullable.set(name, columns[0].index);
    }
  }
  const literal = (node: Map<string, Node>, top: boolean): string =>
    `{ ${[...node]
      .map(([name, child]) => {
        if (!(child instanceof Map)) return `${key(name)}: ${read(child.index)}`;
        const inner = literal(child, false);
        const first = top ? nullable.get(name) : undefined;
        return `${key(name)}: ${first === undefined ? inner : `(r[${first}] === null ? null : ${inner})`}`;
      })
      .join(', ')} }`;
  return new Function('d', `return (r) => (${literal(tree, true)});`)(decoders) as (row: unknown[]) => unknown;
}

/** A function that lays out the statement's parameters from the placeholders' values. */
function parameterMaker(params: unknown[]): (values: Record<string, unknown>) => unknown[] {
  const makers = params.map((param) => {
    const placeholder = is(param, Placeholder) ? param : is(param, Param) && is(param.value, Placeholder) ? param.value : null;
    if (!placeholder) return () => param;
    const encoder = is(param, Param) ? param.encoder : null;
    return (values: Record<string, unknown>) => {
      if (!(placeholder.name in values)) throw new Error(`No value for placeholder "${placeholder.name}" was provided`);
      const value = values[placeholder.name];
      return encoder ? encoder.mapToDriverValue(value) : value;
    };
  });
  return (values) => makers.map((make) => make(values));
}

/**
 * A drizzle prepared select, run on PostgreSQL without drizzle's per-call work. drizzle builds
 * the statement (once); each call then sends it by name, as drizzle does, and turns its rows into
 * objects with a function made for this statement, where drizzle's own mapping walked every
 * field's path and checked every field's class again for each row of each call (a sixth of a
 * list call's CPU in the server's profile). The query hook still sees every statement. On the
 * embedded database (or for anything but a select, or with the layer off), drizzle's own execute is used.
 */
export function direct<Q extends { execute(values?: Record<string, unknown>): Promise<unknown> }>(db: Db, prepared: Q): Pick<Q, 'execute'> {
  if (!layersOf(db).direct || !is(prepared, NodePgPreparedQuery)) return prepared;
  const internals = prepared as unknown as PreparedInternals;
  const { fields, queryConfig, client, logger } = internals;
  if (!fields) return prepared;
  const mapRow = rowMapper(fields, internals.joinsNotNullableMap);
  const parameters = parameterMaker(internals.params);
  const { name, text, types } = queryConfig;
  return {
    execute: (async (values: Record<string, unknown> = {}) => {
      const params = parameters(values);
      logger.logQuery(text, params);
      const { rows } = await client.query({ name, text, values: params, rowMode: 'array', types });
      return rows.map(mapRow);
    }) as Q['execute'],
  };
}
