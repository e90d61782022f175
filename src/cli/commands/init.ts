// `weave init`: writes a starter .weave/specs.json (test runner detected from the project) and .weave/.gitignore.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { runSpecs } from '../../core/check';
import {
  detectTestRunner,
  parseSpecText,
  SPEC_FILE_RELATIVE_PATH,
  starterNotes,
  starterSpecs,
  starterSpecText,
  type DetectedRunner,
} from '../../core/spec';
import { parseVerbFlags, UsageError, WORKSPACE_FLAG } from '../flags';
import type { Verb } from '../verb';

const HELP = `Usage: weave init [--workspace DIR] [--force] [--per-file] [--measure]

Writes a starter .weave/specs.json with one spec that runs the project's own test suite and lists its test
files, detecting how the project runs its tests: package.json ('npm test' for a real test script, else a
node:test / mocha / vitest / jest dependency), Python (pytest when pytest.ini, .pytest.ini, pyproject.toml,
setup.cfg, tox.ini, requirements or conftest.py name it, else unittest for unittest.TestCase tests; the
environment from tox.ini's [testenv] setenv, PYTHONPATH=src for a src layout; the first of .venv/bin/python,
venv/bin/python, python3, /usr/bin/python3, python that can import pytest), go.mod (go test) or Cargo.toml
(cargo test). The package manager is the one package.json declares (packageManager, else the lockfile); a
composite test script (lint && tests) runs only its test step; a suite of 4 or more test files is split by
folder or file; a test that measures wall-clock time is flagged timing-sensitive and gets a "performance" spec
of its own. Also writes .weave/.gitignore so run history (.weave/runs/) is never committed. Edit the file,
then run 'weave validate' and 'weave check'.

Options:
  --workspace DIR  the workspace folder (default: the current directory)
  --per-file       one spec per test file (when the runner can run a single file)
  --measure        run each starter spec once and set its timeoutSeconds from the time it took (3×, at least
                   120 s), so a slow suite does not time out on its first check
  --force          overwrite an existing .weave/specs.json
  -h, --help       show this help

Exit codes: 0 written, 1 a spec file already exists (nothing written) or writing failed, 2 bad flags or folder.`;

const GITIGNORE_LINE = 'runs/';

export const initVerb: Verb = {
  name: 'init',
  summary: 'Write a starter .weave/specs.json for this project',
  help: HELP,
  async run(args) {
    const flags = parseVerbFlags('init', args, {
      ...WORKSPACE_FLAG,
      force: { type: 'boolean', default: false },
      'per-file': { type: 'boolean', default: false },
      measure: { type: 'boolean', default: false },
    });
    const workspaceDir = path.resolve(flags.workspace);
    const stat = await fs.stat(workspaceDir).catch(() => undefined);
    if (stat === undefined || !stat.isDirectory()) throw new UsageError(`${workspaceDir} is not a folder`);

    const specFile = path.join(workspaceDir, SPEC_FILE_RELATIVE_PATH);
    const existing = await fs.lstat(specFile).catch(() => undefined);
    if (existing !== undefined && !flags.force) {
      process.stderr.write(
        `weave init: ${specFile} already exists; nothing written (use --force to replace it with a starter)\n`,
      );
      return 1;
    }
    if (existing?.isDirectory()) {
      process.stderr.write(`weave init: ${specFile} is a directory; remove it first\n`);
      return 1;
    }

    const detected = await detectTestRunner(workspaceDir);
    const perFile = flags['per-file'];
    let text = starterSpecText(detected, { perFile });
    const measured: string[] = [];
    if (flags.measure) {
      const timeouts = await measuredTimeouts(workspaceDir, detected, perFile, specFile, measured);
      text = starterSpecText(detected, { perFile, timeouts });
    }
    // The starter must itself be valid: a broken template would be a bug, caught here rather than by the user.
    const check = parseSpecText(text, specFile);
    if (!check.ok) throw new Error(`starter spec file is invalid: ${check.problems[0]?.message ?? ''}`);

    try {
      await fs.mkdir(path.dirname(specFile), { recursive: true });
      await fs.writeFile(specFile, text);
      await ensureGitignore(path.join(workspaceDir, '.weave', '.gitignore'));
    } catch (error) {
      process.stderr.write(`weave init: cannot write ${specFile}: ${(error as Error).message}\n`);
      return 1;
    }
    const specs = starterSpecs(detected, { perFile });
    process.stdout.write(
      `Wrote ${path.relative(process.cwd(), specFile) || specFile} with ${specs.length === 1 ? 'one starter spec' : `${specs.length} starter specs`} ` +
        `(test runner: ${detected.runner}: ${detected.reason}).\n` +
        starterNotes(detected, specs)
          .map((n) => `${n}\n`)
          .join('') +
        measured.map((line) => `${line}\n`).join('') +
        `Next: add your specs, then run 'weave validate' and 'weave check'.\n`,
    );
    return 0;
  },
};

/** Keeps any lines the user added; only makes sure run history is ignored. */
async function ensureGitignore(file: string): Promise<void> {
  const current = await fs.readFile(file, 'utf8').catch(() => undefined);
  if (current === undefined) {
    await fs.writeFile(file, `# Written by Weave: run history is local state.\n${GITIGNORE_LINE}\n`);
    return;
  }
  if (current.split(/\r?\n/).some((line) => line.trim() === GITIGNORE_LINE)) return;
  await fs.writeFile(
    file,
    `${current}${current.endsWith('\n') || current === '' ? '' : '\n'}${GITIGNORE_LINE}\n`,
  );
}

/** The longest a measuring run may take per spec (a suite that needs more is not one to start with). */
const MEASURE_LIMIT_SECONDS = 3600;

/**
 * Runs each starter spec once (no recording, no coverage) and gives it 3× the time it took, rounded up to 10 s and
 * at least the default 120 s: a first run on this machine is the best estimate there is of the suite's length.
 */
async function measuredTimeouts(
  workspaceDir: string,
  detected: DetectedRunner,
  perFile: boolean,
  specFile: string,
  lines: string[],
): Promise<Map<string, number>> {
  const parsed = parseSpecText(starterSpecText(detected, { perFile }), specFile);
  if (!parsed.ok) throw new Error(`starter spec file is invalid: ${parsed.problems[0]?.message ?? ''}`);
  const measuring = {
    ...parsed.specFile,
    specs: parsed.specFile.specs.map((s) => ({
      ...s,
      test: { ...s.test, timeoutSeconds: MEASURE_LIMIT_SECONDS },
    })),
  };
  const timeouts = new Map<string, number>();
  const results = await runSpecs({ workspaceDir, specFile: measuring, concurrency: 1 });
  for (const r of results) {
    const seconds = r.durationMs / 1000;
    const timeout = Math.max(120, Math.ceil((seconds * 3) / 10) * 10);
    timeouts.set(r.id, timeout);
    lines.push(
      `measured ${r.id}: ${seconds.toFixed(1)} s (${r.verdict}) → timeoutSeconds ${timeout}` +
        (r.verdict === 'pass' ? '' : `; it did not pass: ${r.reason ?? 'see weave check'}`),
    );
  }
  return timeouts;
}
