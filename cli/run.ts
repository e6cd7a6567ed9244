// Runs the command line in this process: the shared body of bin/siglata.mjs (in the checkout) and of the packed
// package's bundle (cli/package), which differ only in how they check the Node version first.
import { main } from './main.ts';

// A reader that stops early (`siglata ls --json | head`) closes the pipe: that is the reader's choice, not an error.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
  throw err;
});
const code = await main(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  stdin: process.stdin,
  stderrIsTTY: Boolean(process.stderr.isTTY),
});
// Let stdout drain before exiting (a pipe may still hold the result).
process.exitCode = code;
if (process.stdout.writableNeedDrain) process.stdout.once('drain', () => process.exit(code));
else process.exit(code);
