// The selection study's seeded mutants, taken from the one mutation engine (src/core/audit: the operators
// `weave audit` applies) so the bench measures selection on the mutants users see, not on edits of its own.
// This file only chooses among them: the function, method and class bodies of the given files (the index's
// definitions), a deterministic seeded order (the same seed gives the same mutants on every machine), and for
// TypeScript the ones that still type-check (a mutant tsc rejects breaks the build, so every spec at once).
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import type { AnchoredWorkspace } from '../src/core/anchors/anchoredWorkspace';
import { applyMutant, mutantsOfFile, type Mutant } from '../src/core/audit/mutants';
import { isMutableLanguage } from '../src/core/audit/operators';
import { TreeSitterHost, locateGrammars, type Range } from '../src/core/index';

const BODY_KINDS = new Set(['function', 'method', 'class']);

/** mulberry32: a small deterministic PRNG. */
function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Every core mutant inside a definition of `files`, in the order `seed` draws them. */
export async function seededOrder(ws: AnchoredWorkspace, files: string[], seed: number): Promise<Mutant[]> {
  const host = new TreeSitterHost(locateGrammars());
  const candidates: Mutant[] = [];
  try {
    for (const file of files) {
      const entry = ws.index.files.get(file);
      if (!entry) throw new Error(`${file} is not in the workspace index`);
      if (!isMutableLanguage(entry.language))
        throw new Error(`${file}: no mutation operators for ${entry.language}`);
      const ranges: Range[] = entry.symbols.filter((s) => BODY_KINDS.has(s.kind)).map((s) => s.range);
      const text = fs.readFileSync(path.join(ws.workspaceDir, file), 'utf8');
      candidates.push(...(await mutantsOfFile(host, file, entry.language, text, ranges)));
    }
  } finally {
    host.dispose();
  }
  const random = seededRandom(seed);
  const order: Mutant[] = [];
  while (candidates.length > 0)
    order.push(candidates.splice(Math.floor(random() * candidates.length), 1)[0]!);
  return order;
}

/** The first `count` of `order` that `keep` accepts (checked one by one, so a costly check runs only as needed). */
export function firstKept(
  order: Mutant[],
  count: number,
  keep: (m: Mutant) => boolean = () => true,
): Mutant[] {
  const out: Mutant[] = [];
  for (const m of order) {
    if (out.length >= count) break;
    if (keep(m)) out.push(m);
  }
  return out;
}

/**
 * A type check of `sources` under the workspace's tsconfig, one mutant at a time, through one language service
 * (each check after the first re-checks only what changed).
 */
export function typeChecker(dir: string, tsconfig: string, sources: string[]): (m: Mutant) => boolean {
  const parsed = ts.getParsedCommandLineOfConfigFile(path.join(dir, tsconfig), undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(`${tsconfig}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    },
  });
  if (!parsed) throw new Error(`${tsconfig} could not be read`);
  const overrides = new Map<string, string>();
  const versions = new Map<string, number>();
  const host: ts.LanguageServiceHost = {
    getScriptFileNames: () => parsed.fileNames,
    getScriptVersion: (f) => String(versions.get(f) ?? 0),
    getScriptSnapshot: (f) => {
      const text = overrides.get(f) ?? (fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : undefined);
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => dir,
    getCompilationSettings: () => parsed.options,
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  };
  const service = ts.createLanguageService(host, ts.createDocumentRegistry());
  const absolute = sources.map((s) => path.join(dir, s));
  const clean = (): boolean =>
    absolute.every(
      (f) =>
        service.getSyntacticDiagnostics(f).length === 0 && service.getSemanticDiagnostics(f).length === 0,
    );
  if (!clean()) throw new Error(`${sources.join(', ')} do not type-check before any mutant`);
  return (m) => {
    const file = path.join(dir, m.file);
    const bump = (): void => void versions.set(file, (versions.get(file) ?? 0) + 1);
    overrides.set(file, applyMutant(fs.readFileSync(file, 'utf8'), m));
    bump();
    try {
      return clean();
    } finally {
      overrides.delete(file);
      bump();
    }
  };
}
