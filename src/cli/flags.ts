// Strict flag parsing shared by the verbs: an unknown flag, a stray argument or a wrong value is bad input (a
// UsageError: exit code 2 with a message that names the verb, never a stack trace). The one reader of the values
// too: whole numbers and durations (`wholeNumber`), comma lists (`commaList`) and space lists (`takeList`).
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { InputError } from '../core/errors';

/** The command line is wrong; the verb's runner prints "weave VERB: message" and exits 2. */
export class UsageError extends InputError {
  override name = 'UsageError';
}

/** A UsageError that ends by pointing to the verb's --help. */
export function withHelpHint(verb: string, message: string): UsageError {
  return new UsageError(`${message}\nRun 'weave ${verb} --help' for its options.`);
}

/** `--workspace DIR`, which nearly every verb takes. */
export const WORKSPACE_FLAG = { workspace: { type: 'string', default: '.' } } as const;

type Options = NonNullable<ParseArgsConfig['options']>;
type Values<O extends Options> = ReturnType<
  typeof parseArgs<{ args: string[]; options: O; strict: true; allowPositionals: false }>
>['values'];

/** The parsed flags; throws a UsageError that says why they are wrong. */
export function parseVerbFlags<O extends Options>(verb: string, args: string[], options: O): Values<O> {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw withHelpHint(verb, message);
  }
}

/** The parsed flags and the positional arguments (for verbs that take some, like `weave blame SPEC-ID`). */
export function parseVerbArgs<O extends Options>(
  verb: string,
  args: string[],
  options: O,
): { flags: Values<O>; positionals: string[] } {
  try {
    const parsed = parseArgs({ args, options, strict: true, allowPositionals: true });
    return { flags: parsed.values as Values<O>, positionals: parsed.positionals };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw withHelpHint(verb, message);
  }
}

/** A whole-number flag's bounds: at least `min` (default 1), at most `max` when there is one. */
export interface WholeNumberBounds {
  min?: number;
  max?: number;
}

/**
 * One flag's text as a whole number within its bounds (undefined when the flag is not given). The one grammar
 * for every verb's counts and durations (durations are whole seconds, in flags named `--…-seconds`): digits only,
 * so '1e3', '0x10', ' 5' and '2.0' are refused; the error names the flag, the bounds and the text given, and
 * points to the verb's --help.
 */
export function wholeNumber(
  verb: string,
  flag: string,
  text: string | undefined,
  bounds: WholeNumberBounds = {},
): number | undefined {
  if (text === undefined) return undefined;
  const { min = 1, max } = bounds;
  const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= min) || (max !== undefined && value > max)) {
    const range = max === undefined ? `≥ ${min}` : `from ${min} to ${max}`;
    throw withHelpHint(verb, `--${flag} must be a whole number ${range}, got '${text}'`);
  }
  return value;
}

/** The named flags that were given, each read by `wholeNumber` (≥ 1 unless `bounds` says otherwise). */
export function wholeNumberFlags<F extends string>(
  verb: string,
  flags: Partial<Record<F, string | boolean | string[] | boolean[] | undefined>>,
  names: readonly F[],
  bounds: Partial<Record<F, WholeNumberBounds>> = {},
): Partial<Record<F, number>> {
  const numbers: Partial<Record<F, number>> = {};
  for (const flag of names) {
    const raw = flags[flag];
    if (raw === undefined) continue;
    numbers[flag] = wholeNumber(verb, flag, String(raw), bounds[flag]);
  }
  return numbers;
}

/**
 * `--only a,b --only c`: a comma-separated flag (given once or repeated) as its trimmed, non-empty items;
 * undefined when the flag is not given.
 */
export function commaList(values: string | readonly string[] | undefined): string[] | undefined {
  if (values === undefined) return undefined;
  return (typeof values === 'string' ? [values] : values)
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
}

/** `--tasks a b c` and `--tasks=a`: every value up to the next flag (the flag may repeat). */
export function takeList(args: string[], flag: string): { list: string[]; rest: string[] } {
  const list: string[] = [];
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg.startsWith(`${flag}=`)) list.push(arg.slice(flag.length + 1));
    else if (arg === flag) {
      while (i + 1 < args.length && !(args[i + 1] as string).startsWith('-')) list.push(args[++i] as string);
    } else rest.push(arg);
  }
  return { list, rest };
}
