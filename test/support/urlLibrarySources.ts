// The TypeScript URL library the coverage-mapping fixtures share (vitest4Library.ts, tsRunnerLibraries.ts): shaped
// like the real one of issue #40 (src/*.ts modules re-exported by src/index.ts, a class with a constructor and a
// getter), written with erasable syntax only so that Node's own type stripping runs it too.

/** The library's modules; `ext` ends relative imports ('' for bundler resolution, '.ts' for Node's own). */
export function urlLibraryModules(ext: string): Record<string, string> {
  return {
    'src/percent.ts': `// Percent-encoding of URL components.
const SAFE = /[A-Za-z0-9\\-._~]/;

export function percentEncode(text: string): string {
  let out = '';
  for (const ch of text) {
    if (SAFE.test(ch)) out += ch;
    else out += encodeURIComponent(ch);
  }
  return out;
}

export function percentDecode(text: string): string {
  const spaced = text.replace(/\\+/g, ' ');
  return decodeURIComponent(spaced);
}
`,
    'src/host.ts': `// Host names and IPv4 addresses.
export function isIPv4(host: string): boolean {
  const parts = host.split('.');
  if (parts.length !== 4) return false;
  return parts.every((p) => /^\\d+$/.test(p) && Number(p) <= 255);
}

export function normalizeHost(host: string): string {
  const lower = host.toLowerCase();
  return lower.endsWith('.') ? lower.slice(0, -1) : lower;
}

export function splitHostPort(authority: string): { host: string; port: number | null } {
  const at = authority.lastIndexOf(':');
  if (at < 0) return { host: normalizeHost(authority), port: null };
  const port = Number(authority.slice(at + 1));
  return { host: normalizeHost(authority.slice(0, at)), port: Number.isInteger(port) ? port : null };
}
`,
    'src/path.ts': `// Path segments: dot segments resolved as a browser does.
export function normalizePath(pathname: string): string {
  const out: string[] = [];
  for (const segment of pathname.split('/')) {
    if (segment === '..') out.pop();
    else if (segment !== '.' && segment !== '') out.push(segment);
  }
  const tail = pathname.endsWith('/') && out.length > 0 ? '/' : '';
  return '/' + out.join('/') + tail;
}

export function joinPath(base: string, relative: string): string {
  if (relative.startsWith('/')) return normalizePath(relative);
  const dir = base.slice(0, base.lastIndexOf('/') + 1);
  return normalizePath(dir + relative);
}
`,
    'src/query.ts': `// Query strings.
import { percentDecode, percentEncode } from './percent${ext}';

export function parseQuery(search: string): Array<[string, string]> {
  const text = search.startsWith('?') ? search.slice(1) : search;
  if (text === '') return [];
  return text.split('&').map((pair): [string, string] => {
    const eq = pair.indexOf('=');
    if (eq < 0) return [percentDecode(pair), ''];
    return [percentDecode(pair.slice(0, eq)), percentDecode(pair.slice(eq + 1))];
  });
}

export function stringifyQuery(pairs: ReadonlyArray<readonly [string, string]>): string {
  const parts = pairs.map(([key, value]) => percentEncode(key) + '=' + percentEncode(value));
  return parts.length === 0 ? '' : '?' + parts.join('&');
}
`,
    // Fields declared, not parameter properties: Node's type stripping only erases.
    'src/url.ts': `// The URL record and its parser.
import { splitHostPort } from './host${ext}';
import { normalizePath } from './path${ext}';
import { parseQuery } from './query${ext}';

export class UrlError extends Error {
  readonly input: string;

  constructor(input: string, reason: string) {
    super('Invalid URL ' + JSON.stringify(input) + ': ' + reason);
    this.input = input;
  }
}

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

export class Url {
  readonly protocol: string;
  readonly host: string;
  readonly port: number | null;
  readonly pathname: string;
  readonly query: Array<[string, string]>;

  constructor(protocol: string, host: string, port: number | null, pathname: string, query: Array<[string, string]>) {
    this.protocol = protocol;
    this.host = host;
    this.port = port;
    this.pathname = pathname;
    this.query = query;
  }

  get origin(): string {
    const port = this.port === null || this.port === DEFAULT_PORTS[this.protocol] ? '' : ':' + this.port;
    return this.protocol + '//' + this.host + port;
  }
}

export function parseUrl(input: string): Url {
  const match = /^([a-z][a-z0-9+.-]*:)\\/\\/([^/?#]*)([^?#]*)(\\?[^#]*)?/i.exec(input.trim());
  if (!match) throw new UrlError(input, 'no scheme and authority');
  const { host, port } = splitHostPort(match[2] ?? '');
  if (host === '') throw new UrlError(input, 'empty host');
  return new Url(match[1]!.toLowerCase(), host, port, normalizePath(match[3] ?? ''), parseQuery(match[4] ?? ''));
}
`,
    'src/index.ts': ['percent', 'host', 'path', 'query', 'url']
      .map((m) => `export * from './${m}${ext}';\n`)
      .join(''),
  };
}
