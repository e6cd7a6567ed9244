// Helpers for the file tests: PUT parts and GET downloads over real HTTP, and a whole upload (begin → parts →
// complete) through the bindings and the transfer route.
import { request } from 'undici';
import { createHash, randomBytes } from 'node:crypto';
import type { TestApp } from '../helpers/app.ts';
import type { Caller } from '../../runtime-api/identity/caller.ts';
import { invoke } from '../../runtime-api/invoke.ts';
import { invokeDeps } from '../../server/deps.ts';
import { upload_begin } from '../../runtime-api/bindings/uploads/upload_begin.ts';
import { upload_complete } from '../../runtime-api/bindings/uploads/upload_complete.ts';

export const MiB = 1024 * 1024;
export const PART = 8 * MiB;

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  json: any;
}

export async function putPart(
  app: TestApp,
  token: string | null,
  uploadId: string,
  partNumber: number | string,
  body: Buffer,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  const res = await request(`${app.url}/v1/mcp/uploads/${uploadId}/parts/${partNumber}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/octet-stream', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body,
  });
  return finish(res);
}

export async function download(app: TestApp, token: string, fileId: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  const res = await request(`${app.url}/v1/mcp/files/${fileId}/download`, { headers: { authorization: `Bearer ${token}`, ...headers } });
  return finish(res);
}

async function finish(res: Awaited<ReturnType<typeof request>>): Promise<RawResponse> {
  const body = Buffer.from(await res.body.arrayBuffer());
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    /* binary */
  }
  return { status: res.statusCode, headers: res.headers, body, json };
}

/** Deterministic-ish test bytes (random, so a wrong offset can never look right). */
export function bytes(n: number): Buffer {
  return randomBytes(n);
}

export function sha256(b: Buffer): string {
  return createHash('sha256').update(b).digest('hex');
}

export function partOf(data: Buffer, n: number): Buffer {
  return data.subarray((n - 1) * PART, Math.min(data.length, n * PART));
}

/** begin → every part over HTTP (in parallel) → complete; returns the completed file record. */
export async function uploadFile(app: TestApp, caller: Caller & { token: string }, name: string, data: Buffer, mediaType = 'application/octet-stream') {
  const deps = invokeDeps(app.deps);
  const begun = await invoke(upload_begin, { name, mediaType, size: data.length }, caller, deps);
  const results = await Promise.all(Array.from({ length: begun.partCount }, (_, i) => putPart(app, caller.token, begun.uploadId, i + 1, partOf(data, i + 1))));
  for (const r of results) if (r.status !== 200) throw new Error(`part upload failed: ${r.status} ${r.body.toString()}`);
  return (await invoke(upload_complete, { uploadId: begun.uploadId }, caller, deps)).file;
}
