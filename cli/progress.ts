// Transfer progress on stderr: one redrawn bar with throughput and ETA on a terminal, plain lines otherwise
// (CI logs, pipes), at most one line per reported step.
import { formatBytes, formatDuration } from './format.ts';

export interface Progress {
  /** `bytes` more have moved. */
  add(bytes: number): void;
  /** A plain-text milestone (printed as its own line when not on a terminal). */
  line(text: string): void;
  done(): void;
}

export function progress(total: number, start: number, options: { tty: boolean; write: (s: string) => void; label: string }): Progress {
  let done = start;
  const began = Date.now();
  let lastDraw = 0;
  const draw = (force = false) => {
    if (!options.tty) return;
    const now = Date.now();
    if (!force && now - lastDraw < 100) return;
    lastDraw = now;
    const elapsed = (now - began) / 1000;
    const rate = elapsed > 0 ? (done - start) / elapsed : 0;
    const eta = rate > 0 ? (total - done) / rate : NaN;
    const fraction = total > 0 ? done / total : 1;
    const cells = 24;
    const filled = Math.round(fraction * cells);
    const bar = `${'#'.repeat(filled)}${'-'.repeat(cells - filled)}`;
    options.write(`\r\x1b[2K${options.label} [${bar}] ${(fraction * 100).toFixed(0).padStart(3)}%  ${formatBytes(done)}/${formatBytes(total)}  ${formatBytes(rate)}/s  ETA ${formatDuration(eta)}`);
  };
  return {
    add(bytes) { done += bytes; draw(); },
    line(text) {
      if (options.tty) return;
      options.write(`${text}\n`);
    },
    done() {
      if (!options.tty) return;
      draw(true);
      options.write('\n');
    },
  };
}
