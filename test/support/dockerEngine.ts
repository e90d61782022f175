// A private Docker engine for one test file: Debian's dockerd started as root with its exec root and socket in a
// scratch folder, no bridge and no iptables rules, so nothing it runs can reach a network. Its data root is kept
// in the image cache (one engine at a time: a lock file), so the base images exported Dockerfiles name — imported
// from the rootfs tarballs test/docker/install-docker.sh caches — are imported once, not on every run (importing
// and deleting ~700 MB of layers costs minutes on a loaded CI machine). stop() removes the task images and
// containers the run made, ends dockerd (then its whole process group: containerd, shims) and the scratch folder.
// Missing tools are an error, never a skip: CI installs them through .ci/run.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { until } from './polling';
import { REPO_ROOT } from './paths';

export interface DockerEngine {
  /** unix://…/docker.sock: what DOCKER_HOST must be for the CLI to reach this engine. */
  host: string;
  stop(): Promise<void>;
}

/** The base images and the cached root file systems they are imported from (install-docker.sh writes them). */
export const BASE_IMAGES: ReadonlyArray<{ tag: string; tarball: string }> = [
  { tag: 'node:22-bookworm', tarball: 'node-22-bookworm.tar' },
  { tag: 'python:3.11-slim', tarball: 'python-3.11-slim.tar' },
];

const START_TIMEOUT_MS = 60_000;
const IMPORT_TIMEOUT_MS = 180_000;
const STOP_GRACE_MS = 20_000;
const INSTALL_HINT = `run ${path.join(REPO_ROOT, 'test/docker/install-docker.sh')} (as root)`;

export function imageCacheDir(): string {
  return process.env.WEAVE_DOCKER_IMAGES ?? path.join(os.homedir(), '.cache/weave/docker-images');
}

/** Starts the engine, waits until it answers and imports the base images; sets DOCKER_HOST for this process. */
export async function startDockerEngine(): Promise<DockerEngine> {
  for (const tool of ['dockerd', 'docker']) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0)
      throw new Error(`${tool} is not installed: ${INSTALL_HINT}`);
  }
  const cache = imageCacheDir();
  for (const image of BASE_IMAGES) {
    if (!fs.existsSync(path.join(cache, image.tarball)))
      throw new Error(`${image.tag}: ${path.join(cache, image.tarball)} is missing: ${INSTALL_HINT}`);
  }
  const release = await takeLock(path.join(cache, 'engine.lock'));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'weave-dockerd-'));
  const host = `unix://${dir}/docker.sock`;
  const log = fs.openSync(path.join(dir, 'dockerd.log'), 'w');
  const dockerd = spawn(
    'dockerd',
    [
      '--bridge=none',
      '--iptables=false',
      '--ip-masq=false',
      '--data-root',
      path.join(cache, 'engine'),
      '--exec-root',
      path.join(dir, 'exec'),
      '--pidfile',
      path.join(dir, 'dockerd.pid'),
      '-H',
      host,
    ],
    { detached: true, stdio: ['ignore', log, log] },
  );
  fs.closeSync(log);
  const exited = new Promise<void>((resolve) => dockerd.once('exit', () => resolve()));
  const env = { ...process.env, DOCKER_HOST: host };
  const engine: DockerEngine = {
    host,
    stop: async () => {
      try {
        await stopEngine(dockerd, exited, [dir, path.join(cache, 'engine')], env);
      } finally {
        release();
      }
    },
  };
  try {
    await until(
      'dockerd to answer',
      () => {
        if (dockerd.exitCode !== null || dockerd.signalCode !== null)
          throw new Error(`dockerd exited:\n${tail(path.join(dir, 'dockerd.log'))}`);
        return spawnSync('docker', ['version'], { env, stdio: 'ignore', timeout: 10_000 }).status === 0;
      },
      { timeoutMs: START_TIMEOUT_MS, intervalMs: 200 },
    );
    await Promise.all(
      BASE_IMAGES.map((image) => ensureImage(env, path.join(cache, image.tarball), image.tag)),
    );
    process.env.DOCKER_HOST = host;
    return engine;
  } catch (error) {
    await engine.stop();
    throw error;
  }
}

