// A small in-memory server for the part of the GCS JSON API our gcs adapter uses (research/storage.md 1c), so the
// real @google-cloud/storage client can be tested offline: point it at `url` through `apiEndpoint`.
// Covers: media/multipart/resumable uploads, object GET (metadata, alt=media with Range and x-goog-hash), PATCH,
// DELETE, list (prefix, delimiter, pages), compose (1..32 sources), bucket get/create, ifGenerationMatch (412).
// Faults can be injected per operation to exercise the adapter's retries.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import { CRC32C } from '@google-cloud/storage';

export type GcsOperation = 'upload' | 'get' | 'media' | 'list' | 'delete' | 'compose' | 'patch';

interface StoredObject {
  name: string;
  data: Buffer;
  generation: number;
  metageneration: number;
  contentType: string;
  md5Hash?: string;
  crc32c: string;
  componentCount?: number;
  metadata?: Record<string, string>;
  timeCreated: string;
  updated: string;
}

export interface FakeGcs {
  url: string;
  /** Objects by bucket, then name (inspect in tests). */
  buckets: Map<string, Map<string, StoredObject>>;
  /** Requests seen, as `METHOD operation name`. */
  log: string[];
  /** Answer the next `count` requests of `op` with `status` (default 503). */
  failNext(op: GcsOperation, count?: number, status?: number): void;
  /** Forget every injected fault not yet used. */
  clearFaults(): void;
  close(): Promise<void>;
}

class HttpError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

function crc32cOf(data: Buffer): string {
  const c = new CRC32C();
  c.update(data);
  return c.toString();
}

