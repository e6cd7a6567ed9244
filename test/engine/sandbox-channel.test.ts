// The messages between the engine and its sandbox processes (engine/sandbox-process/channel.ts): every message of
// both directions keeps its frame byte for byte and decodes back to itself, and what a garbled host sends decodes to
// a value that names nothing, is clipped, or (an unknown letter) to null, never to a throw.
import t from 'tap';
import {
  CLOSED_REPLY,
  NO_ID,
  culpritLine,
  culpritOnStderr,
  decodeHostToServer,
  decodeServerToHost,
  encodeHostToServer,
  encodeServerToHost,
  type HostToServer,
  type ServerToHost,
} from '../../engine/sandbox-process/channel.ts';
import { DEFAULT_LIMITS } from '../../engine/limits.ts';
import { MAX_ERROR_MESSAGE } from '../../engine/result.ts';

const S = '\x01';
const limits = { ...DEFAULT_LIMITS };
const error = { type: 'limit_exceeded' as const, code: 'max_host_calls', message: 'More than 3 host calls in one execution.' };

// Each message beside the frame it has always been (the frames are what the two processes exchange).
const toHost: [ServerToHost, string][] = [
  [{ type: 'pin', cpu: 1 }, 'A1'],
  [{ type: 'open', slot: 7 }, 'O7'],
  [{ type: 'close', slot: 7 }, 'X7'],
  [
    { type: 'run', slot: 7, id: 42, tenant: 'ab12', names: 'files_list,context', limits, source: `return "a${S}b"` },
    `S7${S}42${S}ab12${S}files_list,context${S}${JSON.stringify(limits)}${S}return "a${S}b"`,
  ],
  [{ type: 'reply', id: 42, call: 3, reply: `O{"items":[]}${S}tail` }, `R42${S}3${S}O{"items":[]}${S}tail`],
  [{ type: 'kill', id: 42, slot: 7, error }, `K42${S}7${S}${JSON.stringify(error)}`],
  [{ type: 'quit' }, 'Q'],
];

const toServer: [HostToServer, string][] = [
  [{ type: 'pinned', cpu: 1 }, 'a1'],
  [{ type: 'pinned', cpu: null }, 'a'],
  [{ type: 'ready', slot: 7 }, 'Y7'],
  [
    { type: 'end', id: 42, end: { outcome: { kind: 'ok', json: '{"n":1}' }, recycle: null, wallMs: 1.25, cpuMs: 0.5 } },
    `E42${S}${S}1.25${S}0.5${S}o${S}{"n":1}`,
  ],
  [{ type: 'end', id: 42, end: { outcome: { kind: 'ok', json: '' }, recycle: null, wallMs: 1, cpuMs: 1 } }, `E42${S}${S}1${S}1${S}o${S}`],
  [
    {
      type: 'end',
      id: 42,
      end: { outcome: { type: 'timeout', message: 'Too long.', code: 'wall', resolution: 'Do less.', line: 3 }, recycle: 'timeout', wallMs: 50, cpuMs: 49 },
    },
    `E42${S}timeout${S}50${S}49${S}e${S}{"type":"timeout","message":"Too long.","code":"wall","resolution":"Do less.","line":3}`,
  ],
  [{ type: 'call', id: 42, call: 3, name: 'files_list', args: `{"q":"a${S}b"}` }, `C42${S}3${S}files_list${S}{"q":"a${S}b"}`],
  [{ type: 'log', id: 42, level: 'warn', message: `a${S}b` }, `L42${S}warn${S}a${S}b`],
  [{ type: 'unanswered', id: 42, names: 'files_list,context' }, `P42${S}files_list,context`],
  [{ type: 'recycled', reason: 'max_executions' }, 'rmax_executions'],
  [
    {
      type: 'heartbeat',
      isolates: { built: 3, refs: 10, cached: 2, live: 2 },
      runs: [
        { id: 42, cpuMs: 12, replies: null },
        { id: 43, cpuMs: 0, replies: 5 },
      ],
    },
    `H3${S}10${S}2${S}2${S}42:12,43:0:5`,
  ],
  [{ type: 'heartbeat', isolates: { built: 0, refs: 0, cached: 0, live: 0 }, runs: [] }, `H0${S}0${S}0${S}0${S}`],
  [{ type: 'fatal', id: 42, message: `out of memory${S}!` }, `F42${S}out of memory${S}!`],
  [{ type: 'fatal', id: null, message: 'lost' }, `F${S}lost`],
  [{ type: 'cleared', id: 42 }, 'u42'],
];

