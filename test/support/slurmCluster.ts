// A real one-node Slurm on this machine for the tests of `weave mine`'s jobs: Debian's slurmctld, slurmd and
// munge (installed by test/slurm/install-slurm.sh when missing), started on localhost as root with every state,
// spool, pid, log and socket path in a scratch folder, and stopped by their pid files. Nothing is skipped: a
// machine where Slurm cannot be installed or started fails the test with the reason.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from './paths';
import { until } from './polling';

export interface SlurmCluster {
  /** SLURM_CONF and the rest of the environment the Slurm commands need. */
  env: NodeJS.ProcessEnv;
  dir: string;
  stop(): void;
}

const INSTALL_SCRIPT = path.join(REPO_ROOT, 'test', 'slurm', 'install-slurm.sh');

export async function startSlurm(): Promise<SlurmCluster> {
  const installed = spawnSync('sh', [INSTALL_SCRIPT], { encoding: 'utf8' });
  if (installed.status !== 0)
    throw new Error(
      `Slurm could not be installed (${INSTALL_SCRIPT}): ${installed.stderr || installed.stdout}`,
    );
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-slurm-'));
  fs.chmodSync(dir, 0o755);
  const host = os.hostname().split('.')[0] as string;
  const munge = path.join(dir, 'munge');
  fs.mkdirSync(munge, { mode: 0o700 });
  for (const sub of ['state', 'spool']) fs.mkdirSync(path.join(dir, sub));
  const key = path.join(munge, 'munge.key');
  // The key stays in a private folder; the socket's folder must be searchable by every user that authenticates.
  const socketDir = path.join(dir, 'munge-socket');
  fs.mkdirSync(socketDir, { mode: 0o755 });
  const socket = path.join(socketDir, 'munge.socket');
  execFileSync('mungekey', ['-c', '-k', key]);
  // munged refuses to run as root; its own user owns its folders.
  execFileSync('chown', ['-R', 'munge:munge', munge, socketDir]);
  const pids = {
    munged: path.join(munge, 'munged.pid'),
    slurmctld: path.join(dir, 'slurmctld.pid'),
    slurmd: path.join(dir, 'slurmd.pid'),
  };
  const conf = path.join(dir, 'slurm.conf');
  const ports = 20000 + (process.pid % 20000);
  fs.writeFileSync(
    conf,
    [
      'ClusterName=weave-test',
      `SlurmctldHost=${host}(127.0.0.1)`,
      `SlurmctldPort=${ports}`,
      `SlurmdPort=${ports + 1}`,
      'SlurmUser=root',
      'SlurmdUser=root',
      'AuthType=auth/munge',
      `AuthInfo=socket=${socket}`,
      'CredType=cred/munge',
      'ProctrackType=proctrack/linuxproc',
      'TaskPlugin=task/none',
      'SelectType=select/cons_tres',
      'SelectTypeParameters=CR_CPU',
      'SchedulerType=sched/backfill',
      'MpiDefault=none',
      'ReturnToService=2',
      'JobCompType=jobcomp/none',
      'AccountingStorageType=accounting_storage/none',
      `StateSaveLocation=${path.join(dir, 'state')}`,
      `SlurmdSpoolDir=${path.join(dir, 'spool')}`,
      `SlurmctldPidFile=${pids.slurmctld}`,
      `SlurmdPidFile=${pids.slurmd}`,
      `SlurmctldLogFile=${path.join(dir, 'slurmctld.log')}`,
      `SlurmdLogFile=${path.join(dir, 'slurmd.log')}`,
      `NodeName=${host} NodeAddr=127.0.0.1 CPUs=${os.availableParallelism()} State=UNKNOWN`,
      'PartitionName=main Nodes=ALL Default=YES MaxTime=INFINITE State=UP',
      '',
    ].join('\n'),
  );
  const env = { ...process.env, SLURM_CONF: conf };
  const stop = (): void => {
    for (const pidFile of [pids.slurmd, pids.slurmctld, pids.munged]) {
      const pid = Number(fs.existsSync(pidFile) ? fs.readFileSync(pidFile, 'utf8').trim() : 'NaN');
      if (Number.isInteger(pid)) {
        try {
          process.kill(pid, 'SIGTERM');
        } catch {
          // already gone
        }
      }
    }
  };
  const started = (command: string, args: string[]): void => {
    const run = spawnSync(command, args, { env, encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`${command} did not start: ${run.stderr}`);
  };
  try {
    started('runuser', [
      '-u',
      'munge',
      '--',
      'munged',
      `--key-file=${key}`,
      `--socket=${socket}`,
      `--pid-file=${pids.munged}`,
      `--log-file=${path.join(munge, 'munged.log')}`,
      `--seed-file=${path.join(munge, 'munged.seed')}`,
    ]);
    started('slurmctld', ['-f', conf, '-c']);
    started('slurmd', ['-f', conf]);
    await until(
      `the Slurm node ${host} idle (logs in ${dir})`,
      () => /idle/.test(spawnSync('sinfo', ['-h', '-o', '%T'], { env, encoding: 'utf8' }).stdout),
      30_000,
    );
  } catch (error) {
    stop();
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
    throw error;
  }
  return {
    env,
    dir,
    stop: () => {
      stop();
      // The daemons may still be writing their logs as they exit: retry the removal.
      fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
    },
  };
}
