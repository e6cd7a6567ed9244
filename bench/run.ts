// npm run bench: every benchmark in turn, each printing its own side-by-side table.
const BENCHES = ['engine', 'engine-builds', 'transfers', 'part-body', 'ask', 'mcp', 'cli-batch'];
const only = process.argv.slice(2);

for (const name of BENCHES) {
  if (only.length && !only.includes(name)) continue;
  let mod: { main?: () => Promise<void> };
  try {
    mod = await import(`./${name}.ts`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND' && String((err as Error).message).includes(`${name}.ts`)) continue;
    throw err;
  }
  process.stdout.write(`\n## ${name}\n\n`);
  await mod.main?.();
}
process.exit(0);