t.test('every server → host message keeps its frame and decodes back to itself', async (t) => {
  t.equal(new Set(toHost.map(([m]) => m.type)).size, 7, 'all seven types');
  for (const [msg, frame] of toHost) {
    t.equal(encodeServerToHost(msg), frame, `${msg.type}: frame`);
    t.same(decodeServerToHost(frame), msg, `${msg.type}: round trip`);
  }
  t.equal(decodeServerToHost('Z1'), null, 'an unknown letter is ignored');
});

t.test('every host → server message keeps its frame and decodes back to itself', async (t) => {
  t.equal(new Set(toServer.map(([m]) => m.type)).size, 10, 'all ten types');
  for (const [msg, frame] of toServer) {
    t.equal(encodeHostToServer(msg), frame, `${msg.type}: frame`);
    t.same(decodeHostToServer(frame), msg, `${msg.type}: round trip`);
  }
  const beat = decodeHostToServer(
    encodeHostToServer({ type: 'heartbeat', isolates: { built: 1, refs: 1, cached: 0, live: 1 }, runs: [{ id: 1, cpuMs: 2.6, replies: null }] }),
  );
  t.same(
    beat,
    { type: 'heartbeat', isolates: { built: 1, refs: 1, cached: 0, live: 1 }, runs: [{ id: 1, cpuMs: 3, replies: null }] },
    'CPU travels in whole ms',
  );
  t.equal(culpritLine(42), '\nengine-host-culprit:42\n');
  t.same(culpritOnStderr(`V8 says...${culpritLine(42)}`), { type: 'fatal', id: 42, message: 'V8 gave up on an isolate (a fatal engine error)' });
  t.same(culpritOnStderr(`x${culpritLine(null)}`)?.id, null, 'no execution named');
  t.equal(culpritOnStderr('a plain crash'), null);
});

const GARBLED = { type: 'internal_error', message: 'The sandbox process sent an unreadable outcome.' };
const endOf = (frame: string) => {
  const msg = decodeHostToServer(frame);
  if (msg?.type !== 'end') throw new Error(`not an end: ${frame}`);
  return msg;
};

