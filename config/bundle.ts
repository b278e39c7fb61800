/**
 * A local Umi plugin (.umirc.ts `plugins`) for what plain configuration cannot say, through Umi's
 * documented plugin API only:
 * - `<html lang="zh-CN">` (Umi writes a bare `<html>`);
 * - the `targets` of .umirc.ts for Babel's preset-env (Umi gives them to babel-loader, which
 *   Umi's preset tells preset-env to ignore: our own code would otherwise be compiled to ES5);
 * - the module redirects below, each guarded: a production build FAILS when one of them matched
 *   nothing, so a library upgrade that moves the redirected files stops the build instead of
 *   silently bringing the bytes back (or breaking the page);
 * - after a production build: a check that every script and style sheet carries a content hash
 *   (the build FAILS otherwise, since the server would have a browser ask for it on every visit),
 *   and brotli and gzip copies of the text files, which the server sends as they are
 *   (@fastify/static `preCompressed`) instead of compressing on every request.
 */
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { IApi } from '@umijs/max';
import { HASHED_ASSET } from '#contract/assets';

interface Redirect {
  name: string;
  /** What it saves, and why nothing is lost. */
  why: string;
  /** The folder (webpack's `context`) of the importing module. */
  from: RegExp;
  /** Every request that must be redirected; each must be met at least once in a build. */
  requests: string[];
  to: (request: string) => string;
}

const shim = (file: string) => require.resolve(`../src/shims/${file}`);

// ProField imports every value-type component up front, so any ProTable or ProForm carries the
// date, time, colour, cascader, tree, slider, number and rate pickers and the image with its
// preview (~140 kB gzipped on /user/userList). None of the lists or search forms shows these; the
// stand-in fetches the real component the first time one renders (src/shims/lazy-pro-field.tsx).
const lazyProFields = [
  'Cascader',
  'Code',
  'ColorPicker',
  'DatePicker',
  'Digit',
  'DigitRange',
  'FromNow',
  'Image',
  'Money',
  'Percent',
  'Progress',
  'Radio',
  'RangePicker',
  'Rate',
  'Second',
  'Segmented',
  'Slider',
  'TimePicker',
  'TreeSelect',
];

export const redirects: Redirect[] = [
  {
    name: 'lazy-pro-field',
    why: "ProField's value types load on first use",
    from: /[\\/]@ant-design[\\/]pro-field[\\/]es$/,
    requests: lazyProFields.map((field) => `./components/${field}`),
    to: (request) => `${shim('lazy-pro-field.tsx')}?${request.slice('./components/'.length)}`,
  },
  {
    // Every browser of .umirc.ts `targets` has ResizeObserver; the polyfill that antd's
    // rc-resize-observer (and rc-align, react-slick) import costs ~5 KB gzipped on every page.
    name: 'native-resize-observer',
    why: "the browser's own ResizeObserver instead of its polyfill",
    from: /[\\/]node_modules[\\/]/,
    requests: ['resize-observer-polyfill'],
    to: () => shim('resize-observer.ts'),
  },
];

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
const TEXT_FILE = /\.(?:js|css|html|svg|json|txt)$/;

function builtFiles(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => fs.statSync(path.join(dir, name)).isFile());
}

/** Writes `<file>.br` (quality 11) and `<file>.gz` (level 9) beside each text file, where smaller. */
async function precompress(dir: string): Promise<void> {
  const texts = builtFiles(dir).filter((name) => TEXT_FILE.test(name));
  // zlib's asynchronous calls run on libuv's thread pool: every core compresses.
  await Promise.all(
    texts.map(async (name) => {
      const file = path.join(dir, name);
      const body = fs.readFileSync(file);
      const [br, gz] = await Promise.all([
        brotli(body, {
          params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length },
        }),
        gzip(body, { level: 9 }),
      ]);
      if (br.length < body.length) fs.writeFileSync(`${file}.br`, br);
      if (gz.length < body.length) fs.writeFileSync(`${file}.gz`, gz);
    }),
  );
}

export default (api: IApi) => {
  api.modifyHTML(($) => {
    $('html').attr('lang', 'zh-CN');
    return $;
  });

  api.modifyBabelPresetOpts((opts) => ({
    ...opts,
    presetEnv: { ...opts.presetEnv, targets: api.config.targets },
  }));

  api.chainWebpack((memo, { webpack }) => {
    for (const redirect of redirects) {
      memo.plugin(`redirect-${redirect.name}`).use(
        class {
          // Umi's bundled webpack exports no types for its compiler and hooks.
          // biome-ignore lint/suspicious/noExplicitAny: see above.
          apply(compiler: any) {
            const met = new Set<string>();
            // biome-ignore lint/suspicious/noExplicitAny: see above.
            compiler.hooks.normalModuleFactory.tap(redirect.name, (factory: any) => {
              factory.hooks.beforeResolve.tap(redirect.name, (data: { request: string; context: string }) => {
                if (!redirect.requests.includes(data.request) || !redirect.from.test(data.context)) return;
                met.add(data.request);
                data.request = redirect.to(data.request);
              });
            });
            // Only a whole production build resolves every module; dev rebuilds and MFSU do not.
            if (api.env !== 'production') return;
            // biome-ignore lint/suspicious/noExplicitAny: see above.
            compiler.hooks.thisCompilation.tap(redirect.name, (compilation: any) => {
              compilation.hooks.finishModules.tap(redirect.name, () => {
                const missed = redirect.requests.filter((request) => !met.has(request));
                if (missed.length === 0) return;
                compilation.errors.push(
                  new webpack.WebpackError(
                    `config/bundle.ts: the redirect "${redirect.name}" (${redirect.why}) met no import of ` +
                      `${missed.join(', ')} from ${redirect.from}: the library has changed; update or drop the redirect.`,
                  ),
                );
              });
            });
          }
        },
      );
    }
    return memo;
  });

  // The last step of `max build`: index.html and Umi's preload helper are written by then.
  api.onBuildHtmlComplete(async () => {
    const dir = api.paths.absOutputPath;
    const unhashed = builtFiles(dir).filter((name) => /\.(?:js|css)$/.test(name) && !HASHED_ASSET.test(name));
    if (unhashed.length > 0) {
      throw new Error(
        `config/bundle.ts: ${unhashed.join(', ')} carry no content hash (contract/assets.ts): a browser would ` +
          'fetch them again on every visit. Keep `hash: true` in .umirc.ts, or teach HASHED_ASSET the new names.',
      );
    }
    await precompress(dir);
  });
};
