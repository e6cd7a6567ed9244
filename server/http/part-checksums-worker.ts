// The checksum thread of part-checksums.ts: reads each part in place (shared memory) and answers its checksums.
import { parentPort } from 'node:worker_threads';
import { checksumsOf, type ChecksumReply, type ChecksumRequest } from './part-checksums.ts';

parentPort!.on('message', (req: ChecksumRequest) => {
  let reply: ChecksumReply;
  try {
    const sums = checksumsOf(new Uint8Array(req.memory, req.offset, req.length), req.hashes);
    reply = { id: req.id, crc32: sums.crc32, hashes: sums.hashes };
  } catch (err) {
    reply = { id: req.id, crc32: 0, hashes: {}, error: String(err) };
  }
  parentPort!.postMessage(reply);
});
