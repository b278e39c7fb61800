import { readCommandLine, UsageError } from './command-line';

const options = { out: { type: 'string' }, force: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;
const USAGE = '用法：tool [--out 文件] [--force]';

function refusal(argv: string[], allowPositionals = false): string {
  try {
    readCommandLine(argv, { options, allowPositionals, usage: USAGE });
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error(`${JSON.stringify(argv)} was taken`);
}

describe('readCommandLine', () => {
  it('gives the values and positionals of a command line it takes, typed as parseArgs gives them', () => {
    const read = (argv: string[]) => {
      const { values, positionals } = readCommandLine(argv, { options, allowPositionals: true, usage: USAGE });
      return { values: { ...values }, positionals };
    };
    expect(read([])).toEqual({ values: {}, positionals: [] });
    expect(read(['--force', '-h'])).toEqual({ values: { force: true, help: true }, positionals: [] });
    expect(read(['--out', 'a.gz', 'b'])).toEqual({ values: { out: 'a.gz' }, positionals: ['b'] });
    expect(read(['--out=-odd-name'])).toEqual({ values: { out: '-odd-name' }, positionals: [] });
    expect(read(['--', '--force'])).toEqual({ values: {}, positionals: ['--force'] });
  });

  it.each([
    [['--froce'], '不认识的参数：--froce'],
    [['--froce=1'], '不认识的参数：--froce=1'],
    [['a.gz'], '不认识的参数：a.gz'],
    [['--', '--force'], '不认识的参数：--force'],
    [['--force=yes'], '--force 不带值：--force=yes'],
    [['--out'], '--out 需要一个值'],
    [['--out', '--force'], '--out 需要一个值'],
  ])('refuses %j in Chinese, naming it, followed by the usage', (argv, problem) => {
    expect(refusal(argv)).toBe(`${problem}\n${USAGE}`);
  });

  it('names every argument it does not take at once, not only the first', () => {
    expect(refusal(['--dmeo', '--force=1', 'x'])).toBe(`不认识的参数：--dmeo\n--force 不带值：--force=1\n不认识的参数：x\n${USAGE}`);
  });
});
