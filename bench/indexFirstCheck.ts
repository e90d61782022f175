// What the first `weave check` and the first `weave affected` index in a large workspace with a small spec set
// (index.bench.ts measures it in a child process and sets it beside the native binding's full parse of the same
// corpus, same run). Five specs over the corpus, each with a test file and a file anchor:
//   - first check: the anchored files (anchorCheck.ts) and then the files the tests executed, through the
//     indexer's `only` pass as the coverage session maps them. What a test executes is at most its import cone,
//     so the cones' files stand for the covered files (an upper bound; computed before the clock starts);
//   - first affected (`--files`, no coverage recorded, so every spec's cone decides): the changed and anchored
//     files, then what the five cones reach (lazyCones.ts).
import fs from 'node:fs';
import path from 'node:path';
import { checkAnchors } from '../src/core/anchors/anchorCheck';
import { createIndexer } from '../src/core/index';
import { openGrowingIndex } from '../src/core/index/partialIndex';
import { selectAffected } from '../src/core/selection/selectAffected';
import { lazySpecCones } from '../src/core/selection/lazyCones';
import { loadSpecFile } from '../src/core/spec/load';

/** [test file, anchored file] per spec: modules of the corpus that import others, in JavaScript and Python. */
const SPECS: Array<[string, string]> = [
  ['eslint/linter/linter.js', 'eslint/linter/source-code-fixer.js'],
  ['eslint/rules/no-unused-vars.js', 'eslint/shared/string-utils.js'],
  ['python-stdlib/json/__init__.py', 'python-stdlib/json/decoder.py'],
  ['python-stdlib/email/parser.py', 'python-stdlib/email/feedparser.py'],
  ['python-stdlib/unittest/main.py', 'python-stdlib/unittest/loader.py'],
];

export interface FirstCheckResult {
  specs: number;
  /** First check: files parsed, their MB, wall and CPU ms (anchors + covered files). */
  checkFiles: number;
  checkBytes: number;
  checkMs: number;
  checkCpuMs: number;
  /** First affected: files parsed, their MB, wall and CPU ms. */
  affectedFiles: number;
  affectedBytes: number;
  affectedMs: number;
  affectedCpuMs: number;
}

export async function measureFirstCheck(corpusDir: string, cacheDir: string): Promise<FirstCheckResult> {
  for (const file of SPECS.flat())
    if (!fs.existsSync(path.join(corpusDir, file))) throw new Error(`corpus has no ${file}`);
  const specs = SPECS.map(([test, anchor], i) => ({
    id: `spec-${i + 1}`,
    title: `spec ${i + 1}`,
    kind: 'functional',
    statement: `the module ${test} works`,
    test: { command: `run-tests ${test}`, files: [test] },
    anchors: [anchor],
  }));
  const specPath = path.join(corpusDir, '.weave/specs.json');
  fs.mkdirSync(path.dirname(specPath), { recursive: true });
  fs.writeFileSync(specPath, JSON.stringify({ version: 1, specs }, null, 2));
  try {
    const parsed = await loadSpecFile(corpusDir);
    if (!parsed.ok) throw new Error(`bench spec file: ${JSON.stringify(parsed.problems)}`);
    const specFile = parsed.specFile;
    // The covered files' stand-in, outside the clock.
    const growing = await openGrowingIndex(corpusDir);
    const cones = await lazySpecCones(specFile, growing, new Set(specFile.specs.map((s) => s.id)), {
      workspaceDir: corpusDir,
    });
    growing.dispose();
    const covered = [...new Set([...cones.values()].flatMap((c) => [...c.parent.keys()]))];

    fs.rmSync(cacheDir, { recursive: true, force: true });
    let clock = startClock();
    const anchors = await checkAnchors(corpusDir, specFile);
    if (anchors.problems.length > 0) throw new Error(`bench anchors: ${JSON.stringify(anchors.problems)}`);
    const indexer = createIndexer({ workspaceDir: corpusDir, cacheDir, workers: 2 });
    const coveredIndex = await indexer.indexWorkspace({ only: covered });
    indexer.dispose();
    const check = clock();

    clock = startClock();
    const affected = await selectAffected({
      workspaceDir: corpusDir,
      files: [SPECS[0]![1]],
      useCoverage: false,
    });
    const affectedTime = clock();
    if (affected.all || affected.affected.length === 0)
      throw new Error(`bench selection: ${JSON.stringify(affected.allReasons)}`);
    return {
      specs: specs.length,
      checkFiles: anchors.parsedFiles + coveredIndex.stats.files,
      checkBytes: coveredIndex.stats.bytes,
      checkMs: check.ms,
      checkCpuMs: check.cpuMs,
      affectedFiles: affected.parsed.files,
      affectedBytes: affected.parsed.bytes,
      affectedMs: affectedTime.ms,
      affectedCpuMs: affectedTime.cpuMs,
    };
  } finally {
    fs.rmSync(path.dirname(specPath), { recursive: true, force: true });
  }
}

function startClock(): () => { ms: number; cpuMs: number } {
  const started = performance.now();
  const cpu = process.cpuUsage();
  return () => {
    const used = process.cpuUsage(cpu);
    return { ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000 };
  };
}
