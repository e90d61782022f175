// The index bench's corpus and yardstick on disk (index.bench.ts): the corpus copied from installed packages into
// bench/work/corpus/ (≥ 40 MB, ≥ 2,000 files, each ≤ 2 MB so Weave's default size cap keeps them all), and whether
// the native tree-sitter binding (an optional dependency of the project) loads.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { locateGrammars } from '../src/core/grammarLocation';
import { loadNativeTreeSitter } from '../src/core/index/nativeTreeSitter';

export const root = path.resolve(__dirname, '../..');
export const benchDir = path.join(root, 'bench');
export const workDir = path.join(benchDir, 'work');
export const corpusDir = path.join(workDir, 'corpus');
const maxCorpusFileBytes = 2 * 1024 * 1024;

interface CorpusSource {
  name: string;
  dir: string;
  extensions: string[];
  exclude?: RegExp;
}

function corpusSources(): CorpusSource[] {
  const stdlib = execFileSync('python3', ['-c', 'import sysconfig;print(sysconfig.get_paths()["stdlib"])'], {
    encoding: 'utf8',
  }).trim();
  return [
    {
      name: 'typescript-lib',
      dir: path.join(root, 'node_modules/typescript/lib'),
      extensions: ['.ts', '.js'],
    },
    { name: 'python-stdlib', dir: stdlib, extensions: ['.py'], exclude: /(^|\/)site-packages\// },
    { name: 'eslint', dir: path.join(root, 'node_modules/eslint/lib'), extensions: ['.js'] },
    {
      name: 'typescript-eslint',
      dir: path.join(root, 'node_modules/@typescript-eslint'),
      extensions: ['.js'],
    },
    { name: 'openai', dir: path.join(root, 'node_modules/openai'), extensions: ['.js'] },
    { name: 'zod', dir: path.join(root, 'node_modules/zod'), extensions: ['.js'] },
  ];
}

export function assembleCorpus(): { files: number; bytes: number } {
  const marker = path.join(corpusDir, '.corpus.json');
  if (fs.existsSync(marker))
    return JSON.parse(fs.readFileSync(marker, 'utf8')) as { files: number; bytes: number };
  fs.rmSync(corpusDir, { recursive: true, force: true });
  let files = 0;
  let bytes = 0;
  for (const source of corpusSources()) {
    for (const rel of fs.readdirSync(source.dir, { recursive: true }).map(String)) {
      if (!source.extensions.some((e) => rel.endsWith(e)) || source.exclude?.test(rel)) continue;
      if (rel.split(path.sep).includes('node_modules')) continue;
      const from = path.join(source.dir, rel);
      const stat = fs.lstatSync(from);
      if (!stat.isFile() || stat.size > maxCorpusFileBytes) continue;
      const to = path.join(corpusDir, source.name, rel);
      fs.mkdirSync(path.dirname(to), { recursive: true });
      fs.copyFileSync(from, to);
      files++;
      bytes += stat.size;
    }
  }
  fs.writeFileSync(marker, JSON.stringify({ files, bytes }));
  return { files, bytes };
}

/** Whether the native binding (optionalDependencies; node-gyp may have failed to build it) loads, or why not. */
export function nativeBindingProblem(): string | undefined {
  const load = loadNativeTreeSitter(locateGrammars());
  return load.ok ? undefined : load.reason;
}
