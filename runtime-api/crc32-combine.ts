// CRC-32 of a concatenation from the CRC-32s of its pieces (zlib's crc32_combine, in GF(2)): lets upload
// completion give a multi-part file its whole-content checksum without reading the bytes again.
import { crc32 } from 'node:zlib';

/** A CRC-32 value as part and file checksums are stored: 8 lowercase hex digits. */
export function hexCrc(crc: number): string {
  return crc.toString(16).padStart(8, '0');
}

/** Hex CRC-32 of bytes. */
export function crc32Hex(data: Uint8Array): string {
  return hexCrc(crc32(data));
}

function times(matrix: Uint32Array, vector: number): number {
  let sum = 0;
  for (let i = 0; vector !== 0; i++, vector >>>= 1) if (vector & 1) sum ^= matrix[i];
  return sum >>> 0;
}

function square(out: Uint32Array, matrix: Uint32Array): void {
  for (let n = 0; n < 32; n++) out[n] = times(matrix, matrix[n]);
}

/** CRC-32 of A‖B given crc(A), crc(B) and B's length in bytes (any safe integer). */
export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  if (lengthB <= 0) return crcA >>> 0;
  const even = new Uint32Array(32);
  const odd = new Uint32Array(32);
  odd[0] = 0xedb88320; // the reflected polynomial: the operator for one zero bit
  for (let n = 1, row = 1; n < 32; n++, row = (row << 1) >>> 0) odd[n] = row;
  square(even, odd); // two zero bits
  square(odd, even); // four zero bits
  let crc = crcA >>> 0;
  let len = lengthB;
  // Apply len zero bytes to crcA: the first square below makes the one-byte operator.
  do {
    square(even, odd);
    if (len % 2 === 1) crc = times(even, crc);
    len = Math.floor(len / 2);
    if (len === 0) break;
    square(odd, even);
    if (len % 2 === 1) crc = times(odd, crc);
    len = Math.floor(len / 2);
  } while (len !== 0);
  return (crc ^ crcB) >>> 0;
}

/** Whole-content CRC-32 (hex, 8 digits) from ordered pieces' hex CRC-32s and lengths. */
export function combineHexCrcs(pieces: readonly { crc32: string; byteLength: number }[]): string {
  let crc = 0;
  for (const p of pieces) crc = crc32Combine(crc, parseInt(p.crc32, 16), p.byteLength);
  return hexCrc(crc);
}
