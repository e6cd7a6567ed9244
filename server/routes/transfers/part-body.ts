// Reading an upload part's body straight into a pooled buffer, without koa-body (bench/part-body.ts shows why).
import type Koa from 'koa';
import { copyInto } from '../../http/part-checksums.ts';
import { release } from './chunk-memory.ts';
import { partBodyIncomplete } from './messages.ts';

export interface ReadResult {
  length: number;
  overflow: boolean;
}

/**
 * Read the request body into `buf` (at most `expected` bytes); its checksums are computed once it is all here, on
 * the checksum thread. Stops reading at the first byte past `expected` (the connection is then closed after the 400).
 * Exported for bench/part-body.ts, which weighs it against buffering through koa-body.
 */
export function readBody(req: Koa.Context['req'], buf: Buffer, expected: number): Promise<ReadResult> {
  return new Promise((resolve, reject) => {
    if (req.destroyed) {
      reject(partBodyIncomplete());
      return;
    }
    let length = 0;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      if (length + chunk.length > expected) {
        cleanup();
        req.pause();
        resolve({ length: length + chunk.length, overflow: true });
        return;
      }
      copyInto(buf, chunk, length);
      length += chunk.length;
      if (sole) release(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve({ length, overflow: false });
    };
    const onError = (err: Error) => {
      cleanup();
      reject(partBodyIncomplete(err));
    };
    const onClose = () => {
      if (!req.complete) onError(new Error('client closed the request'));
    };
    req.on('data', onData);
    const sole = req.listenerCount('data') === 1;
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}
