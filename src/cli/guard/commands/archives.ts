// Archivers and downloaders: where tar/unzip/7z extract, and the files curl and wget write (-o/-O, named after
// the URL, into --output-dir/-P).
import path from 'node:path';
import type { ShellWord } from '../shellTypes';
import { clusterHas, clusterValues, literal, optionValues, type Handler, type Uses } from './shared';

/** curl's and wget's short options that take a value (so `-so F` and `-sSLo F` are read as getopt reads them). */
const CURL_VALUED = 'AbcCdDeEFHKmoPQrTuUwxXyYz';
const WGET_VALUED = 'aABDeIilOoPQRtTUwXY';

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
    const outputs = [
      ...clusterValues(args, CURL_VALUED, 'oDc'),
      ...optionValues(args, [
        '--output',
        '--dump-header',
        '--cookie-jar',
        '--trace',
        '--trace-ascii',
        '--stderr',
      ]),
    ];
    use.all(
      outputs.filter((w) => w.text !== '-'),
      'write',
      'curl -o',
    );
    const outputDir = optionValues(args, ['--output-dir'])[0];
    if (clusterHas(args, CURL_VALUED, 'J') || args.some((w) => w.text === '--remote-header-name'))
      // -J names the file as the server says: it lands in the output folder under a name the guard cannot know.
      use.unresolved(outputDir?.text ?? '.', 'curl -J (a file named by the server)');
    else if (
      clusterHas(args, CURL_VALUED, 'O') ||
      args.some((w) => w.text === '--remote-name' || w.text === '--remote-name-all')
    )
      remoteNames(args, outputDir, use, 'curl -O');
    for (const config of [...clusterValues(args, CURL_VALUED, 'K'), ...optionValues(args, ['--config'])])
      use.unresolved(
        config.text,
        'curl -K (options from a file, which may name an output); give them on the command line',
      );
  },
  wget: (args, use) => {
    const out = [...clusterValues(args, WGET_VALUED, 'O'), ...optionValues(args, ['--output-document'])];
    use.all(
      [
        ...clusterValues(args, WGET_VALUED, 'oa'),
        ...optionValues(args, ['--output-file', '--append-output']),
      ],
      'write',
      'wget -o',
    );
    for (const command of [...clusterValues(args, WGET_VALUED, 'e'), ...optionValues(args, ['--execute'])])
      if (!/^robots\s*=/.test(command.text))
        use.unresolved(
          command.text,
          'wget -e (a wgetrc command, which may name an output); give it as an option',
        );
    if (out.length > 0)
      use.all(
        out.filter((w) => w.text !== '-'),
        'write',
        'wget -O',
      );
    else
      remoteNames(
        args,
        [...clusterValues(args, WGET_VALUED, 'P'), ...optionValues(args, ['--directory-prefix'])][0],
        use,
        'wget',
      );
  },
};