/** The tarball imported as `tag`, unless the engine holds that import already (same tarball, by size and time). */
async function ensureImage(env: NodeJS.ProcessEnv, tarball: string, tag: string): Promise<void> {
  const stat = fs.statSync(tarball);
  const stamp = `${stat.size}-${Math.round(stat.mtimeMs)}`;
  const inspected = spawnSync(
    'docker',
    ['image', 'inspect', '--format', '{{index .Config.Labels "weave.rootfs"}}', tag],
    { env, encoding: 'utf8', timeout: 10_000 },
  );
  if (inspected.status === 0 && inspected.stdout.trim() === stamp) return;
  await importImage(env, tarball, tag, stamp);
}

/** One engine per data root: an exclusive lock file naming its holder; a holder that is gone is taken over. */
/**
 * Takes the one engine's lock, waiting while another test file's process holds it (the e2e layer runs two files
 * at once, and two files use the engine): the holder's release removes the file, which fs.watch reports. A lock
 * left by a dead process is taken over.
 */
async function takeLock(file: string, waitMs = 20 * 60_000): Promise<() => void> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      fs.writeFileSync(file, `${process.pid}\n`, { flag: 'wx' });
      return () => fs.rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(fs.readFileSync(file, 'utf8').trim());
      if (!(Number.isInteger(holder) && holder > 0 && isAlive(holder))) {
        fs.rmSync(file, { force: true });
        continue;
      }
      if (Date.now() > deadline)
        throw new Error(`the cached Docker engine (${file}) is still in use by process ${holder}`, {
          cause: error,
        });
      await released(file, holder, deadline);
    }
  }
}

/** Resolves when the lock file is gone, its holder died, or the deadline passed (the caller looks again). */
function released(file: string, holder: number, deadline: number): Promise<void> {
  return new Promise((resolve) => {
    const watcher = fs.watch(path.dirname(file), () => {
      if (!fs.existsSync(file)) done();
    });
    // A holder that dies without releasing sends no event; neither does a deadline. Look once a second.
    const looks = setInterval(() => {
      if (!fs.existsSync(file) || !isAlive(holder) || Date.now() > deadline) done();
    }, 1000);
    function done(): void {
      watcher.close();
      clearInterval(looks);
      resolve();
    }
    if (!fs.existsSync(file)) done();
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function importImage(env: NodeJS.ProcessEnv, tarball: string, tag: string, stamp: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('docker', ['import', '--change', `LABEL weave.rootfs=${stamp}`, tarball, tag], {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), IMPORT_TIMEOUT_MS);
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`docker import ${tag} failed (${code}): ${stderr}`));
    });
  });
}

async function stopEngine(
  dockerd: ChildProcess,
  exited: Promise<void>,
  [dir, dataRoot]: [string, string],
  env: NodeJS.ProcessEnv,
): Promise<void> {
  const pid = dockerd.pid;
  if (pid !== undefined && dockerd.exitCode === null && dockerd.signalCode === null) {
    // What this run made goes; the base images stay for the next run.
    const docker = (args: string[]): string =>
      spawnSync('docker', args, { env, encoding: 'utf8', timeout: 60_000 }).stdout ?? '';
    const containers = docker(['ps', '-aq']).split('\n').filter(Boolean);
    if (containers.length > 0) docker(['rm', '-f', ...containers]);
    const images = docker(['images', '-q', '--filter', 'reference=weave-task/*']).split('\n').filter(Boolean);
    if (images.length > 0) docker(['rmi', '-f', ...new Set(images)]);
    docker(['image', 'prune', '-f']);
    // dockerd first (it stops its containerd itself), the whole group if it does not exit in time.
    process.kill(pid, 'SIGTERM');
    const timer = setTimeout(() => signalGroup(pid, 'SIGKILL'), STOP_GRACE_MS);
    await exited;
    clearTimeout(timer);
  }
  // Whatever of its process group is left (containerd, shims).
  if (pid !== undefined) signalGroup(pid, 'SIGKILL');
  if (process.env.DOCKER_HOST === `unix://${dir}/docker.sock`) delete process.env.DOCKER_HOST;
  // Mounts a killed engine could not undo itself.
  const mounts = fs
    .readFileSync('/proc/mounts', 'utf8')
    .split('\n')
    .map((line) => line.split(' ')[1] ?? '')
    .filter((m) => m.startsWith(`${dir}/`) || m.startsWith(`${dataRoot}/`))
    .sort()
    .reverse();
  for (const mount of mounts) spawnSync('umount', ['-l', mount]);
  fs.rmSync(dir, { recursive: true, force: true });
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is gone already
  }
}

function tail(file: string): string {
  return fs.readFileSync(file, 'utf8').split('\n').slice(-20).join('\n');
}
