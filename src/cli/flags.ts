// Strict flag parsing shared by the verbs: an unknown flag or a stray argument is bad input (exit code 2) with a
// message that names the verb, never a stack trace.
import { parseArgs, type ParseArgsConfig } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;
type Values<O extends Options> = ReturnType<
  typeof parseArgs<{ args: string[]; options: O; strict: true; allowPositionals: false }>
>['values'];

/** The parsed flags, or undefined after printing why they are wrong (the caller then exits with 2). */
export function parseVerbFlags<O extends Options>(
  verb: string,
  args: string[],
  options: O,
): Values<O> | undefined {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`weave ${verb}: ${message}\nRun 'weave ${verb} --help' for its options.\n`);
    return undefined;
  }
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
