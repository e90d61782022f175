// `make T` loads the Makefile (and what it `include`s) and runs T's recipe, and the recipes of T's prerequisites
// that are rules of their own: those recipe lines are shell, read like the spec's command. Enough of GNU make to
// follow them: continuation lines, `include`/`-include`/`sinclude`, `X = v`, `X := v`, `X ?= v`, `$(X)`/`${X}`,
// `$(MAKE)`, `$@`. A word with an expansion it cannot know stays inexact, which the shell reader reports.
import path from 'node:path';
import { isFile, readText, type LoadCollector } from './loadedSet';

export interface Makefile {
  rules: Map<string, { prerequisites: string[]; recipe: string[] }>;
  firstTarget: string | undefined;
}

const MAKEFILE_NAMES = ['GNUmakefile', 'makefile', 'Makefile'];

/** The makefile `make` reads in `dir` (or `-f file`), recorded with its includes; undefined if there is none. */
export function readMakefile(
  collector: LoadCollector,
  dir: string,
  explicit: string | undefined,
): Makefile | undefined {
  const file =
    explicit !== undefined
      ? path.resolve(dir, explicit)
      : MAKEFILE_NAMES.map((n) => path.join(dir, n)).find(isFile);
  if (file === undefined) {
    collector.cannotRead(`make in ${collector.relative(dir) ?? dir} finds no makefile to read`);
    return undefined;
  }
  const makefile: Makefile = { rules: new Map(), firstTarget: undefined };
  const vars = new Map<string, string>([
    ['MAKE', 'make'],
    ['CURDIR', dir],
  ]);
  parseInto(collector, file, dir, makefile, vars, 0);
  for (const rule of makefile.rules.values()) rule.recipe = rule.recipe.map((line) => expand(line, vars));
  return makefile;
}

function parseInto(
  collector: LoadCollector,
  file: string,
  dir: string,
  makefile: Makefile,
  vars: Map<string, string>,
  depth: number,
): void {
  if (!collector.add(file, `make reads ${path.basename(file)}`) || depth > 8) return;
  const text = readText(file);
  if (text === undefined) {
    collector.cannotRead(`${collector.relative(file) ?? file} cannot be read`);
    return;
  }
  let current: { recipe: string[] } | undefined;
  for (const line of text.replace(/\\\r?\n/g, ' ').split(/\r?\n/)) {
    if (line.startsWith('\t')) {
      current?.recipe.push(line.slice(1));
      continue;
    }
    const code = line.replace(/(^|[^\\])#.*$/, '$1').trim();
    if (code === '') continue;
    const include = /^(-?include|sinclude)\s+(.+)$/.exec(code);
    if (include) {
      current = undefined;
      for (const name of expand(include[2]!, vars).split(/\s+/)) {
        if (name.includes('$') || /[*?[]/.test(name)) {
          collector.cannotRead(`make includes ${name}, which cannot be resolved without make`);
          continue;
        }
        const included = path.resolve(dir, name);
        if (isFile(included)) parseInto(collector, included, dir, makefile, vars, depth + 1);
        else collector.add(included, 'make includes it');
      }
      continue;
    }
    const assignment =
      /^(?:export\s+|override\s+)?([A-Za-z_][A-Za-z0-9_.]*)\s*(:{1,3}=|\?=|\+=|=)\s*(.*)$/.exec(code);
    if (assignment) {
      current = undefined;
      const [, name, op, value] = assignment as unknown as [string, string, string, string];
      if (op === '?=' && vars.has(name)) continue;
      const expanded = op.startsWith(':') ? expand(value, vars) : value;
      vars.set(name, op === '+=' ? `${vars.get(name) ?? ''} ${expanded}`.trim() : expanded);
      continue;
    }
    const rule = /^([^:=]+?)\s*::?\s*([^=]*)$/.exec(code);
    if (rule) {
      const [targetsPart, rest] = [rule[1]!, rule[2]!];
      const [prerequisitesPart, inlineRecipe] = rest.split(';', 2) as [string, string | undefined];
      const recipe: string[] = inlineRecipe !== undefined ? [inlineRecipe] : [];
      const prerequisites = expand(prerequisitesPart, vars).split(/\s+/).filter(Boolean);
      for (const target of expand(targetsPart, vars).split(/\s+/).filter(Boolean)) {
        const existing = makefile.rules.get(target);
        if (existing) existing.prerequisites.push(...prerequisites);
        else makefile.rules.set(target, { prerequisites: [...prerequisites], recipe });
        if (makefile.firstTarget === undefined && !target.startsWith('.') && !target.includes('%'))
          makefile.firstTarget = target;
      }
      current = { recipe };
      continue;
    }
    current = undefined;
  }
}

/** Expands the variables make would (repeatedly, for nested definitions); unknown ones stay as written. */
function expand(text: string, vars: ReadonlyMap<string, string>): string {
  let out = text;
  for (let i = 0; i < 8; i++) {
    const next = out.replace(
      /\$(?:\(([A-Za-z_][A-Za-z0-9_.]*)\)|\{([A-Za-z_][A-Za-z0-9_.]*)\})/g,
      (all, a, b) => {
        const value = vars.get((a ?? b) as string);
        return value ?? all;
      },
    );
    if (next === out) break;
    out = next;
  }
  return out.replace(/\$\$/g, '$');
}

/** The recipe lines that run for `targets` (the first target when none is named), prerequisites first. */
export function recipesFor(
  makefile: Makefile,
  targets: readonly string[],
): Array<{ target: string; line: string }> {
  const lines: Array<{ target: string; line: string }> = [];
  const seen = new Set<string>();
  const visit = (target: string): void => {
    if (seen.has(target)) return;
    seen.add(target);
    const rule = makefile.rules.get(target);
    if (!rule) return;
    for (const prerequisite of rule.prerequisites) visit(prerequisite);
    for (const line of rule.recipe)
      lines.push({ target, line: line.replace(/\$@/g, target).replace(/^[\s@+-]+/, '') });
  };
  const wanted = targets.length > 0 ? targets : makefile.firstTarget ? [makefile.firstTarget] : [];
  for (const target of wanted) visit(target);
  return lines;
}
