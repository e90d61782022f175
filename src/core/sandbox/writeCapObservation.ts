// A total write cap per spec run's checkout, observed (issue #35: RLIMIT_FSIZE caps each file, so 4 × 400 MiB
// written into the checkout passed). What a contained run may write is its checkout (a bind of a host folder),
// Weave's own results folders, and /tmp, which is already a size-capped tmpfs (ENOSPC inside). The checkout is a
// folder on the host's disk, and no mechanism that caps a folder's total while it is written is available to an
// unprivileged Weave (no quota, no size-limited filesystem it may mount outside the sandbox; a tmpfs or overlay
// upper inside bwrap vanishes with the run, and the checkout's writes must outlive it). So the cap is observed:
// the disk space the checkout's files take (allocated blocks, so sparse files count what they use) is summed
// before the run and after it, from outside the sandbox, and a run that grew the checkout by more than the cap is
// a `write-cap` attempt — `tampered`, never applied. What this does not do (docs/threat-model.md): stop the writes
// while the run goes on (each file stays capped by RLIMIT_FSIZE), or see space a run used and freed before it
// ended. The checkout's own .git is read-only inside and is not walked.
import fs from 'node:fs';
import path from 'node:path';
import { MAX_TREE_DEPTH } from '../deepTrees';
import type { ObservedAttempt } from '../../shared/attempts';

const MIB = 1024 * 1024;

/**
 * Bytes the regular files under `checkout` take on disk, its .git excepted (folders it cannot read count 0). The
 * walk stops MAX_TREE_DEPTH levels down, as the tamper guard's does: a chain thousands of levels deep cost seconds
 * a walk (every path resolved from the top), and a run that makes a folder deeper than the guard walks is tampered
 * by the guard already.
 */
export function checkoutBytes(checkout: string): number {
  let total = 0;
  const pending: Array<[string, number]> = [[checkout, 0]];
  while (pending.length > 0) {
    const [dir, depth] = pending.pop()!;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (depth < MAX_TREE_DEPTH && !(dir === checkout && entry.name === '.git'))
          pending.push([full, depth + 1]);
      } else if (entry.isFile()) {
        const stat = fs.lstatSync(full, { throwIfNoEntry: false });
        if (stat) total += stat.blocks * 512;
      }
    }
  }
  return total;
}

/**
 * Each checkout's size after its last observed run: the next run starts from it instead of walking the checkout a
 * second time (one walk per run; ~3 µs a file on a quiet machine). What changed between two runs (an agent's edits)
 * then counts toward the next run, a few KiB against a cap of a GiB.
 */
const lastSize = new Map<string, number>();
const REMEMBERED = 256;

/**
 * One run's checkout size before it ran, and what the run added beyond `capBytes`. Runs of one batch that run at
 * the same time in one checkout share it, so the cap is the checkout's: a growth past it is an attempt of every run
 * that was running while it happened.
 */
export class CheckoutGrowth {
  private constructor(
    private readonly checkout: string,
    private readonly capBytes: number,
    private readonly before: number,
  ) {}

  static start(checkout: string, capBytes: number): CheckoutGrowth {
    return new CheckoutGrowth(checkout, capBytes, lastSize.get(checkout) ?? checkoutBytes(checkout));
  }

  attempts(): ObservedAttempt[] {
    const after = checkoutBytes(this.checkout);
    if (lastSize.size >= REMEMBERED && !lastSize.has(this.checkout)) lastSize.clear();
    lastSize.set(this.checkout, after);
    const grown = after - this.before;
    if (grown <= this.capBytes) return [];
    return [
      {
        kind: 'write-cap',
        target: `${formatMiB(grown)} written into the checkout (cap ${formatMiB(this.capBytes)})`,
      },
    ];
  }
}

function formatMiB(bytes: number): string {
  const mib = bytes / MIB;
  return `${mib >= 10 ? Math.round(mib) : mib.toFixed(1)} MiB`;
}
