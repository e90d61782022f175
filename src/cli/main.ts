// `weave` command line: one table of verbs over the core. Each verb lives in ./commands/<verb>.ts and
// returns its exit code: 0 all good, 1 something failed / broke / errored, 2 bad input (specs file, flags).
import { preferNativeParser } from '../core/index';
import { handleClosedOutput, isOutputClosed } from './interrupt';
import { runVerb } from './verb';
import { verbs } from './verbs';

async function main(argv: string[]): Promise<number> {
  const [verb, ...rest] = argv;
  if (verb === undefined || verb === '--help' || verb === '-h' || verb === 'help') {
    const topic = verb === 'help' ? rest[0] : undefined;
    const target = topic === undefined ? undefined : verbs.find((v) => v.name === topic);
    if (target) {
      process.stdout.write(target.help + '\n');
      return 0;
    }
    process.stdout.write(usage());
    return verb === undefined ? 2 : 0;
  }
  if (verb === '--version' || verb === '-V') {
    process.stdout.write(`${WEAVE_VERSION}\n`);
    return 0;
  }
  const command = verbs.find((v) => v.name === verb);
  if (!command) {
    process.stderr.write(`weave: unknown command '${verb}'\n\n${usage()}`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(command.help + '\n');
    return 0;
  }
  return runVerb(command, rest);
}

function usage(): string {
  const width = Math.max(...verbs.map((v) => v.name.length));
  const lines = verbs.map((v) => `  ${v.name.padEnd(width)}  ${v.summary}`);
  return `Usage: weave <command> [options]\n\nCommands:\n${lines.join('\n')}\n\nRun 'weave <command> --help' for a command's options.\n`;
}

declare const WEAVE_VERSION: string;

handleClosedOutput();
// The CLI's parse workers use the native tree-sitter binding where it loads (src/core/index/nativeTreeSitter.ts).
preferNativeParser();
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (isOutputClosed()) {
      process.exitCode = 1;
      return;
    }
    // A bug, not bad input: say so plainly, with the stack only when asked.
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`weave: internal error: ${message}\n`);
    if (process.env.WEAVE_DEBUG && error instanceof Error) process.stderr.write(`${error.stack}\n`);
    process.exitCode = 1;
  },
);
