// The guard's decision on a shell command, from what the shell reader found (shellReader.ts): deny by default.
// A path a known writer targets is blocked when it is protected, or is a folder or glob covering a protected file;
// a path given to a command the guard does not know is blocked the same way (only folders strictly inside the
// workspace count there, so `tool .` is not taken for a rewrite of everything); known reads never block. A write
// target the reader cannot resolve blocks, saying so. Inline code blocks when one of its string literals names a
// protected path or a spec test file's name.
import path from 'node:path';
import { protectedBasenames, protectedHit, type ProtectedHit, type ProtectedSet } from './protectedPaths';
import { NotPlainShell, plainShellParse } from './plainShell';
import { readShell } from './shellReader';
import type { ShellParse } from './shellSyntax';
import type { ShellEffect } from './shellTypes';

export interface ShellFinding {
  hit: ProtectedHit;
  /** What in the command did it: "`>` redirection on cache-hit.test.js". */
  action: string;
}

/** Returned by plainShellFinding for a command (or shell code it runs) outside what plainShell.ts reads. */
export const NEEDS_GRAMMAR = 'needs the bash grammar';

/**
 * The finding on a plain command (plainShell.ts: the same tree tree-sitter-bash makes, so the same finding), or
 * NEEDS_GRAMMAR: then the caller loads tree-sitter-bash and asks shellFinding.
 */
export function plainShellFinding(
  command: string,
  cwd: string,
  set: ProtectedSet,
): ShellFinding | undefined | typeof NEEDS_GRAMMAR {
  try {
    return shellFinding(plainShellParse, command, cwd, set);
  } catch (error) {
    if (error instanceof NotPlainShell) return NEEDS_GRAMMAR;
    throw error;
  }
}

export function shellFinding(
  parse: ShellParse,
  command: string,
  cwd: string,
  set: ProtectedSet,
): ShellFinding | undefined {
  for (const effect of readShell(parse, command, cwd)) {
    const finding = effectFinding(effect, set);
    if (finding) return finding;
  }
  return undefined;
}

function effectFinding(effect: ShellEffect, set: ProtectedSet): ShellFinding | undefined {
  switch (effect.kind) {
    case 'unresolved':
      return {
        hit: {
          given: effect.text,
          what: 'a target the guard cannot resolve (a substitution, a variable or arguments from stdin), which could be a protected file; write the path out literally',
        },
        action: `${effect.how} on ${effect.text}`,
      };
    case 'inline':
      return inlineFinding(effect.code, effect.dirs, set, effect.how);
    case 'path': {
      if (effect.access === 'read') return undefined;
      const given = effect.word.text;
      if (effect.dirs === undefined && !path.isAbsolute(given)) {
        if (effect.access === 'write')
          return {
            hit: {
              given,
              what: 'a path relative to a directory the guard cannot follow (a `cd` it cannot read)',
            },
            action: `${effect.how} on ${given}`,
          };
        return protectedBasenames(set).has(path.basename(given))
          ? {
              hit: { given, what: 'the name of a spec test file, in a directory the guard cannot follow' },
              action: `${effect.how} on ${given}`,
            }
          : undefined;
      }
      for (const dir of effect.dirs ?? ['/']) {
        const hit = protectedHit(set, given, dir, effect.access === 'write' ? 'any' : 'inside');
        if (hit) return { hit, action: `${effect.how} on ${given}` };
      }
      return undefined;
    }
  }
}

/** String literals in code (quoted, one line) that name a protected path, tried from every directory. */
export function inlineFinding(
  code: string,
  dirs: readonly string[] | undefined,
  set: ProtectedSet,
  how: string,
): ShellFinding | undefined {
  const names = protectedBasenames(set);
  for (const m of code.matchAll(/(['"`])((?:(?!\1)[^\\\n]|\\.){1,300})\1/g)) {
    const literal = m[2]!.replace(/\\(.)/g, '$1');
    if (literal.trim() === '' || /^[a-z]+:\/\//i.test(literal)) continue;
    if (names.has(path.basename(literal)))
      return {
        hit: { given: literal, what: `the name of a spec test file (${literal})` },
        action: `${how} naming ${literal}`,
      };
    for (const dir of dirs ?? [set.workspaceDir]) {
      const hit = protectedHit(set, literal, dir, 'inside');
      if (hit) return { hit, action: `${how} naming ${literal}` };
    }
  }
  return undefined;
}
