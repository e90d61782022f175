// What a spec's command loads, collected: workspace-relative files with why each is loaded, manifest keys
// (package.json `scripts.check` when the command is `npm run check`), and what could not be read (deny by
// default: a reason, never silence). One collector per computation; the readers in this folder fill it.
import type fs from 'node:fs';
import path from 'node:path';
import { isKeyedManifest } from '../diffPolicy/manifestKeys';
import { entriesOf, isFileNow, noteRead, seenListing, seenText, textOf } from './readTrace';

export interface LoadedSet {
  /** Workspace-relative, '/'-separated file → why the spec's command or test loads it. */
  files: ReadonlyMap<string, string>;
  /** Workspace-relative keyed manifest → key label (`scripts.check`) → why. */
  keys: ReadonlyMap<string, ReadonlyMap<string, string>>;
  /** What the readers could not follow, each with the spec it belongs to. */
  unknown: readonly string[];
}

export const EMPTY_LOADED_SET: LoadedSet = { files: new Map(), keys: new Map(), unknown: [] };

export class LoadCollector {
  readonly files = new Map<string, string>();
  readonly keys = new Map<string, Map<string, string>>();
  readonly unknown: string[] = [];
  /** The spec being read, for the reasons. */
  spec = '';

  constructor(readonly workspaceDir: string) {}

  /** Workspace-relative path of `abs`, or undefined outside the workspace (the sandbox keeps that read-only). */
  relative(abs: string): string | undefined {
    const rel = path.relative(this.workspaceDir, abs);
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
    return rel.split(path.sep).join('/');
  }

  /** Records a loaded file; returns whether it was new (so recursive readers stop on cycles). */
  add(abs: string, why: string): boolean {
    const rel = this.relative(abs);
    if (rel === undefined || rel.split('/').includes('node_modules')) return false;
    // package.json, pyproject.toml, setup.cfg, tox.ini are judged key by key (their test keys, and addKey's).
    if (isKeyedManifest(rel)) return false;
    if (this.files.has(rel)) return false;
    this.files.set(rel, `${why} (spec ${this.spec})`);
    return true;
  }

  addKey(manifestAbs: string, key: string, why: string): void {
    const rel = this.relative(manifestAbs);
    if (rel === undefined) return;
    const keys = this.keys.get(rel) ?? new Map<string, string>();
    if (!keys.has(key)) keys.set(key, `${why} (spec ${this.spec})`);
    this.keys.set(rel, keys);
  }

  cannotRead(what: string): void {
    const line = `spec ${this.spec}: ${what}`;
    if (!this.unknown.includes(line)) this.unknown.push(line);
  }

  result(): LoadedSet {
    return { files: this.files, keys: this.keys, unknown: this.unknown };
  }
}

// Every look at the file system the readers take goes through the three functions below, which note what they
// saw (readTrace.ts): the cache of a computed set is keyed on exactly these observations.

/** A regular file's text (at most 1 MiB), or undefined when it is not one. */
export function readText(abs: string): string | undefined {
  const text = textOf(abs);
  noteRead('text', abs, seenText(text));
  return text;
}

export function isFile(abs: string): boolean {
  const file = isFileNow(abs);
  noteRead('is-file', abs, String(file));
  return file;
}

/** A folder's entries, or undefined when it cannot be listed. */
export function listFolder(abs: string): fs.Dirent[] | undefined {
  const entries = entriesOf(abs);
  noteRead('list', abs, seenListing(entries));
  return entries;
}
