// The Harbor (Terminal-Bench framework) shape of a verified Weave task, written from the same task as the
// SWE-bench shape, so `harbor run -p <dir> -a <agent> -m <model> -e modal|daytona|e2b -n N` runs it unmodified:
//   task.toml                 [metadata], [verifier] / [agent] timeout_sec, [environment] build timeout and resources
//   instruction.md            what the agent is told: the goal, every spec, its kind and interactions, the rules
//   environment/Dockerfile    base image for the runtime; the base commit COPY'd into the WORKDIR; set-up as RUN steps
//   environment/repo/         the base commit's files (the Docker build context)
//   tests/test.sh             Harbor's verifier entry: lays the spec test files over the work tree, runs every spec
//                             test between nonce'd markers, scores them with weave_reward.py into /logs/verifier
//   tests/files/, specs.json  the spec test files (target state) and what weave_reward.py needs
//   solution/solve.sh         the oracle: applies solution/gold.patch
// Harbor's contract, as its task-format documentation states it (harborframework.com/docs/task-format, read
// 2026-12-01): task.toml fields `version`, [metadata] (free-form), [verifier] timeout_sec, [agent] timeout_sec,
// [environment] build_timeout_sec / cpus / memory_mb / storage_mb / allow_internet; tests/ is copied to /tests
// only after the agent finishes and `tests/test.sh` must write /logs/verifier/reward.txt (a number) or
// reward.json (numbers by name; Harbor reads reward.json first); solution/ is copied to /solution for the oracle
// agent; the agent works in the Dockerfile's WORKDIR. The paths are overridable by environment variables
// (WEAVE_TESTS_DIR, WEAVE_LOGS_DIR, WEAVE_SOLUTION_DIR, WEAVE_APP_DIR) so the same scripts run outside a
// container: harborContract.ts verifies every export that way.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { stringifyToml } from '../../toml';
import { git } from '../../git/git';
import { HARBOR_REWARD_SCRIPT } from './harborRewardScript';
import { makesSetupVenv, SETUP_VENV } from '../environmentSetup';
import type { Runtime } from '../projectFacts';
import { renderProblemStatement } from '../problemStatement';
import { nonceFromRandom, renderSpecRuns, shQuote } from '../run/specRunsScript';
import type { Task } from '../taskFormat';

export const HARBOR_FILES = {
  config: 'task.toml',
  instruction: 'instruction.md',
  dockerfile: 'environment/Dockerfile',
  repo: 'environment/repo',
  testScript: 'tests/test.sh',
  rewardScript: 'tests/weave_reward.py',
  testSpecs: 'tests/specs.json',
  testFiles: 'tests/files',
  solveScript: 'solution/solve.sh',
  goldPatch: 'solution/gold.patch',
} as const;

/** Harbor's default WORKDIR for task images (its own examples use /app). */
export const HARBOR_WORKDIR = '/app';
/** The Dockerfile line after which every RUN step is a project set-up step (the local contract runs those). */
export const REPO_COPY_LINE = `COPY repo/ ${HARBOR_WORKDIR}/`;

/**
 * Where the image keeps what test.sh checks the work tree's set-up against: outside the work tree, so a patch
 * cannot reach it (WEAVE_STATE_DIR stands in for it outside a container, as WEAVE_APP_DIR does for /app).
 */
const STATE_DIR = '"${WEAVE_STATE_DIR:-/var/lib/weave}"';
const VENV_MANIFEST_FILE = `${STATE_DIR}/venv.manifest`;
/**
 * sh printing the set-up venv's manifest from the work tree: every entry's type, mode, path and link target, and
 * every file's SHA-256. Byte-code caches aside: the spec runs never read them (PYTHONPYCACHEPREFIX).
 */
const VENV_MANIFEST =
  `{ find ${SETUP_VENV} -name __pycache__ -prune -o ! -type d -printf '%y %m %p %l\\n' | LC_ALL=C sort; ` +
  `find ${SETUP_VENV} -name __pycache__ -prune -o -type f -print0 | LC_ALL=C sort -z | xargs -0 -r sha256sum; }`;

