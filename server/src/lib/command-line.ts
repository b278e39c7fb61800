import fs from 'node:fs';
import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** A command line a tool does not understand: its message names what, and ends with the usage. */
export class UsageError extends Error {}

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * Reads a tool's arguments with node's parseArgs, refusing in Chinese, by name and all at once,
 * each argument it does not take: an unknown flag (a mistyped `--dmeo`), a value given to a
 * switch (`--force=yes`), a flag whose value is missing, a positional where none is taken.
 * parseArgs' strict mode throws at the first of them, in English, with a stack.
 */
export function readCommandLine<O extends Options, P extends boolean = false>(
  argv: string[],
  { options, allowPositionals, usage }: { options: O; allowPositionals?: P; usage: string },
) {
  const { tokens } = parseArgs({ args: argv, options, strict: false, allowPositionals: true, tokens: true });
  const problems = tokens.flatMap((token) => {
    if (token.kind === 'positional') return allowPositionals ? [] : [`不认识的参数：${token.value}`];
    if (token.kind !== 'option') return [];
    const option = options[token.name];
    const given = token.inlineValue ? `${token.rawName}=${token.value}` : token.rawName;
    if (!option) return [`不认识的参数：${given}`];
    if (option.type === 'boolean' && token.value !== undefined) return [`${token.rawName} 不带值：${given}`];
    // As the strict reading would: a value starting with a dash is taken only as `--out=-x`.
    const valueMissing = token.value === undefined || (!token.inlineValue && token.value.startsWith('-'));
    if (option.type === 'string' && valueMissing) return [`${token.rawName} 需要一个值`];
    return [];
  });
  if (problems.length) throw new UsageError(`${problems.join('\n')}\n${usage}`);
  // Every argument is one it takes: the strict reading gives the typed values, and cannot throw.
  return parseArgs({ args: argv, options, allowPositionals, strict: true });
}

/**
 * For a tool that reads what a server made (backup, audit:verify): opening an embedded database
 * makes one where there is none, so a mistyped DATA_DIR is refused instead of left with a new,
 * empty database in it.
 */
export function requireExistingDataDir(config: { databaseUrl: string | null; dataDir: string }): void {
  if (config.databaseUrl || fs.existsSync(config.dataDir)) return;
  throw new UsageError(`数据目录 ${path.resolve(config.dataDir)} 不存在，那里没有内置数据库（DATA_DIR 是否写错了？）`);
}
