// Archivers and downloaders: where tar/unzip/7z extract, and the files curl and wget write (-o/-O, named after
// the URL, into --output-dir/-P).
import path from 'node:path';
import type { ShellWord } from '../shellTypes';
import { literal, optionValues, type Handler, type Uses } from './shared';

function tar(args: ShellWord[], use: Uses): void {
  const first = args[0]?.text ?? '';
  const modes =
    args
      .filter((w) => w.text.startsWith('-') && !w.text.startsWith('--'))
      .map((w) => w.text)
      .join('') + (first.startsWith('-') ? '' : first);
  const long = new Set(args.map((w) => w.text));
  const archive = optionValues(args, ['-f', '--file']).concat(
    // bundled -xzf FILE / xzf FILE: the word after the bundle
    /f/.test(first.replace(/^-/, '')) && !first.startsWith('--') && args[1] ? [args[1]] : [],
  );
  if (/x/.test(modes) || long.has('--extract') || long.has('--get')) {
    const into = optionValues(args, ['-C', '--directory']);
    use.all(into.length > 0 ? into : [literal('.')], 'write', 'tar -x');
  } else if (/[cru]/.test(modes) || long.has('--create') || long.has('--append') || long.has('--update'))
    use.all(archive, 'write', 'tar -c (the archive)');
}

/** curl -O / wget: the file is named after the URL's last segment, in the output folder. */
function remoteNames(args: ShellWord[], dir: ShellWord | undefined, use: Uses, how: string): void {
  for (const w of args) {
    if (!/^[a-z]+:\/\//i.test(w.text)) continue;
    if (!w.exact) {
      use.unresolved(w.text, `${how} names the file after a URL the guard cannot read`);
      continue;
    }
    const name = decodeURIComponent(new URL(w.text).pathname.split('/').pop() || 'index.html');
    use.path(literal(dir ? path.join(dir.text, name) : name), 'write', how);
  }
}

export const ARCHIVES: Record<string, Handler> = {
  tar: tar,
  bsdtar: tar,
  unzip: (args, use) => {
    if (args.some((w) => /^-[a-zA-Z]*[lptvZ]/.test(w.text))) return;
    const into = optionValues(args, ['-d']);
    use.all(into.length > 0 ? into : [literal('.')], 'write', 'unzip');
  },
  '7z': (args, use) => {
    if (args[0]?.text === 'x' || args[0]?.text === 'e') {
      const out = args.filter((w) => w.text.startsWith('-o')).map((w) => ({ ...w, text: w.text.slice(2) }));
      use.all(out.length > 0 ? out : [literal('.')], 'write', '7z x');
    }
  },
  curl: (args, use) => {
    use.all(
      optionValues(args, ['-o', '--output', '-D', '--dump-header', '-c', '--cookie-jar']),
      'write',
      'curl -o',
    );
    if (
      args.some(
        (w) =>
          w.text === '-O' ||
          w.text === '--remote-name' ||
          w.text === '--remote-name-all' ||
          /^-[a-zA-Z]*O$/.test(w.text),
      )
    )
      remoteNames(args, optionValues(args, ['--output-dir'])[0], use, 'curl -O');
  },
  wget: (args, use) => {
    const out = optionValues(args, ['-O', '--output-document']);
    use.all(optionValues(args, ['-o', '--output-file', '-a', '--append-output']), 'write', 'wget -o');
    if (out.length > 0)
      use.all(
        out.filter((w) => w.text !== '-'),
        'write',
        'wget -O',
      );
    else remoteNames(args, optionValues(args, ['-P', '--directory-prefix'])[0], use, 'wget');
  },
};
