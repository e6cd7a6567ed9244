// The metadata block of a test262 test (`/*--- … ---*/`, a small subset of YAML): which harness files it needs,
// how it must be run (flags) and what it must throw (negative). Only the keys the runner acts on are read.

export interface TestMeta {
  includes: string[];
  flags: Set<string>;
  features: string[];
  /** Set for a negative test: the phase it must fail in and the name of the error it must throw. */
  negative: { phase: string; type: string } | null;
}

const OPEN = '/*---';
const CLOSE = '---*/';

function listValue(inline: string, lines: string[], at: number): { values: string[]; next: number } {
  const trimmed = inline.trim();
  if (trimmed.startsWith('[')) {
    const body = trimmed.slice(1, trimmed.lastIndexOf(']'));
    return {
      values: body
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
      next: at,
    };
  }
  if (trimmed !== '') return { values: [trimmed], next: at };
  // A block list: following lines "  - value".
  const values: string[] = [];
  let i = at;
  for (; i < lines.length; i++) {
    const m = /^\s+-\s*(.*?)\s*$/.exec(lines[i]);
    if (!m) break;
    values.push(m[1]);
  }
  return { values, next: i };
}

export function parseMeta(source: string): TestMeta {
  const meta: TestMeta = { includes: [], flags: new Set(), features: [], negative: null };
  const start = source.indexOf(OPEN);
  if (start < 0) return meta;
  const end = source.indexOf(CLOSE, start);
  if (end < 0) return meta;
  const lines = source.slice(start + OPEN.length, end).split(/\r\n|\r|\n/);
  for (let i = 0; i < lines.length; i++) {
    const m = /^([A-Za-z]+):(.*)$/.exec(lines[i]);
    if (!m) continue;
    const [, key, rest] = m;
    if (key === 'includes' || key === 'flags' || key === 'features') {
      const { values, next } = listValue(rest, lines, i + 1);
      i = next - 1;
      if (key === 'includes') meta.includes.push(...values);
      else if (key === 'features') meta.features.push(...values);
      else for (const v of values) meta.flags.add(v);
    } else if (key === 'negative') {
      const negative = { phase: '', type: '' };
      for (let j = i + 1; j < lines.length; j++) {
        const n = /^\s+(phase|type):\s*(\S+)\s*$/.exec(lines[j]);
        if (n) {
          negative[n[1] as 'phase' | 'type'] = n[2];
          i = j;
          continue;
        }
        if (/^\s+\S/.test(lines[j])) {
          i = j;
          continue;
        }
        break;
      }
      meta.negative = negative;
    }
  }
  return meta;
}
