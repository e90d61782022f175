// The job files `weave mine --emit` writes: a Kubernetes Indexed Job of the right shape, and Slurm scripts whose
// array covers every shard and whose merge waits for the array (the real Slurm run is the e2e test's).
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { emitJobs } from '../../../src/core/tasks/mine/emitJobs';

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-emit-'));
const options = {
  weaveCommand: 'weave',
  reposFile: '/data/repos.txt',
  outDir: path.join(scratch, 'out'),
  cacheDir: '/data/cache',
  shards: 4,
  name: 'acme/mined',
};

describe('weave mine --emit', () => {
  after(() => fs.rmSync(scratch, { recursive: true, force: true }));

  it('writes a Kubernetes Indexed Job (YAML in its JSON form) with one completion per shard', async () => {
    const [file] = await emitJobs('k8s', { ...options, image: 'registry.example/weave:1' });
    const job = JSON.parse(fs.readFileSync(file as string, 'utf8')) as {
      apiVersion: string;
      kind: string;
      spec: {
        completionMode: string;
        completions: number;
        parallelism: number;
        template: {
          spec: { restartPolicy: string; containers: Array<{ image: string; command: string[] }> };
        };
      };
    };
    assert.equal(job.apiVersion, 'batch/v1');
    assert.equal(job.kind, 'Job');
    assert.equal(job.spec.completionMode, 'Indexed');
    assert.equal(job.spec.completions, 4);
    assert.equal(job.spec.parallelism, 4);
    assert.equal(job.spec.template.spec.restartPolicy, 'Never');
    const [container] = job.spec.template.spec.containers;
    assert.equal(container?.image, 'registry.example/weave:1');
    assert.deepEqual(container?.command.slice(0, 2), ['sh', '-c']);
    assert.match(container?.command[2] ?? '', /--shard "\$\(\(JOB_COMPLETION_INDEX \+ 1\)\)\/4"/);
    assert.match(container?.command[2] ?? '', /--name acme\/mined/);
  });

  it('writes an sbatch array over the shards and a merge job held until the whole array succeeded', async () => {
    const [submit, array, merge] = await emitJobs('slurm', options);
    const arrayText = fs.readFileSync(array as string, 'utf8');
    assert.match(arrayText, /^#SBATCH --array=1-4$/m);
    assert.match(arrayText, /--shard "\$SLURM_ARRAY_TASK_ID\/4"/);
    // Each array task writes the shard output the merge job reads.
    assert.ok(arrayText.includes(`--out ${path.join(options.outDir, 'shards')}/"$SLURM_ARRAY_TASK_ID"`));
    const mergeText = fs.readFileSync(merge as string, 'utf8');
    for (const shard of [1, 2, 3, 4])
      assert.ok(mergeText.includes(path.join(options.outDir, 'shards', String(shard))));
    const submitText = fs.readFileSync(submit as string, 'utf8');
    assert.match(submitText, /sbatch --parsable --dependency=afterok:"\$array"/);
    assert.equal(fs.statSync(submit as string).mode & 0o111, 0o111);
  });

  it("passes the model's flags to every shard (Slurm and Kubernetes), quoted for sh", async () => {
    const mineArgs = ['--model', 'gpt 4.1', '--base-url', 'http://127.0.0.1:8000/v1', '--max-specs', '2'];
    const [, array] = await emitJobs('slurm', { ...options, mineArgs });
    assert.match(
      fs.readFileSync(array as string, 'utf8'),
      / --model 'gpt 4\.1' --base-url http:\/\/127\.0\.0\.1:8000\/v1 --max-specs 2\n/,
    );
    const [file] = await emitJobs('k8s', { ...options, mineArgs });
    const job = JSON.parse(fs.readFileSync(file as string, 'utf8')) as {
      spec: { template: { spec: { containers: Array<{ command: string[] }> } } };
    };
    assert.match(
      job.spec.template.spec.containers[0]?.command[2] ?? '',
      / --model 'gpt 4\.1' .* --max-specs 2$/,
    );
  });
});
