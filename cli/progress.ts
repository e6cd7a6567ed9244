// Transfer progress on stderr: one redrawn bar with throughput and ETA on a terminal, plain lines otherwise
// (CI logs, pipes), at most one line per reported step.
import { formatBytes, formatDuration } from './format.ts';

export interface Progress {
  /** `bytes` more have moved. */
  add(bytes: number): void;
  /** A plain-text milestone (printed as its own line when not on a terminal). */
  line(text: string): void;
  /** One file of a many-file transfer is finished (copied or failed): its bytes, and its line off a terminal. */
  fileDone(bytes: number, text: string): void;
  done(): void;
}

/** `files`: how many files the transfer holds, so the bar counts them (`12/200 files`) besides the bytes. */
export function progress(total: number, start: number, options: { tty: boolean; write: (s: string) => void; label: string; files?: number }): Progress {
  let done = start;
  let filesDone = 0;
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
    const label = options.files === undefined ? options.label : `${filesDone}/${options.files} ${options.label}`;
    options.write(
      `\r\x1b[2K${label} [${bar}] ${(fraction * 100).toFixed(0).padStart(3)}%  ${formatBytes(done)}/${formatBytes(total)}  ${formatBytes(rate)}/s  ETA ${formatDuration(eta)}`,
    );
  };
  const line = (text: string) => {
    if (!options.tty) options.write(`${text}\n`);
  };
  return {
    add(bytes) {
      done += bytes;
      draw();
    },
    line,
    fileDone(bytes, text) {
      filesDone++;
      done += bytes;
      // The last file always shows, so the bar never stops short of its end.
      draw(filesDone === options.files);
      line(text);
    },
    done() {
      if (!options.tty) return;
      draw(true);
      options.write('\n');
    },
  };
}
