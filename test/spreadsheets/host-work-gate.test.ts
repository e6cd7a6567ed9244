// The fair gate in front of heavy host work: one task at a time per organization and per person, organizations served
// in turn (a late organization's one task does not wait behind another's queue), and a task whose caller gave up
// leaves the queue. Deterministic: tasks end when the test says so.
import t from 'tap';
import { fairWorkGate } from '../../runtime-api/services/host-work.ts';

/** A task that runs until `finish()`; `order` records who started when. */
function tasks() {
  const order: string[] = [];
  const finishers = new Map<string, () => void>();
  const task = (name: string) => () =>
    new Promise<string>((resolve) => {
      order.push(name);
      finishers.set(name, () => resolve(name));
    });
  const finish = async (name: string) => {
    finishers.get(name)!();
    await new Promise((r) => setImmediate(r));
  };
  return { order, task, finish };
}

t.test('organizations are served in turn, one task each at a time', async (t) => {
  const gate = fairWorkGate(2);
  const { order, task, finish } = tasks();
  const a = { org: 'a', person: 'pa' };
  const b = { org: 'b', person: 'pb' };
  const c = { org: 'c', person: 'pc' };
  const runs = ['a1', 'a2', 'a3', 'a4'].map((n) => gate.run(a, task(n)));
  await new Promise((r) => setImmediate(r));
  t.same(order, ['a1'], "one of an organization's tasks at a time, though a slot is free");
  runs.push(gate.run(b, task('b1')));
  runs.push(gate.run(c, task('c1')));
  await new Promise((r) => setImmediate(r));
  t.same(order, ['a1', 'b1'], 'another organization takes the free slot');
  await finish('a1');
  t.same(order, ['a1', 'b1', 'c1'], "the third organization's one task comes before a's second");
  await finish('b1');
  t.same(order, ['a1', 'b1', 'c1', 'a2']);
  await finish('c1');
  await finish('a2');
  await finish('a3');
  await finish('a4');
  t.same(await Promise.all(runs), ['a1', 'a2', 'a3', 'a4', 'b1', 'c1']);
  t.same(gate.stats(), { running: 0, waiting: 0 });
});

t.test("a person's organizations share one turn", async (t) => {
  const gate = fairWorkGate(4);
  const { order, task, finish } = tasks();
  const runs = [1, 2, 3].map((i) => gate.run({ org: `org${i}`, person: 'mallory' }, task(`m${i}`)));
  runs.push(gate.run({ org: 'other', person: 'ana' }, task('ana')));
  await new Promise((r) => setImmediate(r));
  t.same(order, ['m1', 'ana'], 'more organizations buy no more parses at once');
  await finish('m1');
  t.same(order, ['m1', 'ana', 'm2']);
  await finish('m2');
  await finish('m3');
  await finish('ana');
  await Promise.all(runs);
});

t.test('a waiting task whose caller gave up leaves the queue', async (t) => {
  const gate = fairWorkGate(1);
  const { order, task, finish } = tasks();
  const first = gate.run({ org: 'a', person: 'p' }, task('a1'));
  const ac = new AbortController();
  const gaveUp = gate.run({ org: 'b', person: 'q' }, task('b1'), ac.signal);
  const next = gate.run({ org: 'c', person: 'r' }, task('c1'));
  ac.abort(new Error('execution ended'));
  await t.rejects(gaveUp, /execution ended/);
  t.same(gate.stats(), { running: 1, waiting: 1 });
  await finish('a1');
  t.same(order, ['a1', 'c1'], 'the abandoned task never ran');
  await finish('c1');
  await Promise.all([first, next]);
  t.same(gate.stats(), { running: 0, waiting: 0 });
});
