/*
 * `tsc --noEmit -p tsconfig.json`, except for one kind of finding in one kind of file.
 *
 * Umi's generated src/.umi imports the dva plugin's runtime as TypeScript source by absolute path
 * (node_modules/@umijs/plugins/libs/dva.tsx), so tsc checks it as if it were the app's own code,
 * and skipLibCheck covers declaration files only. With noUnusedLocals and noUnusedParameters on,
 * its unused `React` import would fail the check, and it is not ours to change. Unused-name
 * findings in files under node_modules are therefore left out; every other finding, in any file,
 * fails the check as before.
 */
import path from 'node:path';
import ts from 'typescript';

const UNUSED = new Set([
  6133, // 'x' is declared but its value is never read.
  6138, // Property 'x' is declared but its value is never read.
  6192, // All imports in import declaration are unused.
  6196, // 'x' is declared but never used.
  6198, // All destructured elements are unused.
  6199, // All variables are unused.
  6205, // All type parameters are unused.
]);

const configPath = path.resolve('tsconfig.json');
const { config, error } = ts.readConfigFile(configPath, ts.sys.readFile);
if (error) {
  process.stderr.write(ts.formatDiagnostics([error], formatHost()));
  process.exit(1);
}
const parsed = ts.parseJsonConfigFileContent(config, ts.sys, path.dirname(configPath));
const program = ts.createProgram({
  rootNames: parsed.fileNames,
  options: { ...parsed.options, noEmit: true },
  projectReferences: parsed.projectReferences,
});

const inNodeModules = (diagnostic) => diagnostic.file?.fileName.split(/[\\/]/).includes('node_modules') ?? false;
const findings = [...parsed.errors, ...ts.getPreEmitDiagnostics(program)].filter(
  (diagnostic) => !(UNUSED.has(diagnostic.code) && inNodeModules(diagnostic)),
);

function formatHost() {
  return {
    getCanonicalFileName: (fileName) => fileName,
    getCurrentDirectory: ts.sys.getCurrentDirectory,
    getNewLine: () => ts.sys.newLine,
  };
}

if (findings.length > 0) {
  process.stderr.write(ts.formatDiagnosticsWithColorAndContext(findings, formatHost()));
  process.stderr.write(`\nFound ${findings.length} error${findings.length === 1 ? '' : 's'}.\n`);
  process.exit(1);
}
