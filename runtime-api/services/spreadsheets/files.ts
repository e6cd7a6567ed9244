// The catalogue side of the spreadsheet bindings: read a file's bytes, capped. Creating a file from bytes is the
// files service's createFileFromBytes (services/files.ts), shared with files_write_text.
import type { HandlerContext } from '../../define.ts';
import { findFile, type FileRow } from '../../store/files.ts';
import { fileNotFound } from '../files-messages.ts';
import { storageFailure } from '../uploads.ts';
import { fileTooLarge } from './messages.ts';

type Deps = Pick<HandlerContext, 'sql' | 'blobs' | 'clock' | 'config' | 'caller' | 'signal'>;

/** The whole content of one of the caller's organization's files (active or trashed), at most `maxBytes`. */
export async function readFileBytes(deps: Deps, fileId: string, maxBytes: number): Promise<{ file: FileRow; bytes: Buffer }> {
  const file = await findFile(deps.sql, deps.caller.membership!.orgId, fileId);
  if (!file) throw fileNotFound(fileId);
  const tooBig = () => fileTooLarge(file.byteLength, maxBytes);
  if (file.byteLength > maxBytes) throw tooBig();
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of await deps.blobs.read(file.blobKey)) {
      if (deps.signal?.aborted) break;
      total += (chunk as Buffer).length;
      if (total > maxBytes) throw tooBig(); // the row's size is trusted, but never past the cap
      chunks.push(chunk as Buffer);
    }
  } catch (err) {
    throw storageFailure(err);
  }
  // Before the caller parses the bytes (synchronous work of up to seconds): nobody waits for it any more.
  deps.signal?.throwIfAborted();
  return { file, bytes: Buffer.concat(chunks, total) };
}

export { createFileFromBytes } from '../files.ts';
