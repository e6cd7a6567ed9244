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
// Exit once stdout has taken every byte: a slow reader leaves writes queued (a pipe that was full), and exiting with
// any still queued would cut the output short (a `download -o -` missing its tail). An empty write's callback runs
// after all earlier writes are flushed, whether or not the buffer ever reached its high-water mark.
process.exitCode = code;
if (process.stdout.writableLength > 0) process.stdout.write('', () => process.exit(code));
else process.exit(code);