export interface HarborTaskInput {
  task: Task;
  /** A git repository holding task.base_commit (the export's scratch repository). */
  baseRepo: string;
  /** The target work tree (to copy the spec test files from). */
  targetTree: string;
  /** Workspace-relative paths test.sh resets: spec test files and test-side changes. */
  protectedPaths: string[];
  runtime: Runtime;
  agentTimeoutSeconds: number;
  allowInternet: boolean;
}

export const DEFAULT_AGENT_TIMEOUT_SECONDS = 1800;
const VERIFIER_ALLOWANCE_SECONDS = 60;
const BUILD_TIMEOUT_SECONDS = 600;
const SETUP_BUILD_ALLOWANCE_SECONDS = 600;

export async function writeHarborTask(input: HarborTaskInput, dir: string): Promise<void> {
  const { task } = input;
  await fs.mkdir(path.join(dir, HARBOR_FILES.repo), { recursive: true });
  await fs.mkdir(path.join(dir, HARBOR_FILES.testFiles), { recursive: true });
  await fs.mkdir(path.join(dir, 'solution'), { recursive: true });
  // The base commit's files, checked out through a private index so the scratch repository is not disturbed.
  await git(
    ['--work-tree', path.join(dir, HARBOR_FILES.repo), 'checkout', task.base_commit, '--', '.'],
    input.baseRepo,
    {
      isolated: true,
      env: { GIT_INDEX_FILE: path.join(dir, '.weave-harbor-index') },
    },
  );
  await fs.rm(path.join(dir, '.weave-harbor-index'), { force: true });
  for (const file of input.protectedPaths) {
    const source = path.join(input.targetTree, file);
    const stat = await fs.lstat(source).catch(() => undefined);
    if (stat === undefined) continue; // deleted in the target: test.sh removes it
    await fs.cp(source, path.join(dir, HARBOR_FILES.testFiles, file), { recursive: true });
  }
  const write = (file: string, text: string, mode = 0o644): Promise<void> =>
    fs.writeFile(path.join(dir, file), text, { mode });
  await write(HARBOR_FILES.config, renderTaskToml(input));
  await write(HARBOR_FILES.instruction, renderInstruction(task, input.protectedPaths));
  await write(HARBOR_FILES.dockerfile, renderDockerfile(task, input.runtime));
  await write(HARBOR_FILES.testScript, renderTestScript(task, input.protectedPaths), 0o755);
  await write(HARBOR_FILES.rewardScript, HARBOR_REWARD_SCRIPT, 0o755);
  await write(
    HARBOR_FILES.testSpecs,
    `${JSON.stringify(
      {
        instance_id: task.instance_id,
        FAIL_TO_PASS: task.FAIL_TO_PASS,
        PASS_TO_PASS: task.PASS_TO_PASS,
        specs: task.specs.map((s) => ({
          id: s.id,
          kind: s.kind,
          dependsOn: s.dependsOn,
          timeoutSeconds: s.test.timeoutSeconds,
        })),
      },
      null,
      2,
    )}\n`,
  );
  await write(HARBOR_FILES.solveScript, renderSolveScript(task), 0o755);
  await write(HARBOR_FILES.goldPatch, task.patch);
}

export function renderTaskToml(input: HarborTaskInput): string {
  const { task } = input;
  const specSeconds = task.specs.reduce((sum, s) => sum + s.test.timeoutSeconds, 0);
  const config = {
    version: '1.0',
    metadata: {
      author_name: 'weave export',
      category: 'software-engineering',
      tags: ['weave', ...new Set(task.specs.map((s) => s.kind))],
      instance_id: task.instance_id,
      repo: task.repo,
      base_commit: task.base_commit,
      version: task.version,
      fail_to_pass: task.FAIL_TO_PASS,
      pass_to_pass: task.PASS_TO_PASS,
      weave_format: task.weave_format,
      weave_version: task.weave_version,
    },
    verifier: { timeout_sec: specSeconds + VERIFIER_ALLOWANCE_SECONDS },
    agent: { timeout_sec: input.agentTimeoutSeconds },
    environment: {
      build_timeout_sec:
        BUILD_TIMEOUT_SECONDS + (task.environment_setup.length > 0 ? SETUP_BUILD_ALLOWANCE_SECONDS : 0),
      cpus: 2,
      memory_mb: 4096,
      storage_mb: 10240,
      allow_internet: input.allowInternet,
    },
  };
  return [
    `# Harbor task generated by weave export from Weave task ${task.instance_id}.`,
    '# verifier.timeout_sec = the sum of the spec timeouts + 60 s. allow_internet: the spec tests need no network',
    '# (dependencies are installed at build time), but agents installed in the environment call their model API',
    '# from inside it; export with --harbor-offline for agents that run outside the environment.',
    stringifyToml(config),
    '',
  ].join('\n');
}

