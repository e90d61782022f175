// The guard program itself (dist/guard.js, what the installed hooks start) against the shell commands, MCP
// calls and edits that got past the pattern reader with the real Claude Code, Codex and Cursor (issue #24): each
// is a real hook event on stdin and a real exit code. Blocked: writes after `cd`, behind wrappers, inside
// compound commands, by editors, archivers, downloaders and formatters, by inline code, through an unresolvable
// target, an MCP move_file onto a test, edits of the test folder's existing helpers and of runner configs.
// Allowed: reads of the tests, running them, and edits of the code under test.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeRepo } from '../../support/gitRepo';
import { REPO_ROOT } from '../../support/paths';
import { mapLimited } from '../spec/cliRun';
import { isolateWeaveState } from '../../support/weaveState';

isolateWeaveState();

const GUARD = path.join(REPO_ROOT, 'dist/guard.js');

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runGuard(agent: string, payload: string, cwd: string): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [GUARD, '--agent', agent], { cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(payload);
  });
}

const SPECS = {
  version: 1,
  goal: 'A cached HTTP client.',
  defaults: { cwd: '.', env: {}, timeoutSeconds: 60 },
  specs: [
    {
      id: 'cache-hit',
      title: 'a repeated GET is served from the cache',
      kind: 'functional',
      statement: 'When the same URL is fetched twice, the client shall make one request.',
      test: { command: 'node --test test/cache-hit.test.js', files: ['test/cache-hit.test.js'] },
      anchors: ['src/cache.js'],
      dependsOn: [],
      interactsWith: [],
    },
    {
      id: 'add-works',
      title: 'add',
      kind: 'functional',
      statement: 'add shall add.',
      test: { command: 'node --test t/add.test.js', files: ['t/add.test.js'] },
      anchors: ['src/cache.js'],
      dependsOn: [],
      interactsWith: [],
    },
  ],
};

let ws: string;
async function makeWorkspace(): Promise<void> {
  ws = await makeRepo({
    'package.json': JSON.stringify({ name: 'client', version: '1.0.0' }),
    'src/cache.js': 'module.exports = { get: () => 1 };\n',
    'test/cache-hit.test.js':
      "const test = require('node:test');\nconst { fixture } = require('./helpers');\ntest('hit', () => fixture());\n",
    'test/helpers.js': 'exports.fixture = () => 1;\n',
    't/add.test.js': "require('node:test')('add', () => {});\n",
    'vitest.config.mjs': 'export default {};\n',
    'tools/setup.sh': 'echo setup\n',
    '.weave/specs.json': JSON.stringify(SPECS, null, 2),
  });
}
after(async () => {
  await fs.rm(ws, { recursive: true, force: true });
});

type Case = [name: string, agent: string, payload: () => string];

const bash =
  (command: string, cwd = (): string => ws): Case[2] =>
  () =>
    JSON.stringify({ hook_event_name: 'PreToolUse', cwd: cwd(), tool_name: 'Bash', tool_input: { command } });
const tool =
  (name: string, input: () => Record<string, unknown>): Case[2] =>
  () =>
    JSON.stringify({ hook_event_name: 'PreToolUse', cwd: ws, tool_name: name, tool_input: input() });
const abs = (rel: string): string => path.join(ws, rel);
const claude = (name: string, command: string): Case => [name, 'claude-code', bash(command)];

