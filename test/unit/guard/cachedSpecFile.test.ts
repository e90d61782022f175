// The guard keeps the validated spec file in its state folder (src/cli/guard/cachedSpecFile.ts) and must never
// answer from it once the file's bytes differ: every change, however small, is validated again, and an invalid
// file is never taken for the valid one it replaced.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { guardSpecFile } from '../../../src/cli/guard/cachedSpecFile';
import { sessionDir } from '../../../src/core/sandbox/sessionFolder';

const spec = (id: string, extra = ''): string =>
  `{"version": 1, "specs": [{"id": "${id}", "title": "t", "kind": "functional", "statement": "s${extra}",` +
  ` "test": {"command": "true", "files": ["t.js"]}, "anchors": []}]}`;

describe('guardSpecFile: the cached spec file is used only for the exact bytes it was validated from', () => {
  let ws: string;
  let state: string;
  let savedState: string | undefined;
  const specsPath = (): string => path.join(ws, '.weave', 'specs.json');
  const cachePath = (): string => path.join(sessionDir(ws), 'spec-file.json');
  /** Rewrites the cache so that a hit is visible: the cached spec's id becomes `from-cache`. */
  const markCache = (): void => {
    const cache = JSON.parse(fs.readFileSync(cachePath(), 'utf8')) as {
      specFile: { specs: { id: string }[] };
    };
    cache.specFile.specs[0]!.id = 'from-cache';
    fs.writeFileSync(cachePath(), JSON.stringify(cache));
  };
  const idNow = async (): Promise<string | undefined> => {
    const loaded = await guardSpecFile(ws);
    return loaded.ok ? loaded.specFile.specs[0]?.id : undefined;
  };

  beforeEach(() => {
    ws = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-specs-cache-'));
    state = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-specs-cache-state-'));
    savedState = process.env.WEAVE_STATE_DIR;
    process.env.WEAVE_STATE_DIR = state;
    fs.mkdirSync(path.join(ws, '.weave'));
  });
  afterEach(() => {
    if (savedState === undefined) delete process.env.WEAVE_STATE_DIR;
    else process.env.WEAVE_STATE_DIR = savedState;
    fs.rmSync(ws, { recursive: true, force: true });
    fs.rmSync(state, { recursive: true, force: true });
  });

  test('the same bytes are answered from the cache; one more space is validated again', async () => {
    fs.writeFileSync(specsPath(), spec('a'));
    assert.equal(await idNow(), 'a');
    markCache();
    assert.equal(await idNow(), 'from-cache', 'unchanged bytes: the cache answers');
    fs.writeFileSync(specsPath(), `${spec('a')} `);
    assert.equal(await idNow(), 'a', 'a changed byte: validated afresh');
  });

  test('a changed spec is read anew, and an invalid file is invalid even after a valid one was cached', async () => {
    fs.writeFileSync(specsPath(), spec('a'));
    assert.equal(await idNow(), 'a');
    fs.writeFileSync(specsPath(), spec('b'));
    assert.equal(await idNow(), 'b');
    fs.writeFileSync(specsPath(), spec('b').replace('"kind": "functional"', '"kind": 7'));
    const invalid = await guardSpecFile(ws);
    assert.equal(invalid.ok, false);
    fs.rmSync(specsPath());
    assert.equal((await guardSpecFile(ws)).ok, false, 'a missing file is not the cached one');
  });

  test('bytes that decode to the cached text but are not UTF-8 are refused, not taken from the cache', async () => {
    // A valid file holding U+FFFD, then the same file with an invalid byte where it stood: a text comparison after
    // lenient decoding would see the two as equal.
    fs.writeFileSync(specsPath(), spec('a', '\uFFFD'));
    assert.equal(await idNow(), 'a');
    const bytes = Buffer.from(spec('a', '#'), 'utf8');
    bytes[bytes.indexOf('#'.charCodeAt(0))] = 0xff;
    fs.writeFileSync(specsPath(), bytes);
    assert.equal(bytes.toString('utf8'), spec('a', '\uFFFD'));
    assert.equal((await guardSpecFile(ws)).ok, false);
  });

  test('a cache left by another build of Weave is not used', async () => {
    fs.writeFileSync(specsPath(), spec('a'));
    assert.equal(await idNow(), 'a');
    markCache();
    const cache = JSON.parse(fs.readFileSync(cachePath(), 'utf8')) as { program: string };
    fs.writeFileSync(cachePath(), JSON.stringify({ ...cache, program: `${cache.program}-older` }));
    assert.equal(await idNow(), 'a');
  });
});
