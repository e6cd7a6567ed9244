// A process may exit as soon as engine.close() resolves. isolated-vm tears a disposed isolate down on one of its own
// threads, and an exit during that crashed the process (SIGSEGV in ~IsolateEnvironment: 8 of 34 such runs, and this
// test failed on a645bac): close() now waits for that (engine/slot.ts, DISPOSE_SETTLE_MS). The server's in-process
// pool exits this way on SIGTERM, and so does every sandbox host process when the engine closes.
import t from 'tap';
import { spawn } from 'node:child_process';
import { ROOT } from './helpers/engine.ts';

const RUNS = 6;

function closeAndExit(): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--no-node-snapshot', 'test/engine/helpers/close-and-exit.ts'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('close', (code, signal) => resolve({ code, signal, stderr: stderr.slice(-500) }));
  });
}

t.test(`a process that exits right after engine.close() exits cleanly (${RUNS} runs)`, async (t) => {
  for (let i = 0; i < RUNS; i++) {
    const { code, signal, stderr } = await closeAndExit();
    t.same({ code, signal }, { code: 0, signal: null }, `run ${i + 1}: exit ${code ?? signal}${stderr ? `: ${stderr}` : ''}`);
  }
});
