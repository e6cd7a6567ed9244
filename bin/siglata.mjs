#!/usr/bin/env node
// The `siglata` command. Plain JavaScript so that an older Node can say what is wrong: the CLI itself is
// TypeScript, which Node 24 runs directly.
const major = Number(process.versions.node.split('.')[0]);
if (major < 24) {
  process.stderr.write(`siglata needs Node.js 24 or newer (found ${process.versions.node}). Inside the project, run it as \`npx siglata\`; elsewhere install Node 24.\n`);
  process.exit(1);
}
// A reader that stops early (`siglata ls --json | head`) closes the pipe: that is the reader's choice, not an error.
process.stdout.on('error', (err) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});
const { main } = await import('../cli/main.ts');
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
