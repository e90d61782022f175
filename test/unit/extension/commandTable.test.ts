// The command table (src/extension/commandTable.ts), the manifest (package.json `contributes`, activation) and
// docs/editor.md's command table must list the same commands with the same titles.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { COMMANDS } from '../../../src/extension/commandTable';
import { REPO_ROOT } from '../../support/paths';

interface Manifest {
  activationEvents: string[];
  contributes: {
    commands: Array<{ command: string; title: string; category?: string }>;
    menus: Record<string, Array<{ command: string }>>;
    views: Record<string, Array<{ id: string }>>;
  };
}

const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as Manifest;
const readme = fs.readFileSync(path.join(REPO_ROOT, 'docs/editor.md'), 'utf8');
const table = new Map<string, string>(COMMANDS.map((c) => [c.id, c.title]));

/** The rows `| **Title** (`weave.id`) | …` of the "The VS Code extension" section of docs/editor.md. */
function readmeCommands(): Map<string, string> {
  const start = readme.indexOf('\n## The VS Code extension\n');
  assert.ok(start >= 0, 'docs/editor.md has no "The VS Code extension" section');
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end === -1 ? undefined : end);
  const rows = new Map<string, string>();
  for (const m of section.matchAll(/^\| \*\*(.+?)\*\* \(`(weave\.[\w.]+)`\) \|/gm))
    rows.set(m[2] ?? '', m[1] ?? '');
  return rows;
}

describe('the command table', () => {
  test('has each id once', () => {
    assert.equal(table.size, COMMANDS.length);
  });

  test('is what package.json contributes, with the same titles, all in the Weave category', () => {
    const contributed = new Map(manifest.contributes.commands.map((c) => [c.command, c.title]));
    assert.equal(contributed.size, manifest.contributes.commands.length, 'a command is contributed twice');
    assert.deepEqual(contributed, table);
    for (const c of manifest.contributes.commands) assert.equal(c.category, 'Weave', c.command);
  });

  test('holds every command a menu shows', () => {
    for (const [menu, items] of Object.entries(manifest.contributes.menus))
      for (const item of items) assert.ok(table.has(item.command), `${menu}: ${item.command}`);
  });

  test('activation names only commands of the table and views the manifest has', () => {
    const views = new Set(Object.values(manifest.contributes.views).flatMap((v) => v.map((x) => x.id)));
    for (const event of manifest.activationEvents) {
      const [kind, what = ''] = event.split(':');
      if (kind === 'onCommand') assert.ok(table.has(what), event);
      else if (kind === 'onView') assert.ok(views.has(what), event);
      else assert.equal(event, 'workspaceContains:.weave/specs.json');
    }
  });

  test('is the command table of docs/editor.md, with the same titles', () => {
    assert.deepEqual(readmeCommands(), table);
  });

  test('checks a folder first, then the spec file, then trust; only a command needing nothing runs without a folder', () => {
    const order = ['folder', 'specFile', 'trust'];
    for (const c of COMMANDS) {
      const needs: readonly string[] = c.needs;
      assert.deepEqual(
        needs,
        order.filter((n) => needs.includes(n)),
        c.id,
      );
      if (!needs.includes('folder')) assert.deepEqual(needs, [], `${c.id} needs something but no folder`);
    }
  });
});
