// What a spec's command gets so that every process it starts records coverage: NODE_V8_COVERAGE (inherited by
// every Node process below it: npx, vitest/jest workers, mocha, node --test children) and, for Python, a
// sitecustomize.py on a prepended PYTHONPATH (see pythonTracer.ts). Each spec writes into its own directory,
// which is also returned as `writableDirs` for a sandboxed run to bind writable.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { SITECUSTOMIZE_PY } from './pythonTracer';

export interface CommandInstrumentation {
  /** Added to the command's environment (over the spec's own env). */
  env: Record<string, string>;
  /** Directories the command must be able to write even when sandboxed. */
  writableDirs: string[];
}

export interface SpecCoverageDirs {
  v8: string;
  python: string;
}

/** Writes the Python hook once per run, under `runDir`. */
export async function writePythonHook(runDir: string): Promise<string> {
  const siteDir = path.join(runDir, 'site');
  await fs.mkdir(siteDir, { recursive: true });
  await fs.writeFile(path.join(siteDir, 'sitecustomize.py'), SITECUSTOMIZE_PY);
  return siteDir;
}

/**
 * The instrumentation of one spec's command. `specEnv` is the env the spec asks for: a PYTHONPATH there (or,
 * failing that, in Weave's own environment) is kept after the hook's directory. A spec that sets
 * NODE_V8_COVERAGE itself (c8, its own coverage tool) keeps it, and Weave records no V8 data for it.
 */
export async function instrumentSpec(
  workspaceDir: string,
  siteDir: string,
  dirs: SpecCoverageDirs,
  specEnv: Readonly<Record<string, string>>,
  inherited: NodeJS.ProcessEnv = process.env,
): Promise<CommandInstrumentation> {
  await Promise.all([fs.mkdir(dirs.v8, { recursive: true }), fs.mkdir(dirs.python, { recursive: true })]);
  const userPythonPath = specEnv.PYTHONPATH ?? inherited.PYTHONPATH;
  const env: Record<string, string> = {
    PYTHONPATH:
      userPythonPath === undefined || userPythonPath === ''
        ? siteDir
        : `${siteDir}${path.delimiter}${userPythonPath}`,
    WEAVE_COVERAGE_DIR: dirs.python,
    WEAVE_COVERAGE_ROOT: workspaceDir,
  };
  if (specEnv.NODE_V8_COVERAGE === undefined) env.NODE_V8_COVERAGE = dirs.v8;
  return { env, writableDirs: [dirs.v8, dirs.python] };
}
