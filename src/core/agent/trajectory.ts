// The trajectory of one agent run: one JSON object per line under .weave/runs/agent/<id>/trajectory.jsonl,
// written as the run goes (a crash still leaves what happened), secrets redacted, long texts truncated.
// The review pass and the benchmark export read it back with readTrajectory.
import fs from 'node:fs';
import path from 'node:path';
import { redactValue } from './redact';

export const TRAJECTORY_TEXT_LIMIT = 8_000;

export type TrajectoryEvent =
  | {
      type: 'start';
      runId: string;
      target: string;
      model: string;
      baseURL: string;
      budgets: { maxSteps: number; maxTokens: number; timeoutSeconds: number };
    }
  | { type: 'prompt'; role: 'system' | 'user'; content: string }
  | {
      type: 'specs';
      phase: 'before' | 'after';
      results: Array<{ id: string; verdict: string; reason?: string }>;
      /** After a run that changed nothing, the before verdicts stand (the same code is not run twice). */
      unchangedTree?: boolean;
    }
  | {
      type: 'model';
      step: number;
      content: string | null;
      toolCalls: Array<{ id: string; name: string; arguments: string }>;
      usage: { promptTokens: number; completionTokens: number; totalTokens: number };
      durationMs: number;
      retriedAfterCut: boolean;
    }
  | {
      type: 'tool';
      step: number;
      callId: string;
      name: string;
      arguments: string;
      ok: boolean;
      /** Set when the tool refused: a path outside the workspace, or a protected file. */
      refused?: 'outside' | 'protected' | 'invalid';
      /** The workspace-relative path the call targeted, when it named one. */
      path?: string;
      result: string;
      durationMs: number;
    }
  | { type: 'error'; message: string }
  /** An external agent command's run (externalAgent.ts): the command and its output (head and tail). */
  | { type: 'command'; command: string; output: string }
  | {
      type: 'end';
      stopReason: string;
      steps: number;
      usage: { promptTokens: number; completionTokens: number; totalTokens: number };
      durationMs: number;
      changedFiles: string[];
    };

export type TimedEvent = TrajectoryEvent & { at: string; elapsedMs: number };

export class TrajectoryWriter {
  private readonly started = performance.now();

  constructor(
    readonly file: string,
    private readonly redact: (text: string) => string,
  ) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '');
  }

  write(event: TrajectoryEvent): void {
    const timed = {
      ...truncateStrings(event),
      at: new Date().toISOString(),
      elapsedMs: Math.round(performance.now() - this.started),
    };
    fs.appendFileSync(this.file, JSON.stringify(redactValue(timed, this.redact)) + '\n');
  }
}

export function truncateText(text: string, limit = TRAJECTORY_TEXT_LIMIT): string {
  if (text.length <= limit) return text;
  const half = Math.floor(limit / 2);
  return `${text.slice(0, half)}\n… [${text.length - limit} characters truncated] …\n${text.slice(-half)}`;
}

function truncateStrings<T>(value: T): T {
  if (typeof value === 'string') return truncateText(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => truncateStrings(v)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = truncateStrings(v);
    return out as T;
  }
  return value;
}

export function readTrajectory(file: string): TimedEvent[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as TimedEvent);
}