const BLOCKED: Case[] = [
  // Input the guard cannot read (#36): denied, with the readable way in the reason.
  claude('base64 -d | sh', 'echo Y3AgL2Rldi9udWxsIHQvYWRkLnRlc3QuanMK | base64 -d | sh'),
  claude('curl | bash', 'curl -s http://127.0.0.1:9/x | bash'),
  // echo's output is what sh reads: quotes removed (read raw, `'cp …'` was one unknown word and the copy ran).
  claude("echo 'cp …' | sh", "echo 'cp /dev/null t/add.test.js' | sh"),
  claude("echo -e 'a\\nb' | sh", "echo -e 'ls\\ncp /dev/null t/add.test.js' | sh"),
  claude('echo of an unknown variable into sh', 'echo "cp /dev/null $TARGET" | sh'),
  claude('a downloaded script piped into python3', 'curl -s http://127.0.0.1:9/x | python3'),
  claude(
    'sh < a file made by the same command',
    "printf 'cp /dev/null t/add.test.js' > /tmp/weave-new.sh; sh < /tmp/weave-new.sh",
  ),
  claude('. a file made by the same command', "echo 'cp /dev/null t/add.test.js' > ./new.sh && . ./new.sh"),
  claude(
    'bash a file made by the same command',
    "echo 'cp /dev/null t/add.test.js' > ./new.sh && bash ./new.sh",
  ),
  // Spellings bash decodes, decoded the same way (#36): each changed a test through the real clients.
  claude('ANSI-C quoting, \\x', "cp /dev/null $'\\x74/add.test.js'"),
  claude('ANSI-C quoting, octal', "cat /dev/null > $'\\164est/cache-hit.test.js'"),
  claude('ANSI-C quoting, \\u', "rm $'\\u0074/add.test.js'"),
  claude('an array as the command, "${a[@]}"', 'a=(sed -i s/x/y/ t/add.test.js); "${a[@]}"'),
  claude('an array as the command, ${a[*]}', 'a=(rm t/add.test.js); ${a[*]}'),
  claude('an unquoted variable split into a command', 'c="rm t/add.test.js"; $c'),
  claude('a variable built with +=', 'f=t/; f+=add.test.js; rm $f'),
  claude('~+ (the working directory)', 'rm ~+/t/add.test.js'),
  claude('~- (the previous directory)', 'cd test && cd .. && rm ~-/cache-hit.test.js'),
  claude('1<> redirection', 'cat /dev/null 1<>t/add.test.js'),
  claude('exec 3<>', 'exec 3<>t/add.test.js'),
  claude('a symlink made in the same command', "ln -s test tt && cat > tt/cache-hit.test.js <<'EOF'\nx\nEOF"),
  claude('a hard link made in the same command', 'ln t/add.test.js h.js && echo x >> h.js'),
  claude('cp -s made in the same command', 'cp -s "$PWD/t/add.test.js" s.js && echo x > s.js'),
  claude(
    'mkdir + a link inside + mv of the folder',
    'mkdir d && ln -s ../t d/l && mv d e && echo x > e/l/add.test.js',
  ),
  claude('perl -0pi -e', "perl -0pi -e 's/a/b/' t/add.test.js"),
  claude('perl -0777pi.bak', "perl -0777pi.bak -e 's/a/b/' t/add.test.js"),
  claude('curl -so', 'curl -so t/add.test.js http://127.0.0.1:9/x'),
  claude('curl -sSLo', 'curl -sSLo t/add.test.js http://127.0.0.1:9/x'),
  claude('curl -sOL in the tests', 'cd t && curl -sOL http://127.0.0.1:9/add.test.js'),
  claude('wget -qO', 'wget -qO t/add.test.js http://127.0.0.1:9/x'),
  claude('wget -qP', 'wget -qP t http://127.0.0.1:9/add.test.js'),
  // What the guard cannot read, refused with the readable way (#36).
  claude('script -c', "script -qc 'cp /dev/null t/add.test.js' /dev/null"),
  claude('su -c', "su -c 'cp /dev/null t/add.test.js'"),
  claude('runuser -c', "runuser nobody -c 'cp /dev/null t/add.test.js'"),
  claude('trap', "trap 'cp /dev/null t/add.test.js' EXIT"),
  claude('BASH_ENV', "BASH_ENV=<(echo 'cp /dev/null t/add.test.js') bash -c true"),
  claude('git -c alias.x=!…', "git -c alias.x='!cp /dev/null t/add.test.js' x"),
  claude('git -c core.pager', "git -c core.pager='cp /dev/null t/add.test.js #' log"),
  claude('git config alias then the alias', "git config alias.y '!cp /dev/null t/add.test.js' && git y"),
  claude(
    'eval in a function of a variable changed after it',
    'x=echo; f() { eval "$x"; }; x=\'cp /dev/null t/add.test.js\'; f',
  ),
  claude(
    'eval of a variable read from a herestring',
    'x=true; read -r x <<< \'cp /dev/null t/add.test.js\'; eval "$x"',
  ),
  claude(
    'a Makefile written then make',
    "printf 'all:\\n\\tcp /dev/null t/add.test.js\\n' > Makefile && make",
  ),
  claude(
    '. of an existing script rewritten by the same command',
    "echo 'cp /dev/null t/add.test.js' > tools/setup.sh && . tools/setup.sh",
  ),
  claude(
    'a script written then run by node',
    `echo "require('fs').writeFileSync('t/add'+'.test.js','')" > src/run.js && node src/run.js`,
  ),
  // What follows a heredoc's start on its line (tree-sitter-bash nests it in the heredoc).
  claude('cat <<EOF > test', "cat <<'EOF' > t/add.test.js\nx\nEOF"),
  claude('cat <<EOF | sh', "cat <<'EOF' | sh\ncp /dev/null t/add.test.js\nEOF"),
  claude('cat <<EOF && rm', "cat <<'EOF' && rm t/add.test.js\nx\nEOF"),
  claude('cd test && echo > file', "cd test && echo '// x' > cache-hit.test.js"),
  claude('cd test; echo > file', "cd test; echo '// x' > cache-hit.test.js"),
  claude('cd src && echo > ../test/file', 'cd src && echo x > ../test/cache-hit.test.js'),
  claude('cd test && cat > file <<EOF', "cd test && cat > cache-hit.test.js <<'EOF'\nx\nEOF"),
  claude('a subshell cd', '( cd test && echo > cache-hit.test.js )'),
  claude('timeout', 'timeout 5 sed -i s/a/b/ test/cache-hit.test.js'),
  claude('busybox', 'busybox sed -i s/a/b/ test/cache-hit.test.js'),
  claude('stdbuf', 'stdbuf -oL tee test/cache-hit.test.js < /dev/null'),
  claude('ionice', 'ionice -c 3 rm test/cache-hit.test.js'),
  claude('setsid', 'setsid -f truncate -s 0 test/cache-hit.test.js'),
  claude('flock', 'flock /tmp/weave.lock cp /tmp/x test/cache-hit.test.js'),
  claude('nice + nohup', 'nice -n 5 nohup rm -f test/cache-hit.test.js'),
  claude('sudo -u', 'sudo -u nobody tee test/cache-hit.test.js'),
  claude('inside if, after a cd in the condition', 'if cd test; then echo x > cache-hit.test.js; fi'),
  claude('inside for, after a cd in the body', 'for f in a; do cd test; rm cache-hit.test.js; done'),
  claude('a loop variable as the target', 'for f in test/*.test.js; do : > "$f"; done'),
  claude('pushd', 'pushd test && rm cache-hit.test.js && popd'),
  claude('env -C', 'env -C test rm cache-hit.test.js'),
  claude('eval', 'eval "rm test/cache-hit.test.js"'),
  claude('bash -c with cd', "bash -c 'cd test && rm cache-hit.test.js'"),
  claude('sh -c of a substitution', 'sh -c "$(echo rm test/cache-hit.test.js)"'),
  claude('awk -i inplace', "awk -i inplace '{print}' test/cache-hit.test.js"),
  claude('ex', "ex -sc '%d|x' test/cache-hit.test.js"),
  claude('vim', "vim -c ':wq' test/cache-hit.test.js"),
  claude('sort -o', 'sort -o test/cache-hit.test.js test/cache-hit.test.js'),
  claude('sponge', 'cat /tmp/x | sponge test/cache-hit.test.js'),
  claude('gzip', 'gzip test/cache-hit.test.js'),
  claude('tar -x into the workspace', 'tar -xf /tmp/evil.tar'),
  claude('unzip -o into the tests', 'unzip -o /tmp/evil.zip -d test'),
  claude('curl -o', 'curl -s -o test/cache-hit.test.js http://127.0.0.1:9/x'),
  claude('curl -O in the tests', 'cd test && curl -O http://127.0.0.1:9/cache-hit.test.js'),
  claude('wget -O', 'wget -O test/cache-hit.test.js http://127.0.0.1:9/x'),
  claude('chmod', 'chmod 000 test/cache-hit.test.js'),
  claude('prettier --write', 'npx prettier --write test/cache-hit.test.js'),
  claude('eslint --fix', 'npx eslint --fix test/'),
  claude('biome', 'npx @biomejs/biome format --write test'),
  claude('black', 'black test'),
  claude('ruff --fix', 'ruff check --fix test'),
  claude(
    'python in a heredoc, shutil.copy',
    "python3 - <<'EOF'\nimport shutil\nshutil.copy('/tmp/x', 'test/cache-hit.test.js')\nEOF",
  ),
  claude(
    'node in a heredoc, fs.rmSync',
    "node <<'EOF'\nrequire('fs').rmSync('test', { recursive: true })\nEOF",
  ),
  claude('python -c', `python3 -c "import shutil; shutil.copy('/tmp/x', 'test/cache-hit.test.js')"`),
  claude('node -e, fs.rmSync of the folder', `node -e "require('fs').rmSync('test', { recursive: true })"`),
  claude('cp onto a substitution', 'cp x $(echo t/add.test.js)'),
  claude('a redirection to an unknown variable', 'echo x > "$OUT"'),
  claude('find -exec sed -i', "find test -name '*.js' -exec sed -i s/a/b/ {} +"),
  claude('xargs rm', 'ls | xargs rm'),
  claude('git checkout -- test/', 'git checkout -- test/'),
  claude('git stash', 'git stash'),
  // Commands that move HEAD or bring another commit's files: every protected file may change.
  claude('git merge', 'git merge feature'),
  claude('git pull', 'git pull --rebase origin main'),
  claude('git rebase', 'git rebase -i HEAD~3'),
  claude('git cherry-pick', 'git cherry-pick abc123'),
  claude('git revert', 'git revert --no-edit HEAD'),
  claude('git read-tree', 'git read-tree -u --reset HEAD'),
  claude('git checkout of a branch', 'git checkout feature'),
  claude('git switch', 'git switch -c other origin/other'),
  claude('git stash pop', 'git stash pop'),
  claude('git -C . stash apply', 'git -C . stash apply stash@{1}'),
  claude('mv a test away', 'mv test/cache-hit.test.js test/cache-hit.test.js.bak'),
  claude(
    'an unknown program given a test (deny by default)',
    'python3 tools/rewrite.py test/cache-hit.test.js',
  ),
  claude('rm -rf .', 'rm -rf .'),
  claude('an existing helper in the tests folder', 'echo x >> test/helpers.js'),
  claude('a runner config', "sed -i 's/{}/{ test: {} }/' vitest.config.mjs"),
  claude('a new conftest.py', 'echo "import pytest" > conftest.py'),
  [
    'MCP move_file onto a test',
    'claude-code',
    tool('mcp__filesystem__move_file', () => ({
      source: '/tmp/other.js',
      destination: abs('test/cache-hit.test.js'),
    })),
  ],
  [
    'MCP move_file of a test away',
    'claude-code',
    tool('mcp__filesystem__move_file', () => ({
      source: abs('test/cache-hit.test.js'),
      destination: '/tmp/x.js',
    })),
  ],
  [
    'MCP write_file',
    'claude-code',
    tool('mcp__filesystem__write_file', () => ({ path: abs('test/cache-hit.test.js'), content: '' })),
  ],
  [
    'Edit of an existing helper',
    'claude-code',
    tool('Edit', () => ({ file_path: abs('test/helpers.js'), old_string: '1', new_string: '2' })),
  ],
  [
    'Write of a runner config',
    'claude-code',
    tool('Write', () => ({ file_path: abs('vitest.config.mjs'), content: '' })),
  ],
  [
    'Codex apply_patch on a helper',
    'codex',
    tool('apply_patch', () => ({
      command: '*** Begin Patch\n*** Update File: test/helpers.js\n@@\n-a\n+b\n*** End Patch',
    })),
  ],
  ['Codex shell: cd then redirect', 'codex', bash("cd test && echo '// x' > cache-hit.test.js")],
  [
    'Cursor beforeShellExecution: cd then redirect',
    'cursor',
    () =>
      JSON.stringify({
        hook_event_name: 'beforeShellExecution',
        command: 'cd test && echo > cache-hit.test.js',
        cwd: ws,
        workspace_roots: [ws],
      }),
  ],
];

