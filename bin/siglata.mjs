#!/usr/bin/env node
// The `siglata` command in the checkout. Plain JavaScript so that an older Node can say what is wrong: the CLI
// itself is TypeScript, which Node 24 runs directly. The installable package runs a bundle instead (cli/package).
const major = Number(process.versions.node.split('.')[0]);
if (major < 24) {
  process.stderr.write(
    `siglata needs Node.js 24 or newer (found ${process.versions.node}). Inside the project, run it as \`npx siglata\`; elsewhere install Node 24.\n`,
  );
  process.exit(1);
}
await import('../cli/run.ts');
