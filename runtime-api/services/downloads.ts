// A file's bytes for the download route: the file the organization has under that id, then its blob, whole or a
// range. The file row is the truth of what exists: a blob missing behind it is the store's failure, never a 404.
import type { Readable } from 'node:stream';
import type { Sql } from 'postgres';
import { BlobNotFoundError, type BlobStore } from '../blobs/port.ts';
import { ServiceError } from '../errors.ts';
import { findFile, type FileRow } from '../store/files.ts';
import { fileNotFound } from './files-messages.ts';
import { storageFailure } from './uploads.ts';

export async function fileToDownload(sql: Sql, orgId: string, fileId: string): Promise<FileRow> {
  const file = await findFile(sql, orgId, fileId);
  if (!file) throw fileNotFound(fileId);
  return file;
}

export async function readFileBytes(blobs: BlobStore, file: FileRow, range?: { start: number; end: number }): Promise<Readable> {
  try {
    return await blobs.read(file.blobKey, range);
  } catch (err) {
    throw err instanceof BlobNotFoundError ? new ServiceError('storage_failure', { cause: err }) : storageFailure(err);
  }
}
