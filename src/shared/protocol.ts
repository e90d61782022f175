// The one message protocol between the Weave side panel (webview, media/src/) and the extension
// (src/extension/panel/), as a typed map BY DIRECTION. Every message is checked with these zod schemas on
// the receiving side: the webview is a separate, less trusted context, and a malformed message (or one from
// an older bundle) must be logged and ignored, never acted upon. Imported by both bundles, so it must not
// import 'vscode' or anything that needs Node.
import { z } from 'zod';
import { specSchema } from './specSchema';
import { VERDICTS } from './verdicts';

const CHANGES = ['broken', 'fixed', 'still-failing', 'still-passing', 'new', 'other'] as const;

const specIdRef = z.string().min(1).max(200);
/** Longest symbol search the extension answers. */
export const MAX_SYMBOL_QUERY_LENGTH = 200;

/**
 * The search the anchor picker sends for the text typed: trimmed, and cut to what the extension admits (it
 * refuses a longer query, so no answer would come). The typed text itself is kept: it may still be added as typed.
 */
export function symbolSearchQuery(typed: string): string {
  return typed.trim().slice(0, MAX_SYMBOL_QUERY_LENGTH);
}
/** Correlates a request with its response; the webview picks them, the extension echoes them. */
const requestId = z.number().int().nonnegative();

export const specVerdictSchema = z.strictObject({
  verdict: z.enum(VERDICTS),
  /** Why, for error / blocked / skipped / flaky (e.g. "timed out after 60 s"). */
  reason: z.string().optional(),
  /** The first lines of the failure output, for the list's tooltip. */
  excerpt: z.string().optional(),
  durationMs: z.number().nonnegative().optional(),
});

export const specProblemSchema = z.strictObject({
  file: z.string(),
  line: z.number().int(),
  column: z.number().int(),
  path: z.string(),
  message: z.string(),
  severity: z.enum(['error', 'warning']),
});

export const potentialInteractionSchema = z.strictObject({
  a: specIdRef,
  b: specIdRef,
  /** What they share, e.g. "both anchored at src/cache.js#LruCache.set". */
  reason: z.string(),
});

/** Everything the panel shows. The extension pushes a whole new state whenever any part changes. */
export const panelStateSchema = z.strictObject({
  /** Workspace-relative path of the spec file, e.g. `.weave/specs.json`; null when there is none yet. */
  specFile: z.string().nullable(),
  goal: z.string(),
  /** The specs as last loaded successfully (kept while the file has problems, so the panel stays useful). */
  specs: z.array(specSchema),
  /** Problems of the spec file as it is now (syntax, schema, unknown references, unresolved anchors). */
  problems: z.array(specProblemSchema),
  /** Verdicts of the latest run, by spec id; a spec with no entry has not been checked yet. */
  verdicts: z.record(z.string(), specVerdictSchema),
  /** Changes of the latest run against its baseline, by spec id. */
  changes: z.record(z.string(), z.enum(CHANGES)),
  baseline: z.strictObject({ runId: z.string().nullable(), commit: z.string().nullable() }).nullable(),
  /** Static coupling found before anything runs (shared anchors, shared import cones). */
  potentialInteractions: z.array(potentialInteractionSchema),
  /** False in an untrusted workspace: Weave then shows and validates specs but runs nothing. */
  trusted: z.boolean(),
  /** Ids whose test runs right now (empty when idle). */
  running: z.array(specIdRef),
  /** The last `weave audit`, by spec id: mutation score (null: no mutant ran), vacuous, surviving mutants. */
  audit: z
    .record(
      z.string(),
      z.strictObject({
        score: z.number().min(0).max(1).nullable(),
        vacuous: z.boolean(),
        survived: z.number().int().nonnegative(),
      }),
    )
    .optional(),
  /** Ids of the check in progress that wait for a free slot (a check runs `weave.concurrency` tests at once). */
  queued: z.array(specIdRef).default([]),
  /** The run the verdicts come from: when it finished, and whether it was cancelled or restored from .weave/runs/. */
  lastRun: z
    .strictObject({ finishedAt: z.string(), origin: z.enum(['check', 'cancelled', 'restored']) })
    .nullable()
    .default(null),
  /** How far the check in progress is; null when idle. */
  progress: z
    .strictObject({ done: z.number().int().nonnegative(), total: z.number().int().nonnegative() })
    .nullable()
    .default(null),
});

export const symbolMatchSchema = z.strictObject({
  /** The anchor to store in specs.json: `file` or `file#Qualified.name`. */
  anchor: z.string().min(1),
  file: z.string(),
  qualifiedName: z.string().optional(),
  kind: z.string().optional(),
  /** 0-based line of the definition, to open it. */
  line: z.number().int().nonnegative().optional(),
});

