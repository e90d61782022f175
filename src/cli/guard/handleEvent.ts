// `weave guard` as a hook: one agent event on stdin, one answer in the agent's protocol. A hook process is started
// for every tool call an agent makes, so this module loads only what a PreToolUse decision needs (hook events, the
// protected set from its caches, the session record); the session start, Stop's spec runner and the shell grammar
// load when an event needs them (bench/guard.bench.ts measures an event against a bare `node -e 0`).
import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import path from 'node:path';
import {
  allowAnswer,
  denyAnswer,
  findViolation,
  GuardInputError,
  hookKind,
  keepWorkingAnswer,
  parsePayload,
  payloadCwd,
  payloadSessionId,
  stopAlreadyContinued,
  violationMessage,
  type GuardAgent,
  type HookAnswer,
  type HookPayload,
} from './hookEvents';
import { findWorkspace, loadProtectedSet } from './protectedPaths';
import { readSessionRecord } from '../../core/sandbox/sessionFolder';

/** Reads the event on stdin, answers it on stdout/stderr, returns the exit code. */
export async function runHookEvent(agent: GuardAgent, workspaceFlag: string | undefined): Promise<number> {
  // The shell grammar runs once per process on a few hundred bytes, so V8's optimising tier for WebAssembly only
  // costs here: a parse of `cd test && echo '// x' > f` made it compile the bash grammar's lexer in the background,
  // and the process took 5.6–8 s and 574 MB to exit on a loaded 2-core box instead of 1 s and 63 MB. A tiering
  // budget no hook call can spend keeps it on the baseline tier (`--liftoff-only` has no effect once V8 runs).
  setFlagsFromString('--wasm-tiering-budget=1000000000');
  const answer = await handleEvent(agent, await readStdin(), workspaceFlag);
  if (answer.stdout) process.stdout.write(answer.stdout);
  if (answer.stderr) process.stderr.write(answer.stderr);
  return answer.exitCode;
}

export async function handleEvent(
  agent: GuardAgent,
  stdin: string,
  workspaceFlag: string | undefined,
): Promise<HookAnswer> {
  let payload;
  try {
    payload = parsePayload(stdin);
  } catch (error) {
    if (error instanceof GuardInputError) return { exitCode: 1, stderr: `weave guard: ${error.message}\n` };
    throw error;
  }
  const kind = hookKind(payload);
  const workspaceDir =
    workspaceFlag !== undefined ? path.resolve(workspaceFlag) : findWorkspace(payloadCwd(payload));
  if (workspaceDir === undefined || kind === 'other') return allowAnswer(agent, kind);
  try {
    if (kind === 'session-end') {
      const { endSession } = await import('./sessionBackstop.js');
      await endSession(workspaceDir);
      return allowAnswer(agent, kind);
    }
    await ensureSession(workspaceDir, agent, payload, kind === 'session-start');
  } catch (error) {
    // The record could not be read or written: tell the user; the guard itself still answers below.
    const message = error instanceof Error ? error.message : String(error);
    if (kind === 'session-start')
      return { exitCode: 1, stderr: `weave guard: could not record the session: ${message}\n` };
    process.stderr.write(`weave guard: could not record the session: ${message}\n`);
  }
  if (kind === 'session-start') return allowAnswer(agent, kind);
  if (kind === 'pre-tool') {
    const set = await loadProtectedSet(workspaceDir);
    const violation = await findViolation(payload, set);
    return violation ? denyAnswer(agent, violationMessage(violation, set)) : allowAnswer(agent, kind);
  }
  const { changedDuringSession, sessionState } = await import('./sessionBackstop.js');
  const state = await sessionState(workspaceDir);
  if (state !== undefined && state.changes.length > 0) {
    const reason = changedDuringSession(state);
    // Asked once per stop; after that the record stays for the git hooks and `weave check`, and the user is told.
    if (!stopAlreadyContinued(payload)) return keepWorkingAnswer(agent, reason);
    return { ...allowAnswer(agent, kind), stderr: `${reason}\n` };
  }
  if (stopAlreadyContinued(payload)) return allowAnswer(agent, kind);
  try {
    // Loaded on demand: only Stop needs the spec runner, and every PreToolUse call pays for what it loads.
    const { brokenAffectedSpecs } = await import('./stopCheck.js');
    const verdict = await brokenAffectedSpecs(workspaceDir);
    return verdict.broken.length > 0 ? keepWorkingAnswer(agent, verdict.reason) : allowAnswer(agent, kind);
  } catch (error) {
    // Could not check (no git, an invalid spec file): say so to the user, do not hold the agent.
    const message = error instanceof Error ? error.message : String(error);
    return { exitCode: 1, stderr: `weave guard: could not check the affected specs: ${message}\n` };
  }
}

/**
 * The session's record exists before the agent acts: at its start event, or at the first event of a session the
 * record does not know (agents without a start hook, a record left by another session). Reading the record is
 * one small file; the protected set is walked only when a record is made.
 */
async function ensureSession(
  workspaceDir: string,
  agent: GuardAgent,
  payload: HookPayload,
  starting: boolean,
): Promise<void> {
  const sessionId = payloadSessionId(payload);
  // Every agent names its session in each event; an event without one is not a session's (`--status`'s probe).
  if (sessionId === undefined) return;
  if (!starting) {
    const record = await readSessionRecord(workspaceDir);
    if (record !== undefined && record.sessionId === sessionId) return;
  }
  const { startSession } = await import('./sessionBackstop.js');
  await startSession(workspaceDir, { agent, sessionId });
}

/**
 * The hook event on stdin. Read synchronously: a hook's stdin is a pipe or a file the agent closes after writing
 * the event, and a stream reader (process.stdin) costs a hook process ~10 ms of CPU and ~30 ms of wall time. A
 * descriptor the synchronous read cannot take (non-blocking, EAGAIN) is read as a stream.
 */
async function readStdin(): Promise<string> {
  try {
    return readFileSync(0, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
  }
  const { text } = await import('node:stream/consumers');
  return text(process.stdin);
}
