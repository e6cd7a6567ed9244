// Putting fixture bytes into the catalogue the way a client does (upload_begin → PUT parts → upload_complete), and
// getting a file's bytes back through the download route.
import { request } from 'undici';
import type { TestApp } from '../helpers/app.ts';
import type { Caller } from '../../runtime-api/identity/caller.ts';
import { invoke } from '../../runtime-api/invoke.ts';
import { invokeDeps } from '../../server/deps.ts';
import { upload_begin } from '../../runtime-api/bindings/uploads/upload_begin.ts';
import { upload_complete } from '../../runtime-api/bindings/uploads/upload_complete.ts';

export async function uploadBytes(app: TestApp, caller: Caller & { token: string }, name: string, data: Buffer, mediaType: string) {
  const deps = invokeDeps(app.deps);
  const begun = await invoke(upload_begin, { name, mediaType, size: data.length }, caller, deps);
  for (let n = 1; n <= begun.partCount; n++) {
    const res = await request(`${app.url}/v1/mcp/uploads/${begun.uploadId}/parts/${n}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream', authorization: `Bearer ${caller.token}` },
      body: data.subarray((n - 1) * begun.partSize, n * begun.partSize),
    });
    const text = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`part ${n}: ${res.statusCode} ${text}`);
  }
  return (await invoke(upload_complete, { uploadId: begun.uploadId }, caller, deps)).file;
}

export async function downloadBytes(app: TestApp, token: string, fileId: string): Promise<{ status: number; type: string; body: Buffer }> {
  const res = await request(`${app.url}/v1/mcp/files/${fileId}/download`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.statusCode, type: String(res.headers['content-type'] ?? ''), body: Buffer.from(await res.body.arrayBuffer()) };
}
