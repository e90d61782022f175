// Class members the stock tags queries leave out (constructors, private methods and fields, static blocks) are
// symbols, so an anchor or a coverage unit can name them: `PathError.constructor`, not the module's top level.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createIndexer, type Indexer, type WorkspaceIndex } from '../../../src/core/index';
import { tempDir } from '../../support/indexHelpers';

// Shaped like path-to-regexp's error class, with the other members a class body can hold.
const classBody = (types: boolean): string =>
  [
    'export class PathError extends TypeError {',
    `  count${types ? ': number' : ''} = 0;`,
    '  #seen = new Set();',
    '  static defaults = {};',
    '  static {',
    '    PathError.defaults = { strict: true };',
    '  }',
    // A parameter property in TypeScript, a plain parameter in JavaScript.
    `  constructor(message${types ? ': string, public readonly path: string' : ', path'}) {`,
    '    super(message);',
    '  }',
    '  get size() {',
    '    return this.#seen.size;',
    '  }',
    `  set size(value${types ? ': number' : ''}) {`,
    '    this.count = value;',
    '  }',
    '  #check() {',
    '    return this.count > 0;',
    '  }',
    '  #onError = () => this.#check();',
    '}',
    '',
  ].join('\n');

describe('index: class constructors, accessors, private members and static blocks', () => {
  let dir: string;
  let indexer: Indexer;
  let index: WorkspaceIndex;
  before(async () => {
    dir = tempDir('class-members');
    fs.writeFileSync(path.join(dir, 'errors.ts'), classBody(true));
    fs.writeFileSync(path.join(dir, 'errors.js'), classBody(false));
    indexer = createIndexer({ workspaceDir: dir, useCache: false, workers: 0 });
    index = await indexer.indexWorkspace();
  });
  after(() => {
    indexer.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const expected = [
    'PathError:class',
    'PathError.count:field',
    'PathError.#seen:field',
    'PathError.defaults:field',
    'PathError.static:other',
    'PathError.constructor:method',
    'PathError.size:method',
    'PathError.size:method',
    'PathError.#check:method',
    'PathError.#onError:method',
  ];

  for (const file of ['errors.ts', 'errors.js'])
    it(`${file}: every member is a symbol, qualified by its class`, () => {
      const f = index.files.get(file);
      assert.ok(f, `${file} was indexed`);
      assert.equal(f.hasSyntaxErrors, false);
      assert.deepEqual(
        f.symbols.map((s) => `${s.qualifiedName}:${s.kind}`),
        expected,
      );
      // The constructor spans its body, so a change inside it is a change to it.
      const ctor = f.symbols.find((s) => s.qualifiedName === 'PathError.constructor');
      assert.deepEqual([ctor?.range.start.line, ctor?.range.end.line], [7, 9]);
    });
});
