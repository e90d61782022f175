// Package managers and build tools. Their words are targets and script names, not paths (until `--`); their
// runners (npx, pnpm exec, uv run, bundle exec …) run a package's program, which the table then reads as the
// command (wrappers.ts unwraps them).
import path from 'node:path';
import { writtenHere } from '../shellFiles';
import type { CommandContext, ShellWord } from '../shellTypes';
import { afterOptions, chdirOption, optionValues, shellString, type Uses } from './shared';

/** Build tools and package managers: their words are targets and script names, not paths (until `--`). */
export const TARGET_RUNNERS = new Set([
  'make',
  'gmake',
  'ninja',
  'just',
  'task',
  'rake',
  'gradle',
  'gradlew',
  'mvn',
  'mvnw',
  'tox',
  'nox',
  'npm',
  'pnpm',
  'yarn',
]);

/** The files each build tool reads its recipes from: commands it runs that the guard never sees. */
const RECIPE_FILES: Record<string, RegExp> = {
  make: /^(GNUmakefile|makefile|Makefile)$|\.mk$/,
  gmake: /^(GNUmakefile|makefile|Makefile)$|\.mk$/,
  ninja: /^build\.ninja$/,
  just: /^(justfile|Justfile|\.justfile)$/,
  task: /^Taskfile\.(yml|yaml)$/,
  rake: /^(Rakefile|rakefile)$|\.rake$/,
  gradle: /\.gradle(\.kts)?$|^gradle\.properties$/,
  gradlew: /\.gradle(\.kts)?$|^gradle\.properties$/,
  mvn: /^pom\.xml$/,
  mvnw: /^pom\.xml$/,
  tox: /^(tox\.ini|setup\.cfg|pyproject\.toml)$/,
  nox: /^noxfile\.py$/,
  npm: /^(package\.json|\.npmrc)$/,
  pnpm: /^(package\.json|\.npmrc|pnpm-workspace\.yaml)$/,
  yarn: /^(package\.json|\.npmrc|\.yarnrc(\.yml)?)$/,
};

export function targetRunner(name: string, args: ShellWord[], use: Uses): void {
  const dashes = args.findIndex((w) => w.text === '--');
  if (dashes >= 0) use.all(args.slice(dashes + 1), 'other', name);
  // A Makefile (or package.json, justfile …) written earlier in this command: its recipes were not on disk when
  // the guard read the command, so what they run cannot be read.
  const { files, dirs } = use.ctx.state;
  const recipes = RECIPE_FILES[name];
  const named = optionValues(args, ['-f', '--file', '--makefile', '--justfile']);
  const written =
    named.find((w) => writtenHere(files, w, dirs)) ??
    [...files.written].map((p) => path.basename(p)).find((base) => recipes?.test(base));
  if (written !== undefined)
    use.unresolved(
      typeof written === 'string' ? written : written.text,
      `${name} running recipes from a file this command writes; write the file in one command and run ${name} in the next`,
    );
}

/** Package runners: the first operand is the program (a package name, maybe with @version). */
export const RUNNERS: Record<string, { valued: string[]; sub?: string[] }> = {
  npx: { valued: ['-p', '--package', '--cache', '--userconfig', '-w', '--workspace'] },
  bunx: { valued: ['-p', '--package'] },
  pnpx: { valued: [] },
  pnpm: { valued: ['-C', '--dir', '--filter', '-F'], sub: ['exec', 'dlx'] },
  yarn: { valued: ['--cwd'], sub: ['exec', 'dlx', 'run'] },
  npm: { valued: ['-w', '--workspace', '--prefix'], sub: ['exec', 'x'] },
  uv: { valued: ['--with', '-p', '--python', '--directory', '--project'], sub: ['run'] },
  uvx: { valued: ['--with', '-p', '--python', '--from'] },
  poetry: { valued: ['-C', '--directory'], sub: ['run'] },
  pipenv: { valued: [], sub: ['run'] },
  pdm: { valued: [], sub: ['run'] },
  hatch: { valued: [], sub: ['run'] },
  pipx: { valued: ['--spec'], sub: ['run'] },
  bundle: { valued: [], sub: ['exec'] },
};

/** One wrapper taken off: the words it runs next, or the end of the chain (`end`: the command, or none). */
export type Unwrapped = { next: ShellWord[] } | { end: ShellWord[] | undefined };

/** A package runner (npx, pnpm exec, uv run …): the package's bin it runs, or the runner itself. */
export function unwrapRunner(
  name: string,
  shape: { valued: string[]; sub?: string[] },
  rest: ShellWord[],
  ctx: CommandContext,
): Unwrapped {
  let args = rest.slice(1);
  if (name === 'npx' && args.some((w) => w.text === '-c' || w.text === '--call')) {
    shellString(args[args.findIndex((w) => w.text === '-c' || w.text === '--call') + 1], ctx, 'npx -c');
    return { end: undefined };
  }
  if (name === 'pnpm' || name === 'poetry' || name === 'uv')
    chdirOption(args, ['-C', '--dir', '--directory', '--project'], ctx);
  if (shape.sub) {
    const options = afterOptions(args, shape.valued);
    const sub = options[0]?.text;
    if (name === 'yarn' && sub !== undefined && !shape.sub.includes(sub) && !YARN_OWN.has(sub)) {
      args = options; // `yarn prettier --write …` runs the package's bin
    } else if (sub !== undefined && shape.sub.includes(sub)) args = options.slice(1);
    else return { end: rest }; // npm install, uv pip …: the runner itself
  }
  const command = afterOptions(args, shape.valued);
  if (command.length === 0) return { end: undefined };
  return { next: [{ ...command[0]!, text: packageBin(command[0]!.text) }, ...command.slice(1)] };
}

const YARN_OWN = new Set([
  'install',
  'add',
  'remove',
  'upgrade',
  'init',
  'test',
  'build',
  'why',
  'info',
  'list',
  'cache',
  'config',
  'workspace',
  'workspaces',
  'link',
  'unlink',
  'pack',
  'publish',
  'version',
]);

/** `prettier@3.1.0` → prettier, `@biomejs/biome` → biome. */
export function packageBin(spec: string): string {
  const withoutVersion = spec.replace(/(.)@[^/]*$/, '$1');
  return withoutVersion.startsWith('@') ? (withoutVersion.split('/')[1] ?? withoutVersion) : withoutVersion;
}
