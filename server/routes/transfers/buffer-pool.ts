// The part buffers of the upload route: bounding how many exist bounds the memory parts in flight can take.
import { sharedPartBuffer } from '../../http/part-checksums.ts';
import { PART_SIZE } from '../../../runtime-api/index.ts';

/** A fixed set of reusable 8 MiB buffers: at most `size` parts are in memory at once; later ones wait their turn. */
export function bufferPool(size: number, allocate: () => Promise<Buffer> = async () => sharedPartBuffer(PART_SIZE)) {
  const free: Buffer[] = [];
  const waiting: ((b: Buffer) => void)[] = [];
  let created = 0;
  return {
    async acquire(): Promise<Buffer> {
      const b = free.pop();
      if (b) return b;
      if (created < size) {
        created++;
        try {
          return await allocate();
        } catch (err) {
          created--;
          throw err;
        }
      }
      return new Promise((resolve) => waiting.push(resolve));
    },
    release(b: Buffer): void {
      const next = waiting.shift();
      if (next) next(b);
      else free.push(b);
    },
  };
}

export type BufferPool = ReturnType<typeof bufferPool>;
