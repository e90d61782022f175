// The Test Explorer's Debug profile: how one spec's command runs under a debugger. Node: a `node` launch
// configuration (VS Code's JavaScript debugger) that starts the spec's own shell command and attaches to every
// Node process it starts (`node --test` runs each file in a child), each held at its start until the debugger
// is attached, as `--inspect-brk` would, so a breakpoint on a module's first lines is hit. Python: debugpy
// launches the command's module or script when both the debugpy module and a debug type for it are present;
// otherwise a message says what is missing (never a silent plain run). Plain data here; the extension starts it.
import path from 'node:path';
import type { Spec, SpecFile } from '../../shared/specSchema';
import { effectiveTestSettings } from './testSettings';

export type DebugRuntime = 'node' | 'python' | 'unknown';

/** What the editor has for Python debugging (the extension probes both). */
export interface PythonDebugSupport {
  /** The Python interpreter the command names can `import debugpy`. */
  debugpyModule: boolean;
  /** A debug type that runs debugpy ('debugpy' from the Python Debugger extension), when installed. */
  debugType: string | undefined;
}

export type DebugPlan =
  | { kind: 'launch'; runtime: 'node' | 'python'; configuration: Record<string, unknown> }
  | { kind: 'unsupported'; runtime: DebugRuntime; message: string };

const NODE_WORDS = /(^|[\s;&|(])(node|npx|npm|pnpm|yarn|vitest|jest|mocha|tsx|ts-node)(\s|$)/;
const PYTHON_WORDS = /(^|[\s;&|(])(python3?|pytest|py\.test)(\s|$)/;

/** Which runtime a test command runs (by the programs it names; Node first, as `npm test` may run Python last). */
export function debugRuntimeOf(command: string): DebugRuntime {
  if (NODE_WORDS.test(command)) return 'node';
  if (PYTHON_WORDS.test(command)) return 'python';
  return 'unknown';
}

/** The debug configuration for a spec's command, or why it cannot be debugged here. */
export function debugPlanOf(
  spec: Spec,
  defaults: SpecFile['defaults'],
  workspaceDir: string,
  python: PythonDebugSupport,
): DebugPlan {
  const settings = effectiveTestSettings(spec, defaults);
  const launch: LaunchBasics = {
    name: `Weave: debug ${spec.id}`,
    cwd: path.resolve(workspaceDir, settings.cwd),
    env: settings.env,
  };
  const command = spec.test.command;
  const runtime = debugRuntimeOf(command);
  if (runtime === 'node') return nodePlan(command, launch);
  if (runtime === 'python') return pythonPlan(spec.id, command, launch, python);
  return {
    kind: 'unsupported',
    runtime,
    message: `Weave: the spec ${spec.id} runs "${command}": Weave debugs Node (node, npm, npx, vitest, jest, mocha) and Python (python, pytest) commands; run it with the Run profile instead.`,
  };
}

/** What every launch configuration of a spec carries. */
interface LaunchBasics {
  name: string;
  cwd: string;
  env: Record<string, string>;
}

function nodePlan(command: string, launch: LaunchBasics): DebugPlan {
  return {
    kind: 'launch',
    runtime: 'node',
    configuration: {
      type: 'node',
      request: 'launch',
      ...launch,
      // The spec's own command line, unchanged: the debugger's bootloader reaches each Node process it starts.
      runtimeExecutable: '/bin/sh',
      runtimeArgs: ['-c', command],
      autoAttachChildProcesses: true,
      console: 'internalConsole',
      outputCapture: 'std',
      skipFiles: ['<node_internals>/**'],
    },
  };
}

/** debugpy's launch of the command's one module or script, when debugpy and the Python Debugger are here. */
function pythonPlan(
  specId: string,
  command: string,
  launch: LaunchBasics,
  python: PythonDebugSupport,
): DebugPlan {
  const runtime = 'python';
  const target = pythonTarget(command);
  if (!target)
    return {
      kind: 'unsupported',
      runtime,
      message: `Weave: the Python spec ${specId} runs "${command}", which is not one Python module or script (e.g. "python -m pytest …" or "pytest …"), so it cannot be started under debugpy; run it with the Run profile instead.`,
    };
  const missing = [
    python.debugpyModule ? undefined : 'the debugpy module (python3 -m pip install debugpy)',
    python.debugType ? undefined : 'the Python Debugger extension (ms-python.debugpy)',
  ].filter((m): m is string => m !== undefined);
  if (missing.length > 0 || !python.debugType)
    return {
      kind: 'unsupported',
      runtime,
      message: `Weave: debugging the Python spec ${specId} needs ${missing.join(' and ')}; not installed here. Run it with the Run profile instead.`,
    };
  return {
    kind: 'launch',
    runtime,
    configuration: {
      type: python.debugType,
      request: 'launch',
      ...launch,
      ...target,
      console: 'internalConsole',
      justMyCode: true,
    },
  };
}

/** `python -m mod args`, `pytest args` or `python script.py args` as debugpy's module/program and args. */
function pythonTarget(
  command: string,
): { module: string; args: string[] } | { program: string; args: string[] } | undefined {
  if (/[;&|<>`$()]/.test(command)) return undefined;
  const words = command.trim().split(/\s+/).map(unquote);
  const [first, ...rest] = words;
  if (first === 'pytest' || first === 'py.test') return { module: 'pytest', args: rest };
  if (first !== 'python' && first !== 'python3') return undefined;
  if (rest[0] === '-m' && rest[1]) return { module: rest[1], args: rest.slice(2) };
  if (rest[0] && !rest[0].startsWith('-')) return { program: rest[0], args: rest.slice(1) };
  return undefined;
}

function unquote(word: string): string {
  return /^(['"]).*\1$/.test(word) ? word.slice(1, -1) : word;
}
