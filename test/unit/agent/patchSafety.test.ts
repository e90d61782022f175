// What a patch may never carry into the user's workspace, read from patch text as `git diff --binary` writes it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyRefusal } from '../../../src/core/agent/applyPolicy';
import { patchHazards } from '../../../src/core/agent/patchSafety';

/** `git diff --cached --binary` of: .weave/cache/c.json, cfg.js -> /etc/passwd, in.js -> src/a.js, up.js -> ../../x. */
const PATCH = [
  'diff --git a/.weave/cache/c.json b/.weave/cache/c.json',
  'new file mode 100644',
  'index 0000000..d00491f',
  '--- /dev/null',
  '+++ b/.weave/cache/c.json',
  '@@ -0,0 +1 @@',
  '+1',
  'diff --git a/cfg.js b/cfg.js',
  'new file mode 120000',
  'index 0000000..3594e94',
  '--- /dev/null',
  '+++ b/cfg.js',
  '@@ -0,0 +1 @@',
  '+/etc/passwd',
  '\\ No newline at end of file',
  'diff --git a/in.js b/in.js',
  'new file mode 120000',
  'index 0000000..cfcb594',
  '--- /dev/null',
  '+++ b/in.js',
  '@@ -0,0 +1 @@',
  '+src/a.js',
  '\\ No newline at end of file',
  'diff --git a/up.js b/up.js',
  'new file mode 120000',
  'index 0000000..fb79940',
  '--- /dev/null',
  '+++ b/up.js',
  '@@ -0,0 +1 @@',
  '+../../x',
  '\\ No newline at end of file',
  '',
].join('\n');

test('Weave state and links out of the workspace are hazards; a link inside and plain files are not', () => {
  assert.deepEqual(
    patchHazards(PATCH).map((h) => h.path),
    ['.weave/cache/c.json', 'cfg.js', 'up.js'],
  );
  assert.match(patchHazards(PATCH)[1]?.why ?? '', /symbolic link to \/etc\/passwd/);
});

test('a plain source change, and a file whose content merely looks like a path, are not hazards', () => {
  const plain = [
    'diff --git a/src/a.js b/src/a.js',
    'index d00491f..0cfbf08 100644',
    '--- a/src/a.js',
    '+++ b/src/a.js',
    '@@ -1 +1 @@',
    '-1',
    '+/etc/passwd',
    '',
  ].join('\n');
  assert.deepEqual(patchHazards(plain), []);
});

test('the apply policy refuses a result whose patch carries a hazard, naming the file', () => {
  const refusal = applyRefusal({
    patch: PATCH,
    tamperedSpecs: [],
    testInfrastructure: [],
    after: [],
    findings: [],
  });
  assert.match(refusal ?? '', /refused: the patch .weave\/cache\/c.json changes Weave's own state/);
  assert.match(refusal ?? '', /cfg.js is a symbolic link to \/etc\/passwd, outside the workspace/);
});

/** One `git diff` entry adding `file` with `lines`. */
function added(file: string, lines: readonly string[]): string {
  return [
    `diff --git a/${file} b/${file}`,
    'new file mode 100644',
    'index 0000000..1111111',
    '--- /dev/null',
    `+++ b/${file}`,
    `@@ -0,0 +1,${lines.length} @@`,
    ...lines.map((l) => `+${l}`),
    '',
  ].join('\n');
}

test('files whose content runs outside the sandbox are hazards: agent hooks, git hooks, tasks, direnv', () => {
  const patch = [
    added('.claude/settings.json', ['{"hooks":{"Stop":[{"hooks":[{"type":"command","command":"sh x"}]}]}}']),
    added('.vscode/tasks.json', ['{"tasks":[{"command":"sh x","runOptions":{"runOn":"folderOpen"}}]}']),
    added('.husky/pre-commit', ['sh x']),
    added('sub/.envrc', ['sh x']),
    added('.cursor/hooks.json', ['{}']),
    added('.codex/config.toml', ['notify = ["sh", "x"]']),
    added('.devcontainer/devcontainer.json', ['{"initializeCommand":"sh x"}']),
    added('.mcp.json', ['{"mcpServers":{"x":{"command":"sh"}}}']),
    added('.git/hooks/pre-commit', ['sh x']),
  ].join('');
  const hazards = patchHazards(patch);
  assert.deepEqual(
    hazards.map((h) => h.path),
    [
      '.claude/settings.json',
      '.vscode/tasks.json',
      '.husky/pre-commit',
      'sub/.envrc',
      '.cursor/hooks.json',
      '.codex/config.toml',
      '.devcontainer/devcontainer.json',
      '.mcp.json',
      '.git/hooks/pre-commit',
    ],
  );
  assert.match(hazards[1]?.why ?? '', /folderOpen/);
  assert.match(hazards[0]?.why ?? '', /never applied$/);
});

test('.vscode/settings.json is a hazard only where a changed hunk sets something the editor runs', () => {
  const harmless = added('.vscode/settings.json', [
    '{',
    '  "editor.tabSize": 2,',
    '  "files.exclude": {}',
    '}',
  ]);
  assert.deepEqual(patchHazards(harmless), []);
  const terminal = added('.vscode/settings.json', [
    '{',
    '  "terminal.integrated.env.linux": {"X": "1"}',
    '}',
  ]);
  assert.match(patchHazards(terminal)[0]?.why ?? '', /"terminal\.integrated\.env\.linux"/);
  const interpreter = added('.vscode/settings.json', ['{"python.defaultInterpreterPath": "./x"}']);
  assert.match(patchHazards(interpreter)[0]?.why ?? '', /"python\.defaultInterpreterPath"/);
  // A plain source file and a README naming those folders are not hazards.
  assert.deepEqual(patchHazards(added('docs/claude.md', ['see .claude/settings.json'])), []);
});

test('apply refuses (and ranking disqualifies) a result whose patch adds an agent hook', () => {
  const refusal = applyRefusal({
    patch: added('.claude/settings.json', ['{"hooks":{}}']),
    tamperedSpecs: [],
    testInfrastructure: [],
    after: [],
    findings: [],
  });
  assert.match(
    refusal ?? '',
    /refused: the patch .claude\/settings.json is under .claude\/, whose files start commands outside the sandbox/,
  );
});