t.test('a garbled host frame decodes to what names nothing, never to a throw or a trusted value', async (t) => {
  t.equal(decodeHostToServer('Zzz'), null, 'an unknown letter: the host is killed (protocol)');
  t.equal(decodeHostToServer(''), null, 'an empty frame likewise');

  // Wrong field counts: missing text reads as empty, a missing id as NO_ID.
  t.same(decodeHostToServer('C42'), { type: 'call', id: 42, call: NO_ID, name: '', args: '' }, 'a call without its fields');
  t.same(decodeHostToServer('L42'), { type: 'log', id: 42, level: '', message: '' }, 'a log line without its fields');
  t.same(decodeHostToServer('P'), { type: 'unanswered', id: NO_ID, names: '' });
  t.same(decodeHostToServer('F7'), { type: 'fatal', id: 7, message: '' }, 'a fatal frame without its message (it used to throw in the server)');
  t.same(decodeHostToServer(`H1${S}2`), { type: 'heartbeat', isolates: { built: 1, refs: 2, cached: 0, live: 0 }, runs: [] });
  t.same(endOf('E42').end, { recycle: null, wallMs: 0, cpuMs: 0, outcome: GARBLED }, 'an end without its fields');
  t.same(endOf(`E42${S}${S}1${S}1${S}o`).end.outcome, GARBLED, 'an ok end without its result');
  t.same(endOf(`E42${S}${S}1${S}1${S}e`).end.outcome, GARBLED, 'an error end without its error');

  // Numbers that are not.
  for (const bad of ['', 'x', '-1', '1.5', '1e3', '0x10', ' 4', 'Infinity', '9'.repeat(16)]) {
    t.equal((decodeHostToServer(`u${bad}`) as { id: number }).id, NO_ID, `id ${JSON.stringify(bad)}`);
  }
  t.same(decodeHostToServer(`Cx${S}y${S}files_list${S}{}`), { type: 'call', id: NO_ID, call: NO_ID, name: 'files_list', args: '{}' });
  t.same(decodeHostToServer('Yslot'), { type: 'ready', slot: NO_ID });
  t.same(decodeHostToServer('a-1'), { type: 'pinned', cpu: null }, 'a CPU that is not one: not pinned');
  t.same(decodeHostToServer(`F-3${S}m`), { type: 'fatal', id: NO_ID, message: 'm' }, 'a named execution that is not an id names none');
  t.same(
    decodeHostToServer(`Hx${S}-1${S}1.5${S}NaN${S}1:x,y:2:3,4:5:-1,,6`),
    {
      type: 'heartbeat',
      isolates: { built: 0, refs: 0, cached: 0, live: 0 },
      runs: [
        { id: 1, cpuMs: null, replies: null },
        { id: NO_ID, cpuMs: 2, replies: 3 },
        { id: 4, cpuMs: 5, replies: null },
        { id: NO_ID, cpuMs: null, replies: null },
        { id: 6, cpuMs: null, replies: null },
      ],
    },
    'unreadable gauges count 0, unreadable samples carry no figure',
  );
  const numbers = endOf(`E42${S}${S}x${S}-5${S}o${S}1`).end;
  t.same([numbers.wallMs, numbers.cpuMs], [0, 0], 'unreadable or negative times count 0');

  // Values a host may not choose, and oversized fields.
  t.same(decodeHostToServer(`r${'x'.repeat(10_000)}`), { type: 'recycled', reason: 'other' }, 'an unknown recycle reason counts as other');
  t.same(decodeHostToServer('r__proto__'), { type: 'recycled', reason: 'other' });
  t.equal((decodeHostToServer(`F1${S}${'m'.repeat(10_000)}`) as { message: string }).message.length, 200, 'a fatal message is clipped');
  t.same(endOf(`E1${S}${S}1${S}1${S}e${S}{"type":"crashed","message":"blame someone else"}`).end.outcome, GARBLED, 'an error type only the server decides');
  t.same(endOf(`E1${S}${S}1${S}1${S}e${S}{"type":"timeout"}`).end.outcome, GARBLED, 'an error without its message');
  t.same(endOf(`E1${S}${S}1${S}1${S}e${S}{"type":"timeout","message":1}`).end.outcome, GARBLED);
  t.same(endOf(`E1${S}${S}1${S}1${S}e${S}not json`).end.outcome, GARBLED);
  const long = endOf(
    `E1${S}${S}1${S}1${S}e${S}${JSON.stringify({ type: 'script_error', message: 'm'.repeat(10_000), code: 'c'.repeat(500), resolution: 'r'.repeat(10_000), line: -2, stack: 'x' })}`,
  ).end.outcome as Record<string, unknown>;
  t.same(Object.keys(long).sort(), ['code', 'message', 'resolution', 'type'], 'a bad line and unknown keys are dropped');
  t.equal((long.message as string).length, MAX_ERROR_MESSAGE, 'the message is clipped');
  t.equal((long.code as string).length, 100, 'the code is clipped');
  t.equal((long.resolution as string).length, MAX_ERROR_MESSAGE, 'the resolution is clipped');
  t.same(
    endOf(`E1${S}${S}1${S}1${S}o${S}{"a":1}${S}more`).end.outcome,
    { kind: 'ok', json: `{"a":1}${S}more` },
    'a result passes through unparsed (the server parses it once, against its cap)',
  );
  t.ok(CLOSED_REPLY.startsWith('E{'), 'the closed reply is an error reply');
});
