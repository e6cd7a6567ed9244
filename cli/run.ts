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
// Exit once stdout and stderr have taken every byte: writes to a pipe are asynchronous, so a slow reader leaves them
// queued, and exiting with any still queued would cut the output short (a `download -o -` missing its tail, the last
// lines of a copy's per-file report). An empty write's callback runs after all earlier writes are flushed.
process.exitCode = code;
const flushed = (stream: NodeJS.WriteStream) =>
  new Promise<void>((resolve) => (stream.writableLength > 0 && !stream.destroyed ? stream.write('', () => resolve()) : resolve()));
await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
process.exit(code);
