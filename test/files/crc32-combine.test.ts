// The whole-file CRC-32 of an upload is combined from its parts' CRC-32s; it must equal zlib's CRC-32 of the
// concatenated bytes for any split, part sizes of 8 MiB included.
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { combineHexCrcs, crc32Combine, crc32Hex } from '../../runtime-api/crc32-combine.ts';

t.test('combining piece CRC-32s equals the CRC-32 of the whole', async (t) => {
  const splits = [[0], [1], [5, 0, 7], [8 * 1024 * 1024, 8 * 1024 * 1024, 12345], [3, 65536, 1, 99999]];
  for (const sizes of splits) {
    const pieces = sizes.map((n) => randomBytes(n));
    const whole = Buffer.concat(pieces);
    t.equal(combineHexCrcs(pieces.map((p) => ({ crc32: crc32Hex(p), byteLength: p.length }))), crc32Hex(whole), `pieces of ${sizes.join(', ')} bytes`);
  }
  const a = Buffer.from('hello, ');
  const b = Buffer.from('world');
  t.equal(crc32Combine(crc32(a), crc32(b), b.length), crc32(Buffer.concat([a, b])));
  t.equal(crc32Combine(crc32(a), 0, 0), crc32(a), 'an empty piece changes nothing');
});
