import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import os from 'node:os';
import {
  PathScrubber,
  containsSecret,
  isSecretFileName,
  redactSecrets,
  repoNameFromRemote,
} from '../../../src/core/tasks/export/hygiene';
import { filesTouchedBy, parsePredictions } from '../../../src/core/tasks/predictions';
import { parseEvalLog } from '../../../src/core/tasks/run/evalLog';
import type { TaskSpec } from '../../../src/core/tasks/taskFormat';

describe('bench hygiene', () => {
  it('knows secret file names', () => {
    for (const name of [
      '.env',
      'config/.env.production',
      'prod.env',
      'tls/server.pem',
      'a.key',
      'id_rsa',
      'id_ed25519.pub',
      'credentials.json',
      'secrets.yaml',
    ]) {
      assert.equal(isSecretFileName(name), true, name);
    }
    for (const name of ['src/env.js', 'environment.ts', 'keys.js', 'README.md', 'monkey.txt']) {
      assert.equal(isSecretFileName(name), false, name);
    }
  });

  it('knows key-like content, and leaves ordinary code alone', () => {
    // Every kind is covered in test/unit/secrets; here the shapes the export met first.
    const key = ['sk-', 'proj-', 'abcdefghijklmnopqrstuvwx'].join('');
    assert.equal(containsSecret(`const k = "${key}";`), true);
    assert.equal(containsSecret(['AKIA', 'Z7QRSTUVWX2345YZ'].join('')), true);
    assert.equal(containsSecret(['-----BEGIN OPENSSH ', 'PRIVATE KEY-----\n'].join('')), true);
    assert.equal(containsSecret("headers: { Authorization: 'Bearer s3cret' } // sk-short"), false);
    assert.equal(redactSecrets(`key ${key} here`), 'key [redacted] here');
  });

  it('derives owner/name from remotes and drops credentials', () => {
    assert.equal(repoNameFromRemote('https://user:tok@github.com/acme/widgets.git\n'), 'acme/widgets');
    assert.equal(repoNameFromRemote('git@github.com:acme/widgets.git'), 'acme/widgets');
    assert.equal(repoNameFromRemote('ssh://git@host:2222/team/x'), 'team/x');
  });

  it('scrubs named roots, then the temp dir and home, at path boundaries only', () => {
    const scrubber = new PathScrubber([{ dir: '/work/ws', replacement: '.' }]);
    assert.equal(scrubber.scrub('open /work/ws/src/a.js and /work/wsx'), 'open ./src/a.js and /work/wsx');
    assert.equal(scrubber.scrub(`${os.homedir()}/.cache/x`), '~/.cache/x');
    assert.equal(scrubber.scrub(`${os.tmpdir()}/weave-1/y`), '$TMPDIR/weave-1/y');
  });
});

describe('predictions and eval logs', () => {
  it('reads JSONL with line-numbered problems, and JSON arrays', () => {
    const { predictions, problems } = parsePredictions(
      [
        '{"instance_id":"a","model_name_or_path":"m","model_patch":"x"}',
        '',
        'nope',
        '{"instance_id":"a","model_patch":""}',
        '{"model_patch":""}',
      ].join('\n'),
      'p.jsonl',
    );
    assert.deepEqual(
      predictions.map((p) => [p.instance_id, p.line]),
      [['a', 1]],
    );
    assert.deepEqual(
      problems.map((p) => p.line),
      [3, 4, 5],
    );
    assert.match(problems[1]?.message ?? '', /a second prediction for a \(the first, line 1, is used\)/);
    assert.equal(
      parsePredictions('[{"instance_id":"b","model_patch":null}]', 'p.json').predictions[0]?.model_patch,
      null,
    );
  });

  it('lists the files a patch touches, not removed lines that look like headers', () => {
    const patch = [
      'diff --git a/x.js b/y.js',
      '--- a/x.js',
      '+++ b/y.js',
      '@@ -1,2 +1,1 @@',
      '--- a comment line',
      ' keep',
      '',
    ].join('\n');
    assert.deepEqual(filesTouchedBy(patch), ['x.js', 'y.js']);
  });

  it('parses eval.sh markers into verdicts, with blocking and interrupted runs', () => {
    const spec = (id: string, dependsOn: string[] = []): TaskSpec => ({
      id,
      title: id,
      kind: 'functional',
      statement: '',
      anchors: [],
      dependsOn,
      interactsWith: [],
      test: { command: 'x', files: [], cwd: '.', env: {}, timeoutSeconds: 5 },
    });
    const log = [
      '>>>>> WEAVE[] PATCH method=git-apply-3way',
      '>>>>> WEAVE[] SPEC START a',
      'ℹ tests 1',
      'ℹ pass 0',
      'ℹ fail 1',
      '<<<<< WEAVE[] SPEC END a exit=1 timed_out=0 seconds=0',
      '>>>>> WEAVE[] SPEC START b',
      '<<<<< WEAVE[] SPEC END b exit=1 timed_out=0 seconds=0',
      '>>>>> WEAVE[] SPEC START c',
      'ℹ tests 0',
      'ℹ pass 0',
      'ℹ fail 0',
      '<<<<< WEAVE[] SPEC END c exit=0 timed_out=0 seconds=0',
      '>>>>> WEAVE[] SPEC START d',
      'still going',
    ].join('\n');
    const parsed = parseEvalLog(
      log,
      [spec('a'), spec('b', ['a']), spec('c'), spec('d'), spec('e')],
      '',
      'task timed out after 9 s',
    );
    assert.equal(parsed.patchMethod, 'git-apply-3way');
    assert.equal(parsed.specs.a?.verdict, 'fail');
    assert.equal(parsed.specs.b?.verdict, 'blocked');
    assert.equal(parsed.specs.c?.verdict, 'error');
    assert.match(parsed.specs.c?.reason ?? '', /ran no test/);
    assert.equal(parsed.specs.d?.reason, 'task timed out after 9 s');
    assert.equal(parsed.specs.e?.verdict, 'error');
    assert.equal(parsed.finished, false);
  });
});