export const checkTargetSchema = z.union([
  z.literal('all'),
  z.literal('affected'),
  z.strictObject({ ids: z.array(specIdRef).min(1) }),
]);

/** Extension → webview. */
export const toWebviewSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('state'), state: panelStateSchema }),
  z.strictObject({ type: z.literal('showNewSpecForm') }),
  z.strictObject({
    type: z.literal('symbols'),
    requestId,
    symbols: z.array(symbolMatchSchema),
    error: z.string().optional(),
  }),
  /** The answer to addSpec / updateSpec / removeSpec: `error` says why specs.json was left alone. */
  z.strictObject({ type: z.literal('editResult'), requestId, error: z.string().optional() }),
]);

/** Webview → extension. */
export const toExtensionSchema = z.discriminatedUnion('type', [
  /** The webview's script runs and wants the current state (also after the view was hidden and shown). */
  z.strictObject({ type: z.literal('ready') }),
  z.strictObject({ type: z.literal('addSpec'), requestId, spec: specSchema }),
  /** `id` is the spec's id before the edit (the spec may be renamed). */
  z.strictObject({ type: z.literal('updateSpec'), requestId, id: specIdRef, spec: specSchema }),
  z.strictObject({ type: z.literal('removeSpec'), requestId, id: specIdRef }),
  z.strictObject({ type: z.literal('check'), target: checkTargetSchema }),
  /** The panel's Cancel while a check runs: its running specs are killed, the rest "not run". */
  z.strictObject({ type: z.literal('cancelCheck') }),
  z.strictObject({
    type: z.literal('searchSymbols'),
    requestId,
    query: z.string().max(MAX_SYMBOL_QUERY_LENGTH),
  }),
  z.strictObject({ type: z.literal('openSpec'), id: specIdRef }),
  /** Open the spec graph in an editor tab (weave.showGraph). */
  z.strictObject({ type: z.literal('openGraph') }),
  /** Write a starter specs.json (weave.init: the test runner is detected). */
  z.strictObject({ type: z.literal('initSpecs') }),
  z.strictObject({ type: z.literal('openAnchor'), anchor: z.string().min(1).max(1000) }),
  /** The webview's own problems (e.g. a message it rejected), for the extension's LogOutputChannel. */
  z.strictObject({
    type: z.literal('log'),
    level: z.enum(['info', 'warn', 'error']),
    message: z.string().max(2000),
  }),
]);

/** What the extension passes to `update` (defaults of the spec schema may be left out). */
export type PanelState = z.input<typeof panelStateSchema>;
/** The state as the webview has it after validation (defaults filled in). */
export type ParsedPanelState = z.output<typeof panelStateSchema>;
export type SpecVerdict = z.output<typeof specVerdictSchema>;
export type SymbolMatch = z.output<typeof symbolMatchSchema>;
export type CheckTarget = z.output<typeof checkTargetSchema>;

export type ToWebviewMessage = z.input<typeof toWebviewSchema>;
export type ToExtensionMessage = z.input<typeof toExtensionSchema>;
/** The message map by direction: `ToWebview<'state'>` is the state message, and so on. */
export type ToWebview<K extends ToWebviewMessage['type']> = Extract<
  z.output<typeof toWebviewSchema>,
  { type: K }
>;
export type ToExtension<K extends ToExtensionMessage['type']> = Extract<
  z.output<typeof toExtensionSchema>,
  { type: K }
>;

export type ParsedMessage<T> = { ok: true; message: T } | { ok: false; error: string };

function parseWith<S extends z.ZodType>(schema: S, raw: unknown): ParsedMessage<z.output<S>> {
  const result = schema.safeParse(raw);
  if (result.success) return { ok: true, message: result.data };
  const type =
    typeof raw === 'object' && raw !== null && 'type' in raw
      ? JSON.stringify((raw as { type: unknown }).type)
      : '?';
  const issues = result.error.issues
    .slice(0, 5)
    .map((i) => `${i.path.length ? i.path.join('.') : '(message)'}: ${i.message}`)
    .join('; ');
  return { ok: false, error: `malformed message (type ${type}): ${issues}` };
}

/** Checks a message the extension received from the webview. */
export function parseToExtension(raw: unknown): ParsedMessage<z.output<typeof toExtensionSchema>> {
  return parseWith(toExtensionSchema, raw);
}

/** Checks a message the webview received from the extension. */
export function parseToWebview(raw: unknown): ParsedMessage<z.output<typeof toWebviewSchema>> {
  return parseWith(toWebviewSchema, raw);
}
