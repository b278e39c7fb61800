/**
 * The optimisations behind the database seam (the `Database` handle and `defineList`), each a
 * named layer that can be turned off. With every layer off the server runs on stock drizzle
 * drivers, lists by limit/offset with a count(*), and no private API: the plain reference the
 * fast path is compared with (db/layers.test.ts). What each layer buys: docs/decisions/0010.
 */
export const LAYERS = [
  /** PGlite: statements prepared once and run with one round trip (pglite-statements.ts). */
  'statements',
  /**
   * Text filters through the gram indexes, counted exactly up to a cap, then estimated; a term
   * with no letter case tested with LIKE instead of ILIKE (list.ts).
   */
  'search',
  /** Totals of lists from the counts the triggers keep (list_counts). */
  'counts',
  /** Deep pages found through the kept buckets of dates (list_buckets). */
  'buckets',
  /** Audit log and recycle bin: a page read from the nearer end of the list (nearestEndPage). */
  'nearestEnd',
  /** Session lookups kept in memory until a write (memoUntilWrite, change-feed.ts). */
  'sessions',
  /**
   * The public site's reads (approved questions, one question, comment pages) kept in memory
   * until a write to what they read (memoUntilWrite, change-feed.ts; site.service.ts).
   */
  'answers',
  /** PostgreSQL: a connection whose statement has no answer past its bound is dropped (client.ts). */
  'watch',
] as const;

export type Layer = (typeof LAYERS)[number];
export type Layers = Readonly<Record<Layer, boolean>>;

export const ALL_LAYERS: Layers = Object.fromEntries(LAYERS.map((layer) => [layer, true])) as Record<Layer, boolean>;
export const PLAIN: Layers = Object.fromEntries(LAYERS.map((layer) => [layer, false])) as Record<Layer, boolean>;

/**
 * DB_LAYERS: unset or `all`, every layer; `plain`, none; `-search,-buckets`, all but those;
 * `statements,search`, only those. An unknown name is an error, not silently ignored.
 */
export function parseLayers(text: string | undefined): Layers {
  const value = (text ?? '').trim();
  if (value === '' || value === 'all') return ALL_LAYERS;
  if (value === 'plain') return PLAIN;
  const names = value
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const removing = names.every((name) => name.startsWith('-'));
  if (!removing && names.some((name) => name.startsWith('-'))) {
    throw new Error(`DB_LAYERS 不能混用开启与关闭（${value}）`);
  }
  const layers: Record<Layer, boolean> = { ...(removing ? ALL_LAYERS : PLAIN) };
  for (const name of names.map((name) => name.replace(/^-/, ''))) {
    if (!(LAYERS as readonly string[]).includes(name)) {
      throw new Error(`DB_LAYERS 中的 ${name} 不是已知的层（可用：${LAYERS.join('、')}、all、plain）`);
    }
    layers[name as Layer] = !removing;
  }
  return layers;
}

/** The layers of each open database, by its drizzle handle (set by openDatabase). */
const layersByHandle = new WeakMap<object, Layers>();

export function setLayers(handle: object, layers: Layers): void {
  layersByHandle.set(handle, layers);
}

/** A handle openDatabase did not make (a test's own drizzle) runs every layer. */
export function layersOf(handle: object): Layers {
  return layersByHandle.get(handle) ?? ALL_LAYERS;
}

/**
 * A suffix for the names of prepared statements whose text depends on the layers: on PostgreSQL a
 * name is per connection, and two handles with other layers may share a pool (layers.test.ts).
 */
export function layersTag(layers: Layers): string {
  return LAYERS.every((layer) => layers[layer]) ? '' : `_l${LAYERS.map((layer) => (layers[layer] ? 1 : 0)).join('')}`;
}
