// `npm run try`: Weave in a browser. Packages the built extension as a VSIX, installs it into a fresh
// code-server (VS Code 1.139 in the browser, from test/vscode/install-tools.sh) and opens examples/. Prints the
// URL and keeps running until Ctrl-C, which stops code-server and everything it started.
// Env: WEAVE_TRY_PORT (default 8080, or any free port when 8080 is taken), WEAVE_TRY_FOLDER (default examples/).
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import {
  freePort,
  installVsix,
  locateTools,
  makeScratch,
  packageVsix,
  REPO_ROOT,
  startCodeServer,
  type CodeServerOptions,
} from './codeServer';

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

async function main(): Promise<void> {
  const folder = path.resolve(process.env.WEAVE_TRY_FOLDER ?? path.join(REPO_ROOT, 'examples'));
  if (!fs.existsSync(path.join(folder, '.weave/specs.json'))) {
    console.error(`${folder} has no .weave/specs.json`);
    process.exit(2);
  }
  const wanted = Number(process.env.WEAVE_TRY_PORT ?? 8080);
  const port = (await portIsFree(wanted)) ? wanted : await freePort();
  const scratch = makeScratch('weave-try-');
  const opts: CodeServerOptions = { tools: locateTools(), scratch, port, trusted: true };
  const vsix = path.join(scratch, 'weave.vsix');
  console.log('packaging the extension…');
  packageVsix(vsix);
  installVsix(opts, vsix);
  const server = await startCodeServer(opts);
  let stopping = false;
  const stop = (): void => {
    stopping = true;
    void server.stop().finally(() => {
      fs.rmSync(scratch, { recursive: true, force: true });
      process.exit(0);
    });
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  console.log(
    `\nWeave is running in VS Code (code-server) on ${path.relative(process.cwd(), folder) || folder}:`,
  );
  console.log(`\n  ${server.url}/?folder=${encodeURIComponent(folder)}\n`);
  console.log('Open it in a browser, then F1 → "Weave: check constraints". Ctrl-C stops it.');
  server.process.once('exit', (code) => {
    if (stopping) return;
    console.error(`code-server exited (${code ?? 'signal'}); log: ${path.join(scratch, 'code-server.log')}`);
    process.exit(1);
  });
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
