// The repository list of `weave mine` and its partition into shards: what each line means, located errors,
// and shards that cover every repository exactly once.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MineInputError, parseRepositoryList } from '../../../src/core/tasks/mine/repoList';
import { parseShard, shardOf } from '../../../src/core/tasks/mine/mine';

describe('the repository list', () => {
  it('reads a source, an optional range and subfolder, and skips comments and blank lines', () => {
    const entries = parseRepositoryList(
      [
        '# mined for the paper',
        '',
        'https://github.com/acme/widgets.git v1.0..main   # the 1.x line',
        'git@github.com:acme/tools.git packages/cli',
        '../local/repo',
      ].join('\n'),
      '/lists/repos.txt',
    );
    assert.deepEqual(
      entries.map(({ source, range, subdir, at }) => ({ source, range, subdir, at })),
      [
        {
          source: 'https://github.com/acme/widgets.git',
          range: 'v1.0..main',
          subdir: '',
          at: '/lists/repos.txt:3',
        },
        {
          source: 'git@github.com:acme/tools.git',
          range: undefined,
          subdir: 'packages/cli',
          at: '/lists/repos.txt:4',
        },
        { source: '/local/repo', range: undefined, subdir: '', at: '/lists/repos.txt:5' },
      ],
    );
    assert.match(entries[0]?.key ?? '', /^widgets-[0-9a-f]{8}$/);
    assert.match(entries[1]?.key ?? '', /^tools-packages-cli-[0-9a-f]{8}$/);
  });

  it('gives the same key to the same line and different keys to different lines', () => {
    const [a] = parseRepositoryList('repo A..B', '/x/r.txt');
    const [b] = parseRepositoryList('repo A..B', '/y/other.txt');
    const [c] = parseRepositoryList('repo C..D', '/x/r.txt');
    assert.equal(a?.key, b?.key);
    assert.notEqual(a?.key, c?.key);
  });

  it('refuses a word that is neither range nor folder, a folder outside the repository, and repeats, with the line', () => {
    assert.throws(
      () => parseRepositoryList('repo sub extra', 'r.txt'),
      (e: Error) => e instanceof MineInputError && /r\.txt:1: 'extra'/.test(e.message),
    );
    assert.throws(() => parseRepositoryList('\nrepo /etc', 'r.txt'), /r\.txt:2: the subfolder '\/etc'/);
    assert.throws(
      () => parseRepositoryList('repo\nrepo', 'r.txt'),
      /r\.txt:2: the same repository line as r\.txt:1/,
    );
    assert.throws(() => parseRepositoryList('# nothing\n', 'r.txt'), /lists no repository/);
  });
});

describe('shards', () => {
  it('reads K/N and refuses what is not a shard', () => {
    assert.deepEqual(parseShard('2/4'), { index: 2, count: 4 });
    for (const bad of ['0/4', '5/4', '1/0', '1', 'a/b', '1/2/3'])
      assert.throws(() => parseShard(bad), MineInputError, bad);
  });

  it('puts every repository in exactly one shard, the same one every time', () => {
    const entries = parseRepositoryList(Array.from({ length: 7 }, (_, i) => `repo${i}`).join('\n'), 'r.txt');
    const shards = [1, 2, 3].map((index) => shardOf(entries, { index, count: 3 }).map((e) => e.line));
    assert.deepEqual(shards, [
      ['repo0', 'repo3', 'repo6'],
      ['repo1', 'repo4'],
      ['repo2', 'repo5'],
    ]);
  });
});
