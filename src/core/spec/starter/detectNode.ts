// The test command of a JavaScript / TypeScript project, from package.json. A real `scripts.test` runs through
// the package manager the project declares (`packageManager`, else its lockfile): how the project runs its tests
// (flags, pre-test steps). Two shapes do not pass as written and get the runner's own focused command instead
// (`npx vitest run`, `npx mocha …`, with the script's arguments for it): a composite script that also lints,
// builds or checks sizes (`eslint . && vitest run`: one spec for all of it fails on a lint warning, and times
// out on the slowest step), and a script that needs a package manager this machine does not have (`pnpm run
// build && …` under `npm test` exits 127). Without a script, a test runner among the dependencies is run
// through npx.
import type { DetectedRunner } from './types';

const NPM_PLACEHOLDER_SCRIPT = /no test specified/;
const JS_TEST_FILE = /(^|\/)(test|tests|__tests__)\/.*\.[cm]?[jt]sx?$|\.(test|spec)\.[cm]?[jt]sx?$/;

export function isJsTestFile(relativePath: string): boolean {
  return JS_TEST_FILE.test(relativePath) && !/(^|\/)(fixtures?|helpers?|support|setup)\//.test(relativePath);
}

interface Manifest {
  scripts?: Record<string, unknown>;
  dependencies?: object;
  devDependencies?: object;
  packageManager?: unknown;
}

/** What else `weave init` knows about a Node project: its lockfiles, and which commands this machine has. */
export interface NodeProjectFacts {
  /** Lockfile names present at the workspace root. */
  lockfiles: string[];
  /** Whether a command is on this machine's PATH. */
  hasCommand: (name: string) => boolean;
}

const NO_FACTS: NodeProjectFacts = { lockfiles: [], hasCommand: () => true };

const RUNNERS: Array<{ name: string; command: string; forFile: (file: string) => string }> = [
  { name: 'vitest', command: 'npx vitest run', forFile: (f) => `npx vitest run ${f}` },
  { name: 'jest', command: 'npx jest', forFile: (f) => `npx jest ${f}` },
  { name: 'mocha', command: 'npx mocha', forFile: (f) => `npx mocha ${f}` },
];

const LOCKFILES: Array<[string, string]> = [
  ['pnpm-lock.yaml', 'pnpm'],
  ['yarn.lock', 'yarn'],
  ['bun.lock', 'bun'],
  ['bun.lockb', 'bun'],
  ['package-lock.json', 'npm'],
  ['npm-shrinkwrap.json', 'npm'],
];

/** The package manager the project declares, and where it says so. */
export function declaredPackageManager(
  manifest: { packageManager?: unknown },
  lockfiles: readonly string[],
): { name: string; source: string } {
  if (typeof manifest.packageManager === 'string') {
    const name = /^([a-z]+)@?/.exec(manifest.packageManager.trim())?.[1];
    if (name !== undefined) return { name, source: `packageManager: ${manifest.packageManager}` };
  }
  const lock = LOCKFILES.find(([file]) => lockfiles.includes(file));
  return lock ? { name: lock[1], source: lock[0] } : { name: 'npm', source: 'no packageManager or lockfile' };
}