export function renderInstruction(task: Task, protectedPaths: string[]): string {
  const lines = [
    renderProblemStatement(task.goal, task.specs, protectedPaths).trimEnd(),
    '',
    '## Interactions',
    '',
  ];
  const pairs = [
    ...task.declared_interactions.map(([a, b]) => `- ${a} and ${b}: declared by the author as interacting.`),
    ...task.potential_interactions
      .filter((p) => !p.declared)
      .map((p) => `- ${p.specs[0]} and ${p.specs[1]}: may interact (${p.reason}).`),
  ];
  lines.push(...(pairs.length > 0 ? pairs : ['None known.']), '');
  lines.push(
    '## How each constraint is checked',
    '',
    `The repository is in ${HARBOR_WORKDIR}. Each constraint's test runs from there with:`,
    '',
    ...task.specs.map(
      (s) => `- ${s.id}: \`${s.test.command}\`${s.test.cwd === '.' ? '' : ` (in ${s.test.cwd})`}`,
    ),
    '',
  );
  return lines.join('\n');
}

export function renderDockerfile(task: Task, runtime: Runtime): string {
  const lines = [
    `# Weave task ${task.instance_id}: the environment at the task's base commit. The build context is this`,
    '# folder: repo/ holds the base commit; the set-up commands follow it as RUN steps.',
    `# Base image: ${runtime.image} (${runtime.source}).`,
    `FROM ${runtime.image}`,
  ];
  if (runtime.kind !== 'node') {
    // Debian's slim images lack git, which the oracle (git apply) and most agents use; an image that has it
    // already builds without a network.
    lines.push(
      'RUN command -v git >/dev/null 2>&1 || (apt-get update && apt-get install -y --no-install-recommends git && rm -rf /var/lib/apt/lists/*)',
    );
  }
  lines.push(
    `WORKDIR ${HARBOR_WORKDIR}`,
    REPO_COPY_LINE,
    // A repository at the base, so agents can diff their work and solve.sh can git apply.
    "RUN git init -q && git add -A && git -c user.name='Weave task' -c user.email=weave@localhost commit -q --no-verify -m 'task base'",
    ...task.environment_setup.map((command) => `RUN ${command}`),
    // What the set-up's venv holds once built, for test.sh to compare before it trusts the venv's interpreter.
    ...(makesSetupVenv(task.environment_setup)
      ? [`RUN mkdir -p ${STATE_DIR} && ${VENV_MANIFEST} > ${VENV_MANIFEST_FILE}`]
      : []),
    '',
  );
  return lines.join('\n');
}

