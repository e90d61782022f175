// The part of eval.sh (SWE-bench shape) and tests/test.sh (Harbor shape) that runs every spec test between
// markers, and the marker contract itself. Every marker carries a per-run nonce, so code under test cannot
// forge one: a line that looks like a marker without the run's nonce is output like any other (see evalLog.ts).
//
// Where the nonce comes from: eval.sh is started with WEAVE_MARKER_NONCE in its environment (the runner makes a
// fresh one per run, never written into the task folder); eval.sh re-executes itself at once without the
// variable and with the value on file descriptor 3, so no process of the run has it in its environment (not
// even in /proc/<pid>/environ of the script itself). test.sh makes its own from /dev/urandom and keeps it in an
// unexported shell variable. Either way the spec tests, the patch and the set-up commands never see it.
import { SETUP_VENV } from '../environmentSetup';
import type { TaskSpec } from '../taskFormat';

export const NONCE_VARIABLE = 'WEAVE_MARKER_NONCE';

/** Single-quotes a string for sh. */
export function shQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A marker line as the parser expects it: `>>>>> WEAVE[<nonce>] <rest>` (or `<<<<< …` for an end marker). */
export function markerPattern(nonce: string, rest: string, opening = true): RegExp {
  return new RegExp(`^${opening ? '>>>>>' : '<<<<<'} WEAVE\\[${escapeRegExp(nonce)}\\] ${rest}$`, 'gm');
}

/** sh that prints a marker line (`printf`, so nothing in the text is expanded but the nonce). */
export function printMarker(rest: string, opening = true): string {
  return `printf '%s WEAVE[%s] %s\\n' '${opening ? '>>>>>' : '<<<<<'}' "$weave_nonce" ${shQuote(rest)}`;
}

/** eval.sh's prelude: take the nonce out of the environment (see the header comment). */
export function nonceFromEnvironment(): string[] {
  return [
    `if [ -n "\${${NONCE_VARIABLE}:-}" ]; then`,
    `  weave_n=$${NONCE_VARIABLE}`,
    `  unset ${NONCE_VARIABLE}`,
    '  exec env WEAVE_NONCE_ON_FD3=1 sh "$0" "$@" 3<<WEAVE_NONCE_EOF',
    '$weave_n',
    'WEAVE_NONCE_EOF',
    'fi',
    'weave_nonce=',
    'if [ "${WEAVE_NONCE_ON_FD3:-}" = 1 ]; then',
    '  unset WEAVE_NONCE_ON_FD3',
    '  read -r weave_nonce <&3',
    '  exec 3<&-',
    'fi',
  ];
}

/** test.sh's prelude: a fresh nonce, in a shell variable only (never exported). */
export function nonceFromRandom(): string[] {
  return ["weave_nonce=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \\n')"];
}

/** What a task fixes at export about the spec runs' environment. */
export interface SpecRunsEnvironment {
  /** The task's set-up makes SETUP_VENV (makesSetupVenv): its bin/ goes first on the spec runs' PATH. */
  setupVenv: boolean;
}

/**
 * Variables that would steer an interpreter or a runner from outside the spec's own command (a module root, a
 * preload, a startup file, another venv): a spec run never inherits them from whoever started the verifier; what
 * a spec needs of them it names in its own `test.env`, which the task fixed at export.
 */
export const SPEC_RUN_UNSET_VARIABLES = [
  'PYTHONPATH',
  'PYTHONHOME',
  'PYTHONSTARTUP',
  'PYTHONUSERBASE',
  'PYTHONINSPECT',
  'PYTHONEXECUTABLE',
  'VIRTUAL_ENV',
  'NODE_OPTIONS',
  'NODE_PATH',
  'BASH_ENV',
  'ENV',
] as const;

/**
 * Runs every spec test from `rootExpression` (a sh expression naming the work tree), each between markers:
 *   >>>>> WEAVE[n] SPEC START <id>   …output…   <<<<< WEAVE[n] SPEC END <id> exit=<code> timed_out=<0|1> seconds=<s>
 * and sets WEAVE_FAILED=1 when one exits non-zero. The runs' PATH is the verifier's own (never a folder of the
 * work tree, which the judged code wrote), with the set-up's venv first only when the task's set-up made it.
 */
export function renderSpecRuns(
  specs: readonly TaskSpec[],
  rootExpression: string,
  environment: SpecRunsEnvironment,
): string[] {
  const lines = [
    'weave_with_timeout() {',
    '  seconds=$1',
    '  shift',
    '  if command -v timeout >/dev/null 2>&1; then timeout -k 5 "$seconds" "$@"; else "$@"; fi',
    '}',
    `unset ${SPEC_RUN_UNSET_VARIABLES.join(' ')}`,
    ...(environment.setupVenv
      ? [
          // The venv the set-up made (eval.sh removes any other before its set-up; test.sh checks it against the
          // image's manifest first).
          `VIRTUAL_ENV=${rootExpression}/${SETUP_VENV}`,
          'PATH="$VIRTUAL_ENV/bin:$PATH"',
          'export VIRTUAL_ENV PATH',
        ]
      : []),
    // A private bytecode cache per run: no __pycache__ of the work tree is read, none is written into it. mktemp
    // honours TMPDIR; without it there is no private cache, so the specs do not run (an empty prefix would
    // put the caches back in the work tree). No temp path is written here: exported files name none.
    "PYTHONPYCACHEPREFIX=$(mktemp -d) || { echo 'weave: mktemp -d failed: no private bytecode cache' >&2; exit 1; }",
    'export PYTHONPYCACHEPREFIX',
    'WEAVE_FAILED=0',
  ];
  for (const spec of specs) {
    const envArgs = Object.entries(spec.test.env).map(([k, v]) => shQuote(`${k}=${v}`));
    const run = [
      'weave_with_timeout',
      String(spec.test.timeoutSeconds),
      'env',
      ...envArgs,
      'sh',
      '-c',
      shQuote(spec.test.command),
    ].join(' ');
    lines.push(
      printMarker(`SPEC START ${spec.id}`),
      'weave_started=$(date +%s)',
      `( cd ${rootExpression}/${shQuote(spec.test.cwd)} && ${run} ) </dev/null 2>&1`,
      'weave_code=$?',
      'weave_timed_out=0',
      '[ "$weave_code" -eq 124 ] && weave_timed_out=1',
      '[ "$weave_code" -ne 0 ] && WEAVE_FAILED=1',
      `printf '\\n<<<<< WEAVE[%s] SPEC END %s exit=%s timed_out=%s seconds=%s\\n' "$weave_nonce" ${shQuote(spec.id)} "$weave_code" "$weave_timed_out" "$(( $(date +%s) - weave_started ))"`,
    );
  }
  return lines;
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