function md5Of(data: Buffer): string {
  return createHash('md5').update(data).digest('base64');
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Split a multipart/related body into its parts (headers are ignored beyond what we need). */
function parseMultipart(body: Buffer, boundary: string): { headers: string; data: Buffer }[] {
  const delim = Buffer.from(`--${boundary}`);
  const parts: { headers: string; data: Buffer }[] = [];
  let pos = body.indexOf(delim);
  while (pos !== -1) {
    const start = pos + delim.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(delim, start);
    if (next === -1) break;
    const chunk = body.subarray(start + 2, next - 2); // skip CRLF after the boundary and before the next one
    const split = chunk.indexOf('\r\n\r\n');
    parts.push({ headers: chunk.subarray(0, split).toString(), data: chunk.subarray(split + 4) });
    pos = next;
  }
  return parts;
}

export async function startFakeGcs(options: { port?: number } = {}): Promise<FakeGcs> {
  const buckets = new Map<string, Map<string, StoredObject>>();
  const sessions = new Map<string, { bucket: string; name: string; contentType: string; chunks: Buffer[]; received: number; query: URLSearchParams }>();
  const faults = new Map<GcsOperation, { count: number; status: number }[]>();
  const log: string[] = [];
  let generation = Date.now() * 1000;

  const bucketOf = (name: string) => {
    let b = buckets.get(name);
    if (!b) {
      b = new Map();
      buckets.set(name, b);
    }
    return b;
  };

  function fault(op: GcsOperation): void {
    const queue = faults.get(op);
    const f = queue?.[0];
    if (!f) return;
    if (--f.count <= 0) queue!.shift();
    throw new HttpError(f.status, `injected ${op} fault`);
  }

  function resource(bucket: string, o: StoredObject) {
    return {
      kind: 'storage#object',
      id: `${bucket}/${o.name}/${o.generation}`,
      selfLink: `${server.url}/storage/v1/b/${bucket}/o/${encodeURIComponent(o.name)}`,
      name: o.name,
      bucket,
      generation: String(o.generation),
      metageneration: String(o.metageneration),
      contentType: o.contentType,
      storageClass: 'STANDARD',
      size: String(o.data.length),
      ...(o.md5Hash ? { md5Hash: o.md5Hash } : {}),
      crc32c: o.crc32c,
      ...(o.componentCount ? { componentCount: o.componentCount } : {}),
      ...(o.metadata ? { metadata: o.metadata } : {}),
      timeCreated: o.timeCreated,
      updated: o.updated,
    };
  }

  function checkPreconditions(existing: StoredObject | undefined, q: URLSearchParams): void {
    const match = q.get('ifGenerationMatch');
    if (match !== null) {
      const current = existing ? existing.generation : 0;
      if (Number(match) !== current) throw new HttpError(412, 'At least one of the pre-conditions you specified did not hold.');
    }
    const notMatch = q.get('ifGenerationNotMatch');
    if (notMatch !== null && existing && Number(notMatch) === existing.generation) {
      throw new HttpError(412, 'At least one of the pre-conditions you specified did not hold.');
    }
  }

  function store(
    bucket: string,
    name: string,
    data: Buffer,
    meta: { contentType?: string; md5Hash?: string; crc32c?: string; metadata?: Record<string, string> },
    q: URLSearchParams,
    componentCount?: number,
  ): StoredObject {
    const objects = bucketOf(bucket);
    checkPreconditions(objects.get(name), q);
    const md5Hash = componentCount ? undefined : md5Of(data);
    const crc32c = crc32cOf(data);
    // Like GCS: a hash supplied with the upload is checked before the object is committed.
    if (meta.md5Hash && meta.md5Hash !== md5Of(data)) throw new HttpError(400, 'Provided MD5 hash does not match the calculated MD5 hash.');
    if (meta.crc32c && meta.crc32c !== crc32c) throw new HttpError(400, 'Provided CRC32C does not match the calculated CRC32C.');
    const now = new Date().toISOString();
    const o: StoredObject = {
      name,
      data,
      generation: ++generation,
      metageneration: 1,
      contentType: meta.contentType ?? 'application/octet-stream',
      md5Hash,
      crc32c,
      componentCount,
      metadata: meta.metadata,
      timeCreated: now,
      updated: now,
    };
    objects.set(name, o);
    return o;
  }

  function getObject(bucket: string, name: string): StoredObject {
    const o = buckets.get(bucket)?.get(name);
    if (!o) throw new HttpError(404, `No such object: ${bucket}/${name}`);
    return o;
  }

  function json(res: ServerResponse, status: number, body: unknown): void {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  }

  async function handleUpload(req: IncomingMessage, res: ServerResponse, bucket: string, q: URLSearchParams): Promise<void> {
    const type = q.get('uploadType');
    if (req.method === 'POST' && type === 'resumable') {
      fault('upload');
      const body = await readBody(req);
      const meta = body.length ? JSON.parse(body.toString()) : {};
      const id = randomBytes(8).toString('hex');
      const name = meta.name ?? q.get('name');
      sessions.set(id, {
        bucket,
        name,
        contentType: meta.contentType ?? req.headers['x-upload-content-type'] ?? 'application/octet-stream',
        chunks: [],
        received: 0,
        query: q,
      });
      log.push(`POST upload ${name}`);
      res.writeHead(200, { location: `${server.url}/upload/storage/v1/b/${bucket}/o?uploadType=resumable&upload_id=${id}`, 'content-length': 0 });
      res.end();
      return;
    }
    if (req.method === 'PUT' && type === 'resumable') {
      const s = sessions.get(q.get('upload_id') ?? '');
      if (!s) throw new HttpError(404, 'No such upload session');
      const body = await readBody(req);
      const range = String(req.headers['content-range'] ?? '');
      if (body.length) {
        s.chunks.push(body);
        s.received += body.length;
      }
      // `bytes a-b/*`: a chunk, more to come (308); `bytes a-b/total` or `bytes */total`: the last one;
      // `bytes 0-*/*`: the whole object in this request (the client's single-shot form).
      const m = /^bytes (\*|\d+-(\d+|\*))\/(\d+|\*)$/.exec(range);
      if (!m) throw new HttpError(400, `bad Content-Range: ${range}`);
      const final = m[3] !== '*' ? s.received >= Number(m[3]) : m[2] === '*';
      if (!final) {
        res.writeHead(308, s.received ? { range: `bytes=0-${s.received - 1}`, 'content-length': 0 } : { 'content-length': 0 });
        res.end();
        return;
      }
      sessions.delete(q.get('upload_id')!);
      const o = store(s.bucket, s.name, Buffer.concat(s.chunks), { contentType: s.contentType }, s.query);
      json(res, 200, resource(s.bucket, o));
      return;
    }
    if (req.method !== 'POST') throw new HttpError(405, 'method not allowed');
    fault('upload');
    const body = await readBody(req);
    if (type === 'media') {
      const name = q.get('name');
      if (!name) throw new HttpError(400, 'name is required');
      log.push(`POST upload ${name}`);
      const o = store(bucket, name, body, { contentType: req.headers['content-type'] }, q);
      json(res, 200, resource(bucket, o));
      return;
    }
    if (type === 'multipart') {
      const boundary = /boundary="?([^";]+)"?/.exec(String(req.headers['content-type']))?.[1];
      if (!boundary) throw new HttpError(400, 'multipart boundary missing');
      const [metaPart, mediaPart] = parseMultipart(body, boundary);
      if (!metaPart || !mediaPart) throw new HttpError(400, 'multipart body needs metadata and media');
      const meta = JSON.parse(metaPart.data.toString());
      const name = meta.name ?? q.get('name');
      log.push(`POST upload ${name}`);
      const mediaType = /content-type:\s*([^\r\n]+)/i.exec(mediaPart.headers)?.[1];
      const o = store(bucket, name, Buffer.from(mediaPart.data), { ...meta, contentType: meta.contentType ?? mediaType }, q);
      json(res, 200, resource(bucket, o));
      return;
    }
    throw new HttpError(400, `unsupported uploadType ${type}`);
  }

  function handleList(res: ServerResponse, bucket: string, q: URLSearchParams): void {
    fault('list');
    const prefix = q.get('prefix') ?? '';
    const delimiter = q.get('delimiter');
    const max = Math.min(Number(q.get('maxResults') ?? 1000) || 1000, 1000);
    const after = q.get('pageToken') ? Buffer.from(q.get('pageToken')!, 'base64url').toString() : '';
    const names = [...(buckets.get(bucket)?.keys() ?? [])].filter((n) => n.startsWith(prefix)).sort();
    const items: StoredObject[] = [];
    const prefixes = new Set<string>();
    let nextPageToken: string | undefined;
    for (const name of names) {
      if (after && name <= after) continue;
      if (delimiter) {
        const rest = name.slice(prefix.length);
        const i = rest.indexOf(delimiter);
        if (i !== -1) {
          prefixes.add(prefix + rest.slice(0, i + delimiter.length));
          continue;
        }
      }
      if (items.length === max) {
        nextPageToken = Buffer.from(items[items.length - 1].name).toString('base64url');
        break;
      }
      items.push(buckets.get(bucket)!.get(name)!);
    }
    log.push(`GET list ${prefix}`);
    json(res, 200, {
      kind: 'storage#objects',
      items: items.map((o) => resource(bucket, o)),
      ...(prefixes.size ? { prefixes: [...prefixes].sort() } : {}),
      ...(nextPageToken ? { nextPageToken } : {}),
    });
  }

  function sendMedia(req: IncomingMessage, res: ServerResponse, o: StoredObject): void {
    fault('media');
    const size = o.data.length;
    const headers: Record<string, string | number> = {
      'content-type': o.contentType,
      'x-goog-generation': String(o.generation),
      'x-goog-stored-content-encoding': 'identity',
      'x-goog-hash': [`crc32c=${o.crc32c}`, ...(o.md5Hash ? [`md5=${o.md5Hash}`] : [])].join(','),
    };
    const range = /^bytes=(\d*)-(\d*)$/.exec(String(req.headers.range ?? ''));
    if (range && size > 0) {
      const start = range[1] === '' ? Math.max(0, size - Number(range[2])) : Number(range[1]);
      const end = range[1] === '' || range[2] === '' ? size - 1 : Math.min(Number(range[2]), size - 1);
      if (start >= size || start > end) {
        res.writeHead(416, { 'content-range': `bytes */${size}` });
        res.end();
        return;
      }
      res.writeHead(206, { ...headers, 'content-range': `bytes ${start}-${end}/${size}`, 'content-length': end - start + 1 });
      res.end(o.data.subarray(start, end + 1));
      return;
    }
    res.writeHead(200, { ...headers, 'content-length': size });
    res.end(o.data);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://x');
    const q = url.searchParams;
    let path = url.pathname;
    const upload = path.startsWith('/upload/');
    path = path.replace(/^\/upload/, '').replace(/^\/storage\/v1/, '');
    const seg = path.split('/').filter(Boolean);
    // /b  /b/{bucket}  /b/{bucket}/o  /b/{bucket}/o/{object}  /b/{bucket}/o/{object}/compose
    if (seg[0] !== 'b') throw new HttpError(404, `unknown path ${url.pathname}`);
    if (seg.length === 1 && req.method === 'POST') {
      const meta = JSON.parse((await readBody(req)).toString() || '{}');
      bucketOf(meta.name);
      json(res, 200, { kind: 'storage#bucket', id: meta.name, name: meta.name });
      return;
    }
    const bucket = decodeURIComponent(seg[1] ?? '');
    if (upload) return handleUpload(req, res, bucket, q);
    if (seg.length === 2) {
      if (req.method !== 'GET') throw new HttpError(405, 'method not allowed');
      json(res, 200, { kind: 'storage#bucket', id: bucket, name: bucket, location: 'US', storageClass: 'STANDARD' });
      return;
    }
    if (seg[2] !== 'o') throw new HttpError(404, `unknown path ${url.pathname}`);
    if (seg.length === 3) {
      if (req.method !== 'GET') throw new HttpError(405, 'method not allowed');
      handleList(res, bucket, q);
      return;
    }
    const name = decodeURIComponent(seg[3]);
    if (seg.length === 5 && seg[4] === 'compose' && req.method === 'POST') {
      fault('compose');
      const body = JSON.parse((await readBody(req)).toString());
      const sources = body.sourceObjects as { name: string; generation?: number }[];
      log.push(`POST compose ${name} ${sources.length}`);
      if (!Array.isArray(sources) || sources.length === 0) throw new HttpError(400, 'sourceObjects is required');
      if (sources.length > 32) throw new HttpError(400, `The number of source components provided (${sources.length}) exceeds the maximum (32)`);
      const parts = sources.map((s) => {
        const o = getObject(bucket, s.name);
        if (s.generation !== undefined && Number(s.generation) !== o.generation) throw new HttpError(404, `No such object generation: ${s.name}`);
        return o;
      });
      const components = parts.reduce((n, o) => n + (o.componentCount ?? 1), 0);
      const o = store(
        bucket,
        name,
        Buffer.concat(parts.map((p) => p.data)),
        { contentType: body.destination?.contentType, metadata: body.destination?.metadata },
        q,
        components,
      );
      json(res, 200, resource(bucket, o));
      return;
    }
    if (seg.length !== 4) throw new HttpError(404, `unknown path ${url.pathname}`);
    if (req.method === 'GET') {
      fault('get');
      const o = getObject(bucket, name);
      checkPreconditions(o, q);
      if (q.get('alt') === 'media') {
        log.push(`GET media ${name}`);
        sendMedia(req, res, o);
        return;
      }
      log.push(`GET object ${name}`);
      json(res, 200, resource(bucket, o));
      return;
    }
    if (req.method === 'DELETE') {
      fault('delete');
      const o = getObject(bucket, name);
      checkPreconditions(o, q);
      buckets.get(bucket)!.delete(name);
      log.push(`DELETE object ${name}`);
      res.writeHead(204);
      res.end();
      return;
    }
    if (req.method === 'PATCH') {
      fault('patch');
      const o = getObject(bucket, name);
      const meta = JSON.parse((await readBody(req)).toString() || '{}');
      if (meta.contentType) o.contentType = meta.contentType;
      if (meta.metadata) o.metadata = { ...o.metadata, ...meta.metadata };
      o.metageneration++;
      o.updated = new Date().toISOString();
      json(res, 200, resource(bucket, o));
      return;
    }
    throw new HttpError(405, 'method not allowed');
  }

  const http = createServer((req, res) => {
    handle(req, res).catch((err) => {
      const status = err instanceof HttpError ? err.status : 500;
      if (res.headersSent) {
        res.destroy();
        return;
      }
      req.resume();
      json(res, status, {
        error: {
          code: status,
          message: (err as Error).message,
          errors: [{ message: (err as Error).message, reason: status === 404 ? 'notFound' : 'invalid' }],
        },
      });
    });
  });
  await new Promise<void>((resolve) => http.listen(options.port ?? 0, '127.0.0.1', resolve));
  const server: FakeGcs = {
    url: `http://127.0.0.1:${(http.address() as { port: number }).port}`,
    buckets,
    log,
    clearFaults() {
      faults.clear();
    },
    failNext(op, count = 1, status = 503) {
      const queue = faults.get(op) ?? [];
      queue.push({ count, status });
      faults.set(op, queue);
    },
    async close() {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
  return server;
}
