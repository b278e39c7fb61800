/**
 * The built files whose names carry a hash of their content (Umi's `hash: true`): `umi.<8 hex>.js`,
 * `umi.<8 hex>.css`, `<chunk>.<8 hex>.async.js`, `<chunk>.<8 hex>.chunk.css`,
 * `preload_helper.<8 hex>.js` and `static/<name>.<8 hex>.<ext>`, and the `.br` and `.gz` copies the
 * build writes beside them. Such a name never changes content, so the server lets browsers keep it
 * for good; the build fails when a script or style sheet it wrote does not match (config/bundle.ts).
 */
export const HASHED_ASSET = /\.[0-9a-f]{8}(?:\.async|\.chunk)?\.(?:js|css|png|jpe?g|gif|svg|webp|woff2?|ttf)(?:\.br|\.gz)?$/;

/** What a hashed file is served with (docs/api.md, caching). */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