export function renderTestScript(task: Task, protectedPaths: string[]): string {
  const lines = [
    '#!/bin/sh',
    `# Weave task ${task.instance_id}: Harbor's verifier. Harbor uploads tests/ to /tests after the agent has`,
    '# finished and runs this script; it writes /logs/verifier/reward.json (reward: 1 only when every FAIL_TO_PASS',
    '# and PASS_TO_PASS spec passes; one reward per spec) and reward.txt, with Weave’s verdict rules.',
    '# Outside a container set WEAVE_TESTS_DIR, WEAVE_LOGS_DIR, WEAVE_APP_DIR and WEAVE_STATE_DIR (defaults: /tests,',
    '# /logs, /app, /var/lib/weave).',
    'set -u',
    'TESTS_DIR="${WEAVE_TESTS_DIR:-/tests}"',
    'LOGS_DIR="${WEAVE_LOGS_DIR:-/logs}"',
    `APP_DIR="\${WEAVE_APP_DIR:-${HARBOR_WORKDIR}}"`,
    'VERIFIER_DIR="$LOGS_DIR/verifier"',
    'mkdir -p "$VERIFIER_DIR"',
    'weave_give_up() {',
    '  echo "weave: $1"',
    '  echo 0 > "$VERIFIER_DIR/reward.txt"',
    '  printf \'{"reward": 0}\\n\' > "$VERIFIER_DIR/reward.json"',
    '  exit 1',
    '}',
    'cd "$APP_DIR" || weave_give_up "no work tree at $APP_DIR"',
    // The scorer's interpreter, resolved once from the image's PATH before anything of the work tree runs, and
    // never one inside the work tree (the agent wrote that).
    'WEAVE_PYTHON=$(command -v python3) || weave_give_up "python3 is needed to score the spec runs"',
    'case "$WEAVE_PYTHON" in',
    '  "$APP_DIR"/*) weave_give_up "python3 resolves inside the work tree ($WEAVE_PYTHON): the verifier scores with the image’s own";;',
    '  /*) ;;',
    '  *) weave_give_up "python3 is not an absolute path on PATH ($WEAVE_PYTHON)";;',
    'esac',
    ...nonceFromRandom(),
    '',
    '# 1. The spec test files are the task’s, whatever the agent did to them.',
  ];
  if (protectedPaths.length > 0) lines.push(`rm -rf -- ${protectedPaths.map(shQuote).join(' ')}`);
  lines.push(
    'cp -R "$TESTS_DIR/files/." "$APP_DIR/" || weave_give_up "could not lay the spec test files over the work tree"',
    'weave_tampered=',
  );
  const setupVenv = makesSetupVenv(task.environment_setup);
  if (setupVenv) {
    lines.push(
      `# The set-up's venv (${SETUP_VENV}) goes first on the spec runs' PATH: only as the image built it.`,
      `if ! ${VENV_MANIFEST} 2>/dev/null | cmp -s - ${VENV_MANIFEST_FILE}; then`,
      `  weave_tampered="the set-up's virtual environment (${SETUP_VENV}) is not the one the environment built: its interpreter and packages would judge the specs"`,
      'fi',
    );
  }
  lines.push(
    '',
    '# 2. Every spec test between markers (in a subshell: nothing they set reaches the scoring), then the rewards.',
    'if [ -z "$weave_tampered" ]; then',
    '  (',
    ...renderSpecRuns(task.specs, '"$APP_DIR"', { setupVenv }).map((l) => `    ${l}`),
    '  ) > "$VERIFIER_DIR/specs.log" 2>&1',
    'else',
    '  echo "weave: $weave_tampered" > "$VERIFIER_DIR/specs.log"',
    'fi',
    'cat "$VERIFIER_DIR/specs.log"',
    '"$WEAVE_PYTHON" "$TESTS_DIR/weave_reward.py" "$VERIFIER_DIR/specs.log" "$TESTS_DIR/specs.json" "$VERIFIER_DIR" "$weave_tampered" <<WEAVE_NONCE_EOF',
    '$weave_nonce',
    'WEAVE_NONCE_EOF',
    '',
  );
  return lines.join('\n');
}

export function renderSolveScript(task: Task): string {
  return [
    '#!/bin/sh',
    `# Weave task ${task.instance_id}: the oracle. Applies the gold patch (solution/gold.patch) to the work tree.`,
    '# Outside a container set WEAVE_SOLUTION_DIR and WEAVE_APP_DIR (defaults: /solution, /app).',
    'set -eu',
    'SOLUTION_DIR="${WEAVE_SOLUTION_DIR:-/solution}"',
    `cd "\${WEAVE_APP_DIR:-${HARBOR_WORKDIR}}"`,
    'git apply --whitespace=nowarn "$SOLUTION_DIR/gold.patch"',
    '',
  ].join('\n');
}