const ALLOWED: Case[] = [
  claude('sh --version', 'sh --version'),
  claude('python3 --version', 'python3 --version'),
  claude('a piped shell whose input is known', "echo 'echo hi' | sh"),
  claude('cat a test', 'cat test/cache-hit.test.js'),
  claude('cd, cat, grep', 'cd test && cat cache-hit.test.js | grep hit'),
  claude(
    'less, grep -r, rg, head, tail, wc, diff',
    'less test/helpers.js; grep -rn hit test/; rg hit test; head -5 test/cache-hit.test.js; tail -n 2 t/add.test.js; wc -l test/*.js; diff test/cache-hit.test.js /tmp/x',
  ),
  claude(
    'git diff, log, show, status',
    'git diff -- test/ && git log -p test/cache-hit.test.js && git show HEAD:test/cache-hit.test.js && git status',
  ),
  claude('node --test', 'node --test test/'),
  claude('npx vitest run', 'timeout 60 npx vitest run test/cache-hit.test.js'),
  claude('pytest', 'pytest test/'),
  claude('npm test', 'npm test'),
  claude('make, pnpm and yarn targets named test', 'make test && pnpm test && yarn test'),
  claude('running a spec test file', 'node test/cache-hit.test.js 2>&1 | tee /tmp/weave-log.txt'),
  claude('a source edit after cd', 'cd src && echo "module.exports = {};" > cache.js'),
  claude('sed -i on the code', 'sed -i s/1/2/ src/cache.js'),
  claude('prettier --write on the code', 'npx prettier --write src/'),
  claude('prettier --check and eslint on the tests', 'npx prettier --check test/ && npx eslint test/'),
  claude('echo a test path', 'echo test/cache-hit.test.js'),
  claude('cp a test elsewhere', 'cp test/cache-hit.test.js /tmp/copy.js'),
  claude('python -c without a protected name', 'python3 -c "print(1)"'),
  claude('mkdir in the tests folder', 'mkdir -p test/fixtures'),
  claude('find without actions', "find test -name '*.js'"),
  claude('a loop over the code', 'for f in src/*.js; do wc -l "$f"; done'),
  claude('git add and commit', 'git add . && git commit -m wip'),
  claude('tar -c of the tests', 'tar -czf /tmp/backup.tgz test'),
  claude('curl -o elsewhere', 'curl -s -o /tmp/x http://127.0.0.1:9/x'),
  claude('a redirection to a variable assigned here', 'OUT=/tmp/weave-out.txt; echo x > "$OUT"'),
  claude('stderr duplication', 'node -e "console.log(1)" 2>&1 >/dev/null'),
  claude('a literal array run as the command', 'a=(ls test); "${a[@]}"'),
  claude('git -c of a plain setting', 'git -c user.name=x -c user.email=x@y commit -q -m wip'),
  claude('an editor that accepts the message', 'GIT_EDITOR=true git commit -q -m wip'),
  claude('curl -sSLo elsewhere', 'curl -sSLo /tmp/weave-x http://127.0.0.1:9/x'),
  claude('a herestring and trap reset', 'cat <<< hi; trap - EXIT'),
  claude('a link made then read through', 'ln -s test tt && cat tt/cache-hit.test.js'),
  [
    'Write of a new test of its own',
    'claude-code',
    tool('Write', () => ({ file_path: abs('test/extra.test.js'), content: '' })),
  ],
  [
    'Write of a new file in the tests folder',
    'claude-code',
    tool('Write', () => ({ file_path: abs('test/fixtures/data.json'), content: '' })),
  ],
  [
    'Edit of the code',
    'claude-code',
    tool('Edit', () => ({ file_path: abs('src/cache.js'), old_string: '1', new_string: '2' })),
  ],
  [
    'MCP read_file of a test',
    'claude-code',
    tool('mcp__filesystem__read_file', () => ({ path: abs('test/cache-hit.test.js') })),
  ],
  [
    'MCP move_file within the code',
    'claude-code',
    tool('mcp__filesystem__move_file', () => ({
      source: abs('src/cache.js'),
      destination: abs('src/lru.js'),
    })),
  ],
];

