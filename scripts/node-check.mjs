// Preloaded (--import) by every entry point, in plain JavaScript so that an older Node reads it too:
// the sandbox needs Node 24's V8 and --no-node-snapshot.
const major = Number(process.versions.node.split('.')[0]);
if (major < 24) {
  process.stderr.write(
    `This service needs Node.js 24 or newer (found ${process.versions.node}); run it through npm (npm start, npm test), which uses the pinned Node 24.\n`,
  );
  process.exit(1);
}
if (!process.execArgv.includes('--no-node-snapshot') && !(process.env.NODE_OPTIONS ?? '').includes('--no-node-snapshot')) {
  process.stderr.write('Start node with --no-node-snapshot (isolated-vm needs it); the npm scripts already do.\n');
  process.exit(1);
}
