// Staging one entry: its body written under a fresh blob key that no row points at yet, hashed on the way (SHA-256
// and CRC-32, the catalogue's checksums). Up to one part's size it is gathered and written in one call; beyond, it
// streams through BlobStore.writeStream. Either way at most 8 MiB of it is held.
import { createHash } from 'node:crypto';
import { crc32 } from 'node:zlib';
import type { BlobStore } from '../../blobs/port.ts';
import { hexCrc } from '../../crc32-combine.ts';
import { ServiceError } from '../../errors.ts';
import { PART_SIZE, storageFailure } from '../uploads.ts';
import { EntryDataError } from './entries.ts';

export interface Staged {
  size: number;
  sha256: string;
  crc32: string;
}

/**
 * Write `body` (declared `size` bytes, and `expectedCrc` when the archive declares one) to `key`. Throws an
 * EntryDataError when the body is not what its header promised (then nothing is left at `key`), a ServiceError
 * storage_failure when the store fails.
 */
export async function stageEntry(
  blobs: BlobStore,
  key: string,
  body: AsyncIterable<Uint8Array>,
  declared: { size: number; crc32: number | null },
  contentType: string,
): Promise<Staged> {
  const hash = createHash('sha256');
  let crc = 0;
  let size = 0;
  async function* counted(): AsyncGenerator<Buffer> {
    for await (const chunk of body) {
      const data = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
      size += data.length;
      if (size > declared.size) throw new EntryDataError(`more than the declared ${declared.size} bytes`);
      hash.update(data);
      crc = crc32(data, crc);
      yield data;
    }
    if (size !== declared.size) throw new EntryDataError(`${size} bytes, ${declared.size} declared`);
    if (declared.crc32 !== null && crc >>> 0 !== declared.crc32 >>> 0) throw new EntryDataError('CRC-32 mismatch');
  }
  try {
    if (declared.size <= PART_SIZE) {
      const chunks: Buffer[] = [];
      for await (const data of counted()) chunks.push(data);
      await blobs.write(key, Buffer.concat(chunks, size), { contentType });
    } else {
      await blobs.writeStream(key, counted(), { contentType });
    }
  } catch (err) {
    if (err instanceof EntryDataError || err instanceof ServiceError) throw err;
    throw storageFailure(err);
  }
  return { size, sha256: hash.digest('hex'), crc32: hexCrc(crc >>> 0) };
}
