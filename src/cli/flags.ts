// Strict flag parsing shared by the verbs: an unknown flag, a stray argument or a wrong value is bad input (a
// UsageError: exit code 2 with a message that names the verb, never a stack trace).
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

/** The named flags that were given, each a whole number ≥ 1; throws a UsageError naming the first that is not. */
export function wholeNumberFlags<F extends string>(
  flags: Partial<Record<F, string | boolean | string[] | boolean[]>>,
  names: readonly F[],
): Partial<Record<F, number>> {
  const numbers: Partial<Record<F, number>> = {};
  for (const flag of names) {
    const raw = flags[flag];
    if (raw === undefined) continue;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 1)
      throw new UsageError(`--${flag} must be a whole number ≥ 1 (got '${String(raw)}')`);
    numbers[flag] = value;
  }
  return numbers;
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
