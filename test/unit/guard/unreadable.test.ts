// What the guard cannot read is refused (issue #36), each with the readable way in the reason: script -c, su -c,
// runuser -c, trap, BASH_ENV/ENV and other variables that run programs, git -c / git config of keys that run a
// program, eval of a non-literal, a Makefile or script written and run in the same command, source of /dev/stdin.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { bashParse } from '../../../src/cli/guard/bashSyntax';
import { readShell } from '../../../src/cli/guard/shellReader';
import { writesOf } from './readShell';

async function reasons(source: string): Promise<string[]> {
  return readShell(await bashParse(), source, '/w')
    .filter((e) => e.kind === 'unresolved')
    .map((e) => (e.kind === 'unresolved' ? e.how : ''));
}

describe('refused, saying how to do it readably', () => {
  test('script -c, su -c, runuser -c', async () => {
    assert.match((await reasons("script -qc 'rm t/a' /dev/null"))[0]!, /run the command itself/);
    assert.match((await reasons("su -c 'rm t/a'"))[0]!, /su -c .*run the command itself/);
    assert.match((await reasons("runuser x -c 'rm t/a'"))[0]!, /runuser -c/);
  });
  test('sudo -s CMD is read as shell code', async () => {
    assert.deepEqual(await writesOf('sudo -s rm t/a'), ['write /w/t/a']);
  });
  test('trap with code; trap - and trap -p are fine', async () => {
    assert.match((await reasons("trap 'rm t/a' EXIT"))[0]!, /trap .*run the commands directly/);
    assert.deepEqual(await writesOf('trap - EXIT; trap -p; trap "" INT'), []);
  });
  test('BASH_ENV, ENV, PROMPT_COMMAND, GIT_SSH_COMMAND; an editor that is `true` is fine', async () => {
    for (const source of [
      'BASH_ENV=/tmp/x bash -c :',
      'export ENV=/tmp/x; sh -c :',
      'env BASH_ENV=x bash -c :',
      "GIT_SSH_COMMAND='rm t/a' git fetch",
    ])
      assert.match((await reasons(source))[0] ?? '', /run the commands directly/, source);
    assert.deepEqual(await writesOf('GIT_EDITOR=true git commit'), []);
  });
  test('git -c and git config of keys that run programs; plain settings are fine', async () => {
    for (const source of [
      "git -c alias.x='!rm t/a' x",
      'git -c core.pager=x log',
      'git -c core.hooksPath=/tmp/h commit',
      'git -c core.fsmonitor=x status',
      'git --config-env=core.editor=E commit',
      "git config alias.y '!rm t/a'",
      'git config --global core.sshCommand x',
    ])
      assert.match((await reasons(source))[0] ?? '', /run the program yourself/, source);
    assert.deepEqual(await writesOf('git -c user.name=x commit -m m; git config --get core.pager'), []);
  });
  test('eval of a non-literal', async () => {
    assert.deepEqual(await writesOf('eval "$(echo rm t/a)"'), ['unresolved "$(echo rm t/a)"']);
  });
  test('a Makefile (or package.json) written then its tool run', async () => {
    const make = await reasons("cat > Makefile <<'EOF'\nall:\n\trm t/a\nEOF\nmake");
    assert.match(make[0]!, /write the file in one command and run make in the next/);
    assert.deepEqual(await reasons('echo x > build.mk; make -f build.mk'), [
      'make running recipes from a file this command writes; write the file in one command and run make in the next',
    ]);
    assert.deepEqual(await reasons('make test; echo x > src/a.js && npm test'), []);
  });
  test('sh < file, . file, source file, bash file, python file made in the same command', async () => {
    for (const source of [
      "echo 'rm t/a' > /tmp/n.sh; sh < /tmp/n.sh",
      "echo 'rm t/a' > /dev/null; echo x > /tmp/n.sh; . /tmp/n.sh",
      'printf x > /tmp/n.sh && source /tmp/n.sh',
      'printf x > /tmp/n.sh && bash /tmp/n.sh',
      'printf x > /tmp/n.py && python3 /tmp/n.py',
    ])
      assert.match((await reasons(source))[0] ?? '', /a file this command makes/, source);
  });
  test('source /dev/stdin reads the herestring, not the guard’s own input', async () => {
    assert.deepEqual(await writesOf("source /dev/stdin <<< 'rm t/a'"), ['write /w/t/a']);
  });
});
