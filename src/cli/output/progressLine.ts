// `weave check`'s live progress line on an interactive stderr.
import type { CheckProgress } from '../../core/fullCheck';

/** "[3/8] running cache-hit, hit-rate" on stderr, only on an interactive terminal outside CI. */
export class ProgressLine {
  private readonly running = new Map<string, string>();

  static create(): ProgressLine | undefined {
    return process.stderr.isTTY && !process.env.CI ? new ProgressLine() : undefined;
  }

  update(event: CheckProgress): void {
    const key = `${event.phase}:${event.type === 'started' ? event.id : event.result.id}`;
    if (event.type === 'started') this.running.set(key, event.id);
    else this.running.delete(key);
    const phase = event.phase === 'baseline' ? 'baseline ' : '';
    const names = [...this.running.values()].join(', ');
    const line = `${phase}[${event.done}/${event.total}] ${names ? `running ${names}` : ''}`;
    const width = (process.stderr.columns || 80) - 1;
    process.stderr.write(`\r\u001b[K${line.length > width ? `${line.slice(0, width - 1)}…` : line}`);
  }

  clear(): void {
    process.stderr.write('\r\u001b[K');
  }
}