/** A script's steps: `a && b; c || d` → [a, b, c, d]. */
function stepsOf(script: string): string[] {
  return script
    .split(/&&|\|\||;/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/**
 * The step that runs the tests, as a command that works without the package manager: `vitest run --x` →
 * `npx vitest run --x`, `pnpm exec mocha t/` → `npx mocha t/`, `node --test` stays; undefined when no step does.
 */
function runnerStep(steps: readonly string[]): { runner: string; command: string; args: string } | undefined {
  for (const step of steps) {
    const words = step.split(/\s+/);
    let i = 0;
    while (i < words.length && /^[A-Z_][A-Z0-9_]*=/.test(words[i]!)) i++; // FOO=1 vitest
    const env = words.slice(0, i).join(' ');
    if (['npx', 'pnpx', 'bunx'].includes(words[i] ?? '')) i++;
    else if (['pnpm', 'yarn', 'bun'].includes(words[i] ?? '') && words[i + 1] === 'exec') i += 2;
    else if (['pnpm', 'yarn'].includes(words[i] ?? '') && RUNNERS.some((r) => r.name === words[i + 1])) i++;
    const rest = words.slice(i);
    const runner = RUNNERS.find((r) => r.name === rest[0]);
    const prefix = env === '' ? '' : `${env} `;
    if (runner) {
      // `vitest` alone watches in a terminal; `vitest run` runs once.
      const args = rest.slice(runner.name === 'vitest' && rest[1] === 'run' ? 2 : 1).join(' ');
      return { runner: runner.name, command: `${prefix}${runner.command}${args ? ` ${args}` : ''}`, args };
    }
    if (rest[0] === 'node' && rest.includes('--test'))
      return { runner: 'node:test', command: `${prefix}${rest.join(' ')}`, args: rest.slice(1).join(' ') };
  }
  return undefined;
}

export function nodeRunner(
  packageJsonText: string,
  facts: NodeProjectFacts = NO_FACTS,
): DetectedRunner | undefined {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(packageJsonText) as Manifest;
  } catch {
    return undefined;
  }
  const testScript = typeof manifest.scripts?.test === 'string' ? manifest.scripts.test.trim() : '';
  const realScript = testScript !== '' && !NPM_PLACEHOLDER_SCRIPT.test(testScript);
  const manager = declaredPackageManager(manifest, facts.lockfiles);
  const managerMissing = !facts.hasCommand(manager.name);
  const notes: string[] = [];
  if (managerMissing)
    notes.push(
      `package.json declares ${manager.name} (${manager.source}), which is not installed on this machine: ` +
        `install it (corepack enable ${manager.name}) to run the project's own scripts.`,
    );
  if (realScript) {
    const shown = testScript.length > 60 ? `${testScript.slice(0, 57)}…` : testScript;
    const steps = stepsOf(testScript);
    const step = runnerStep(steps);
    const callsManager = /\b(pnpm|yarn|bun)\b/.exec(testScript)?.[1];
    const cannotRun = managerMissing || (callsManager !== undefined && !facts.hasCommand(callsManager));
    const composite = steps.length > 1;
    if (step && (composite || cannotRun)) {
      const others = steps.filter((s) => runnerStep([s]) === undefined);
      if (composite)
        notes.push(
          `The test script also runs ${others.map((s) => `\`${s}\``).join(', ')}: the spec runs only the tests ` +
            `(${step.command}); add a spec of its own for a step that matters.`,
        );
      else
        notes.push(
          `The test script needs ${callsManager ?? manager.name}: the spec runs the tests with npx.`,
        );
      return {
        runner: step.runner,
        command: step.command,
        reason: `the test step of the package.json test script (${shown})`,
        notes,
        ...forFileOf(step),
      };
    }
    const run = managerMissing || manager.name === 'bun' ? 'npm test' : `${manager.name} test`;
    const what = step?.runner ?? 'npm test';
    return {
      runner: what,
      command: run,
      reason: `the package.json test script (${shown})`,
      ...(notes.length > 0 ? { notes } : {}),
      ...(step ? forFileOf(step) : {}),
    };
  }
  const deps = new Set([
    ...Object.keys(manifest.devDependencies ?? {}),
    ...Object.keys(manifest.dependencies ?? {}),
  ]);
  const dependency = RUNNERS.find((r) => deps.has(r.name));
  if (dependency) {
    return {
      runner: dependency.name,
      command: dependency.command,
      reason: `${dependency.name} in package.json dependencies`,
      commandForFile: dependency.forFile,
      ...(notes.length > 0 ? { notes } : {}),
    };
  }
  return {
    runner: 'node:test',
    command: 'node --test',
    reason: 'a package.json without a test runner',
    commandForFile: (f) => `node --test ${f}`,
  };
}

/** Running one test file (or folder) the way the script's step runs them all, its own options kept. */
function forFileOf(step: {
  runner: string;
  command: string;
  args: string;
}): Pick<DetectedRunner, 'commandForFile'> {
  // Options written --name=value stay (`--pool=forks`); file arguments, and options whose value is a word of its
  // own (which cannot be told from a file), go.
  const options = step.args
    .split(/\s+/)
    .filter((a) => /^--[\w-]+=\S+$/.test(a))
    .join(' ');
  const runner = RUNNERS.find((r) => r.name === step.runner);
  const base =
    runner !== undefined ? runner.command : step.runner === 'node:test' ? 'node --test' : undefined;
  if (base === undefined) return {};
  const withOptions = step.runner === 'node:test' ? base : `${base}${options ? ` ${options}` : ''}`;
  return { commandForFile: (f) => `${withOptions} ${f}` };
}
