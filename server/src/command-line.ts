import { parseArgs } from 'node:util';

export const SERVER_USAGE = `用法：npm start [-- --demo]
  --demo   数据库还没有任何内容时，先填充一小套演示数据
  --help   显示本说明
其余设置都来自环境变量（PORT、HOST、DATA_DIR、DATABASE_URL、ADMIN_LOGIN_ID、ADMIN_PASSWORD 等），
逐项说明见 docs/operations.md。`;

/** A command line the server does not understand: said with the usage, before anything opens. */
export class UsageError extends Error {}

export type ServerCommand = { help: true } | { help: false; demo: boolean };

const OPTIONS = { demo: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;

/**
 * The server's arguments. A mistyped flag (`--dmeo`) stops the start with a message naming it,
 * instead of starting a server without what was asked of it.
 */
export function parseServerArgs(argv: string[]): ServerCommand {
  // Not strict, with its tokens: each argument the server does not take is named in Chinese
  // (strict mode throws at the first, in English).
  const { values, tokens } = parseArgs({ args: argv, options: OPTIONS, strict: false, allowPositionals: true, tokens: true });
  const refused = tokens.flatMap((token) => {
    if (token.kind === 'positional') return [token.value];
    if (token.kind === 'option' && (!(token.name in OPTIONS) || token.value !== undefined))
      return [token.rawName + (token.inlineValue ? `=${token.value}` : '')];
    return [];
  });
  if (refused.length) throw new UsageError(`不认识的参数：${refused.join(' ')}\n${SERVER_USAGE}`);
  return values.help ? { help: true } : { help: false, demo: values.demo === true };
}
