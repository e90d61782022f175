// What a spec's command gets so that every process it starts records coverage: a `--require` hook in
// NODE_OPTIONS (inherited by every Node process below it: npx, vitest/jest workers, mocha, node --test
// children; see nodeTracer.ts) and, for Python, a sitecustomize.py on a prepended PYTHONPATH (see
// pythonTracer.ts). Each spec writes into its own directory, which is also returned as `writableDirs` for a
// sandboxed run to bind writable.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { COVERAGE_ROOT_VARIABLE, NODE_COVERAGE_HOOK_CJS, V8_COVERAGE_DIR_VARIABLE } from './nodeTracer';
import { SITECUSTOMIZE_PY } from './pythonTracer';
import type { CommandInstrumentation } from '../check';

export type { CommandInstrumentation };

export interface SpecCoverageDirs {
  v8: string;
  python: string;
}

/** The hooks of one run, written once under its raw directory. */
export interface CoverageHooks {
  /** Put first on PYTHONPATH: holds sitecustomize.py. */
  siteDir: string;
  /** Required into every Node.js process through NODE_OPTIONS. */
  nodeHook: string;
}

export async function writeCoverageHooks(runDir: string): Promise<CoverageHooks> {
  const siteDir = path.join(runDir, 'site');
  const nodeHook = path.join(runDir, 'weave-coverage-hook.cjs');
  await fs.mkdir(siteDir, { recursive: true });
  await Promise.all([
    fs.writeFile(path.join(siteDir, 'sitecustomize.py'), SITECUSTOMIZE_PY),
    fs.writeFile(nodeHook, NODE_COVERAGE_HOOK_CJS),
  ]);
  return { siteDir, nodeHook };
}

/**
 * The instrumentation of one spec's command. `specEnv` is the env the spec asks for, `inherited` the one the
 * command would otherwise inherit: a PYTHONPATH or NODE_OPTIONS there (the spec's first) is kept, after the
 * hook's directory and after the hook's `--require` respectively. A spec that sets NODE_V8_COVERAGE itself
 * (c8, its own coverage tool) keeps it, and Weave records no V8 data for it (see nodeTracer.ts).
 */
export async function instrumentSpec(
  workspaceDir: string,
  hooks: CoverageHooks,
  dirs: SpecCoverageDirs,
  specEnv: Readonly<Record<string, string>>,
  inherited: Readonly<NodeJS.ProcessEnv> = process.env,
): Promise<CommandInstrumentation> {
  await Promise.all([fs.mkdir(dirs.v8, { recursive: true }), fs.mkdir(dirs.python, { recursive: true })]);
  const userValue = (name: string): string => specEnv[name] ?? inherited[name] ?? '';
  const env: Record<string, string> = {
    PYTHONPATH: [hooks.siteDir, userValue('PYTHONPATH')].filter(Boolean).join(path.delimiter),
    WEAVE_COVERAGE_DIR: dirs.python,
    [COVERAGE_ROOT_VARIABLE]: workspaceDir,
  };
  if (specEnv.NODE_V8_COVERAGE === undefined) {
    // First, so that it sees the spec's own preloads compiled (their top level then counts as run).
    env.NODE_OPTIONS = [`--require ${JSON.stringify(hooks.nodeHook)}`, userValue('NODE_OPTIONS')]
      .filter(Boolean)
      .join(' ');
    env[V8_COVERAGE_DIR_VARIABLE] = dirs.v8;
  }
  return { env, writableDirs: [dirs.v8, dirs.python] };
}
