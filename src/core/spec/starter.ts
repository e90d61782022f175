// The starter .weave/specs.json `weave init` writes: one spec that runs the project's own test suite (or, with
// perFile, one spec per test file), with the test runner, its interpreter and the environment the tests need
// detected from the project's files (starter/).
import path from 'node:path';
import { isJsTestFile, nodeRunner } from './starter/detectNode';
import { canImport, pythonRunner, type PythonProbe } from './starter/detectPython';
import { findTestFiles, readText } from './starter/projectFiles';
import type { DetectedRunner } from './starter/types';

export type { DetectedRunner } from './starter/types';

const NODE_FALLBACK = 'a package.json without a test runner';

/**
 * Looks at package.json (a real test script or a test runner dependency), then the Python configuration and
 * tests, go.mod and Cargo.toml; a package.json with neither script nor runner only wins when nothing else does.
 */
export async function detectTestRunner(
  workspaceDir: string,
  probe: PythonProbe = canImport,
): Promise<DetectedRunner> {
  const packageJson = await readText(path.join(workspaceDir, 'package.json'));
  const fromNode = packageJson === undefined ? undefined : nodeRunner(packageJson);
  const withJsTests = async (d: DetectedRunner): Promise<DetectedRunner> => ({
    ...d,
    testFiles: await findTestFiles(workspaceDir, isJsTestFile),
  });
  if (fromNode && fromNode.reason !== NODE_FALLBACK) return withJsTests(fromNode);
  const fromPython = await pythonRunner(workspaceDir, probe);
  if (fromPython) return fromPython;
  if (fromNode) return withJsTests(fromNode);
  if ((await readText(path.join(workspaceDir, 'go.mod'))) !== undefined) {
    return { runner: 'go test', command: 'go test ./...', reason: 'go.mod' };
  }
  if ((await readText(path.join(workspaceDir, 'Cargo.toml'))) !== undefined) {
    return { runner: 'cargo test', command: 'cargo test', reason: 'Cargo.toml' };
  }
  return {
    runner: 'unknown',
    command: 'echo "set this spec\'s test command in .weave/specs.json" && exit 1',
    reason: 'no package.json, Python tests, go.mod or Cargo.toml with a known test runner',
  };
}

export interface StarterOptions {
  /** One spec per test file (when the runner can run a single file), instead of one for the whole suite. */
  perFile?: boolean;
}

interface StarterSpec {
  id: string;
  title: string;
  kind: 'reliability';
  statement: string;
  test: { command: string; files: string[]; env?: Record<string, string> };
  anchors: string[];
  dependsOn: string[];
  interactsWith: string[];
}

/** The starter file text: JSONC with comments that explain the format. */
export function starterSpecText(detected: DetectedRunner, options: StarterOptions = {}): string {
  const files = detected.testFiles ?? [];
  const env = detected.env && Object.keys(detected.env).length > 0 ? { env: detected.env } : {};
  const spec = (
    id: string,
    title: string,
    statement: string,
    command: string,
    own: string[],
  ): StarterSpec => ({
    id,
    title,
    kind: 'reliability',
    statement,
    test: { command, files: own, ...env },
    anchors: [],
    dependsOn: [],
    interactsWith: [],
  });
  const forFile = detected.commandForFile;
  const specs =
    options.perFile && forFile && files.length > 0
      ? uniqueIds(files).map(([id, file]) =>
          spec(id, `The tests in ${file} pass`, `The tests in ${file} shall keep passing.`, forFile(file), [
            file,
          ]),
        )
      : [
          spec(
            'test-suite',
            'The existing test suite passes',
            'The project’s own tests shall keep passing.',
            detected.command,
            files,
          ),
        ];
  const specsJson = specs.map((s) => JSON.stringify(s, null, 2).replace(/\n/g, '\n    ')).join(',\n    ');
  const envNote = detected.env
    ? `\n// Environment the tests need: ${Object.entries(detected.env)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ')}.`
    : '';
  const notes = (detected.notes ?? []).map((n) => `\n// ${n}`).join('');
  return `// Weave specs: each spec is one requirement with an executable test. Add one per constraint you care about
// (functional, interface, security, performance, reliability, compatibility) and say how they relate:
// "dependsOn" (must hold for this one to mean anything) and "interactsWith" (may conflict with it).
// Test runner detected: ${detected.runner} (${detected.reason}).${envNote}${notes}
{
  "version": 1,
  "goal": "",
  "defaults": { "cwd": ".", "timeoutSeconds": 120 },
  "specs": [
    ${specsJson}
  ]
}
`;
}

/** A spec id per file, from its path (lower-case, dashes), made unique. */
function uniqueIds(files: string[]): Array<[string, string]> {
  const used = new Set<string>();
  return files.map((file) => {
    const base =
      file
        .toLowerCase()
        .replace(/\.[^./]+$/, '')
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-+|-+$/g, '')
        .slice(0, 70) || 'tests';
    let id = /^[a-z0-9]/.test(base) ? base : `t-${base}`;
    for (let n = 2; used.has(id); n++) id = `${base}-${n}`;
    used.add(id);
    return [id, file];
  });
}
