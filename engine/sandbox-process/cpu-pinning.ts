// Each sandbox host process runs on one CPU of its own (host i on the i-th CPU this server may use, round robin).
// Measured on a 2-core VM, (b) at concurrency 8, median of 8 rounds alternating with the in-process pool: unpinned
// hosts reach 75-76 % of its throughput, pinned ones 83-86 %; with another job loading the machine, 57-71 % against
// 105-118 %. A host's main thread, its isolate threads and its V8 heaps stay on one core's caches, the hops between
// them (several per binding call and per execution) no longer wake another core, and a busy neighbour cannot push a
// host's threads apart. The server itself is not pinned.
// Linux only, through util-linux's `taskset`; where either is missing, or the server may use a single CPU, hosts run
// unpinned as before. Only when there are at least as many hosts as CPUs the server may use: fewer hosts (say a
// container with a CPU quota that still sees every core of its machine) would all crowd onto the first CPUs, as would
// every other instance on that machine doing the same.
import { accessSync, constants, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

const TASKSET = ['/usr/bin/taskset', '/bin/taskset'];

/** CPUs listed by a `Cpus_allowed_list` value ("0-3,6,8-9"), in order. */
export function parseCpuList(list: string): number[] {
  const cpus: number[] = [];
  for (const part of list.trim().split(',')) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (!m) continue;
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    for (let cpu = from; cpu <= to && cpus.length < 4096; cpu++) cpus.push(cpu);
  }
  return cpus;
}

/** The CPUs this process may run on (its cgroup's or taskset's restriction included), or [] if unknown. */
function allowedCpus(): number[] {
  try {
    const line = readFileSync('/proc/self/status', 'latin1')
      .split('\n')
      .find((l) => l.startsWith('Cpus_allowed_list:'));
    return line ? parseCpuList(line.slice(line.indexOf(':') + 1)) : [];
  } catch {
    return [];
  }
}

export function findTaskset(): string | null {
  for (const path of TASKSET) {
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      /* next */
    }
  }
  return null;
}

/** Where host `index` of `hosts` runs: a CPU number, or null when hosts are not pinned here. */
export function hostCpus(enabled: boolean, hosts: number): (index: number) => number | null {
  const cpus = enabled && process.platform === 'linux' && findTaskset() ? allowedCpus() : [];
  if (cpus.length < 2 || hosts < cpus.length) return () => null;
  return (index) => cpus[index % cpus.length];
}

/**
 * In the host, before it builds any isolate: move every thread of this process to `cpu` (threads started later
 * inherit it). Synchronous, once per host process. False if it could not (the host then runs unpinned).
 */
export function pinSelf(cpu: number): boolean {
  const taskset = findTaskset();
  if (!taskset || !Number.isInteger(cpu) || cpu < 0) return false;
  try {
    execFileSync(taskset, ['-a', '-p', '-c', String(cpu), String(process.pid)], { stdio: 'ignore', timeout: 2000, env: {} });
    return true;
  } catch {
    return false;
  }
}
