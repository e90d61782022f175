// `weave` command line: one table of verbs over the core. Each verb lives in ./commands/<verb>.ts and
// returns its exit code: 0 all good, 1 something failed / broke / errored, 2 bad input (specs file, flags).
import { handleClosedOutput, isOutputClosed } from './interrupt';
import { runVerb } from './verb';
import { verbs } from './verbs';

async function main(argv: string[]): Promise<number> {
  const [verb, ...rest] = argv;
  if (verb === undefined || verb === '--help' || verb === '-h' || verb === 'help') {
    const topic = verb === 'help' ? rest[0] : undefined;
    const target = topic === undefined ? undefined : verbs.find((v) => v.name === topic);
    if (target) {
      process.stdout.write((await target.load()).help + '\n');
      return 0;
    }
    process.stdout.write(await usage());
    return verb === undefined ? 2 : 0;
  }
  if (verb === '--version' || verb === '-V') {
    process.stdout.write(`${WEAVE_VERSION}\n`);
    return 0;
  }
  const entry = verbs.find((v) => v.name === verb);
  if (!entry) {
    process.stderr.write(`weave: unknown command '${verb}'\n\n${await usage()}`);
    return 2;
  }
  const command = await entry.load();
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(command.help + '\n');
    return 0;
  }
  // The CLI's parse workers use the native tree-sitter binding where it loads (src/core/index/nativeTreeSitter.ts).
  const { preferNativeParser } = await import('../core/index/index.js');
  preferNativeParser();
  return runVerb(command, rest);
}

async function usage(): Promise<string> {
  const loaded = await Promise.all(verbs.map((v) => v.load()));
  const width = Math.max(...loaded.map((v) => v.name.length));
  const lines = loaded.map((v) => `  ${v.name.padEnd(width)}  ${v.summary}`);
  return `Usage: weave <command> [options]\n\nCommands:\n${lines.join('\n')}\n\nRun 'weave <command> --help' for a command's options.\n`;
}

declare const WEAVE_VERSION: string;

handleClosedOutput();
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