const results = new Map<string, Ran>();
before(
  async () => {
    await makeWorkspace();
    // Spawned a few at a time (each is a real process, as an agent starts it), then asserted one by one.
    const all = [...BLOCKED, ...ALLOWED];
    const ran = await mapLimited(all, 4, ([, agent, payload]) => runGuard(agent, payload(), ws));
    all.forEach(([name], i) => results.set(name, ran[i]!));
    // About 90 processes: minutes when other work shares the 2 cores, so more than the runner's 5-minute default.
  },
  { timeout: 1_200_000 },
);

describe('dist/guard.js blocks what the shell would write to protected files', () => {
  for (const [name, agent] of BLOCKED) {
    test(`blocked: ${name}`, () => {
      const r = results.get(name)!;
      if (agent === 'cursor') {
        assert.equal(r.code, 0, r.stderr);
        assert.equal((JSON.parse(r.stdout) as { permission: string }).permission, 'deny', r.stdout);
      } else {
        assert.equal(r.code, 2, `${r.stdout}${r.stderr}`);
        assert.match(r.stderr, /Weave guard blocked this/);
      }
    });
  }
});

describe('dist/guard.js allows reads, test runs and edits of the code', () => {
  for (const [name] of ALLOWED) {
    test(`allowed: ${name}`, () => {
      const r = results.get(name)!;
      assert.deepEqual({ code: r.code, stderr: r.stderr }, { code: 0, stderr: '' });
    });
  }
});

describe('the reason says what the guard saw', () => {
  test('an unresolvable target is named as one', () => {
    assert.match(
      results.get('cp onto a substitution')!.stderr,
      /cannot resolve.*\$\(echo t\/add\.test\.js\)/s,
    );
  });
  test('a write after cd names the test file and its spec', () => {
    assert.match(
      results.get('cd test && echo > file')!.stderr,
      /test\/cache-hit\.test\.js of spec cache-hit/,
    );
  });
  test('what cannot be read is refused with the readable way', () => {
    assert.match(results.get('su -c')!.stderr, /su -c .*run the command itself/);
    assert.match(
      results.get('a Makefile written then make')!.stderr,
      /write the file in one command and run make/,
    );
    assert.match(results.get('git -c alias.x=!…')!.stderr, /git -c alias\.x .*run the program yourself/);
    assert.match(results.get('trap')!.stderr, /run the commands directly/);
  });
  test('a write through a link made in the command names what the link stands for', () => {
    assert.match(results.get('a symlink made in the same command')!.stderr, /test\/cache-hit\.test\.js/);
  });
  test('a helper is named as the existing helper it is', () => {
    assert.match(results.get('Edit of an existing helper')!.stderr, /test\/helpers\.js, an existing helper/);
  });
});
