// (e2e: it starts Python.) dataset.toml's content hash: Harbor's DatasetManifest.compute_content_hash, recomputed here by Python from the
// parsed manifest (tomllib, hashlib) with Harbor's formula, so the TypeScript port is checked against the
// language Harbor is written in rather than against itself.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { renderDatasetToml } from '../../../src/core/tasks/mine/datasetFiles';

const digest = (text: string): string => createHash('sha256').update(text).digest('hex');

// The formula of harbor/models/dataset/manifest.py (compute_content_hash), in Python.
const HARBOR_HASH = `
import hashlib, re, sys, tomllib
text = open(sys.argv[1]).read() if len(sys.argv) > 1 else sys.stdin.read()
data = tomllib.loads(text)
base = ",".join(sorted(t["digest"].removeprefix("sha256:") for t in data.get("tasks", [])))
files = data.get("files", [])
if files:
    base += ";" + ",".join(sorted(f"{f['path']}:{f['digest'].removeprefix('sha256:')}" for f in files))
header = re.search(r"^# Dataset content hash.*: sha256:([0-9a-f]{64})$", text, re.M)
print(hashlib.sha256(base.encode()).hexdigest(), header.group(1) if header else "none")
`;

describe("dataset.toml's content hash", () => {
  it('is the hash Harbor computes from the manifest, whatever the order of the tasks', () => {
    // Digests chosen so that their sorted order differs from the list's order.
    const tasks = ['zeta', 'alpha', 'mid'].map((id) => ({ task: { instance_id: id }, digest: digest(id) }));
    const toml = renderDatasetToml('acme/mined', tasks, digest('metric'));
    const [computed, written] = execFileSync('python3', ['-c', HARBOR_HASH], {
      input: toml,
      encoding: 'utf8',
    })
      .trim()
      .split(' ');
    assert.match(computed ?? '', /^[0-9a-f]{64}$/);
    assert.equal(written, computed);
    const reordered = renderDatasetToml('acme/mined', [...tasks].reverse(), digest('metric'));
    assert.match(reordered, new RegExp(`sha256:${computed}`));
  });

  it('changes with any task digest or with metric.py', () => {
    const tasks = [{ task: { instance_id: 'a' }, digest: digest('a') }];
    const hashOf = (toml: string): string => /content hash.*sha256:([0-9a-f]{64})/.exec(toml)?.[1] ?? '';
    const one = hashOf(renderDatasetToml('acme/mined', tasks, digest('metric')));
    assert.notEqual(hashOf(renderDatasetToml('acme/mined', tasks, digest('metric2'))), one);
    assert.notEqual(
      hashOf(
        renderDatasetToml(
          'acme/mined',
          [{ task: { instance_id: 'a' }, digest: digest('b') }],
          digest('metric'),
        ),
      ),
      one,
    );
  });
});
