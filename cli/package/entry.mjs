// Entry of the installable package's bundle (built by cli/package/build.mjs): JavaScript for Node 22 and newer.
const major = Number(process.versions.node.split('.')[0]);
if (major < 22) {
  process.stderr.write(`siglata needs Node.js 22 or newer (found ${process.versions.node}).\n`);
  process.exit(1);
}
await import('../run.ts');
