// The native tree-sitter binding and web-tree-sitter must index the same way: same trees, definitions,
// references and imports, on this repository's own sources (src/, examples/, and the fixtures and resources that
// hold its Python, Go, Rust, Java and TSX). Skipped, with the reason,
// only where the native binding does not load (it is an optional dependency compiled by node-gyp).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createIndexer, languageOfPath, type WorkspaceIndex } from '../../../src/core/index';
import { extractFile } from '../../../src/core/index/extract';
import { locateGrammars } from '../../../src/core/grammarLocation';
import { loadNativeTreeSitter } from '../../../src/core/index/nativeTreeSitter';
import type { ParseHost, SyntaxTree } from '../../../src/core/index/syntax';
import { TreeSitterHost } from '../../../src/core/index/treeSitterHost';
import { copyDir, repoRoot, tempDir } from '../../support/indexHelpers';

const corpusRoots = ['src', 'examples', 'resources', 'test/fixtures'];
const location = locateGrammars();
const native = loadNativeTreeSitter(location);
const skip = native.ok ? false : native.reason;

function corpusFiles(): string[] {
  const files: string[] = [];
  for (const top of corpusRoots) {
    for (const rel of fs.readdirSync(path.join(repoRoot, top), { recursive: true }).map(String)) {
      const file = path.join(top, rel).split(path.sep).join('/');
      if (languageOfPath(file) && fs.statSync(path.join(repoRoot, file)).isFile()) files.push(file);
    }
  }
  return files.sort();
}

interface Cursor {
  nodeType: string;
  startIndex: number;
  endIndex: number;
  gotoFirstChild(): boolean;
  gotoNextSibling(): boolean;
  gotoParent(): boolean;
}

/** Every node, named or not, as type and extent, in document order: what toString() leaves out. */
function nodesOf(tree: SyntaxTree): string[] {
  const cursor = (tree as unknown as { walk(): Cursor }).walk();
  const out: string[] = [];
  for (;;) {
    out.push(`${cursor.nodeType}@${cursor.startIndex}-${cursor.endIndex}`);
    if (cursor.gotoFirstChild()) continue;
    while (!cursor.gotoNextSibling()) {
      if (!cursor.gotoParent()) return out;
    }
  }
}

async function parseBoth(
  hosts: ParseHost[],
  file: string,
  text: string,
): Promise<Array<{ sexp: string; nodes: string[]; extracted: ReturnType<typeof extractFile> }>> {
  const language = languageOfPath(file)!;
  const results = [];
  for (const host of hosts) {
    const lang = await host.language(language);
    const tree = host.parse(lang, text);
    try {
      results.push({
        sexp: tree.rootNode.toString(),
        nodes: nodesOf(tree),
        extracted: extractFile(tree, lang),
      });
    } finally {
      host.release(tree);
    }
  }
  return results;
}

describe('index: native tree-sitter binding vs web-tree-sitter', { skip }, () => {
  it('parses every source file of src/, examples/ and the fixtures to the same tree and extracts the same', async () => {
    if (!native.ok) return;
    const wasm = new TreeSitterHost(location);
    const files = corpusFiles();
    assert.ok(files.length > 300, `the corpus has ${files.length} files`);
    const languages = new Set<string>();
    let definitions = 0;
    try {
      for (const file of files) {
        const text = fs.readFileSync(path.join(repoRoot, file), 'utf8');
        const [fromNative, fromWasm] = await parseBoth([native.host, wasm], file, text);
        assert.equal(fromNative!.sexp, fromWasm!.sexp, `${file}: S-expression`);
        assert.deepEqual(fromNative!.nodes, fromWasm!.nodes, `${file}: nodes and extents`);
        assert.deepEqual(
          fromNative!.extracted,
          fromWasm!.extracted,
          `${file}: definitions, references, imports`,
        );
        languages.add(languageOfPath(file)!);
        definitions += fromWasm!.extracted.symbols.length;
      }
    } finally {
      wasm.dispose();
    }
    // The comparison covers what the index reads in more than one language, not a corpus of empty files.
    assert.deepEqual([...languages].sort(), [
      'go',
      'java',
      'javascript',
      'python',
      'rust',
      'tsx',
      'typescript',
    ]);
    assert.ok(definitions > 1000, `${definitions} definitions compared`);
    assert.equal(native.host.liveTreeCount, 0);
  });

  it('parses non-ASCII text to the same positions (UTF-16 columns)', async () => {
    if (!native.ok) return;
    const wasm = new TreeSitterHost(location);
    try {
      const text = "const s = 'héllo 😀';\nexport function größe(): number { return 1; }\n";
      const [a, b] = await parseBoth([native.host, wasm], 'x.ts', text);
      assert.deepEqual(a!.extracted, b!.extracted);
      assert.equal(a!.extracted.symbols[0]?.nameRange.start.column, 16);
    } finally {
      wasm.dispose();
    }
  });

  describe('a workspace pass in worker threads', () => {
    let dir: string;
    const pass = async (parser: 'native' | 'wasm'): Promise<WorkspaceIndex> => {
      const indexer = createIndexer({ workspaceDir: dir, useCache: false, workers: 2, parser });
      try {
        const index = await indexer.indexWorkspace();
        assert.equal(indexer.liveTreeCount(), 0);
        return index;
      } finally {
        indexer.dispose();
      }
    };
    before(() => {
      dir = tempDir('native');
      for (const top of corpusRoots) copyDir(path.join(repoRoot, top), path.join(dir, top));
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));

    it('gives the same files, definitions and resolved imports, and says which parser ran', async () => {
      const fromNative = await pass('native');
      const fromWasm = await pass('wasm');
      assert.equal(fromNative.stats.parser?.ran, 'native', JSON.stringify(fromNative.stats.parser));
      assert.equal(fromNative.stats.parser?.where, 'workers');
      assert.deepEqual(fromNative.stats.parser?.fallbacks, {});
      assert.equal(fromWasm.stats.parser?.ran, 'wasm');
      assert.ok(fromWasm.files.size > 300);
      assert.deepEqual([...fromNative.files.keys()], [...fromWasm.files.keys()]);
      for (const [file, indexed] of fromWasm.files)
        assert.deepEqual(fromNative.files.get(file), indexed, file);
      assert.ok([...fromWasm.files.values()].some((f) => f.imports.length > 0));
    });
  });
});

describe('index: native binding unavailable', () => {
  it('falls back to web-tree-sitter with the reason when the binding cannot be resolved', () => {
    // From a folder with no node_modules above it, `tree-sitter` does not resolve.
    const outside = tempDir('no-binding');
    try {
      const load = loadNativeTreeSitter(location, outside);
      assert.equal(load.ok, false);
      assert.match(
        !load.ok ? load.reason : '',
        /native tree-sitter binding does not load: Cannot find module 'tree-sitter'/,
      );
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });
});
