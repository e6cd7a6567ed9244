// The file pages' script: uploads of files and whole folders (picked or dropped) with progress and resume, and the
// preview of a large text file's first bytes. Uploads use the ordinary routes and bindings: upload_begin, then each
// 8 MiB part PUT to the part route, then upload_complete; an interrupted upload is found again by upload_status and
// only its missing parts are sent. The page gives every text this script shows (data-texts): it has none of its own.
'use strict';

(() => {
  // A large text file's preview: its first bytes, fetched through the download route (whose sandbox rules apply)
  // and shown as text, never as markup.
  for (const pre of document.querySelectorAll('pre[data-preview-src]')) {
    const bytes = Number(pre.dataset.previewBytes) || 65536;
    fetch(pre.dataset.previewSrc, { headers: { range: `bytes=0-${bytes - 1}` }, credentials: 'same-origin' })
      .then((res) => (res.ok ? res.arrayBuffer() : Promise.reject(new Error(String(res.status)))))
      .then((buf) => {
        pre.querySelector('code').textContent = new TextDecoder('utf-8').decode(buf);
      })
      .catch(() => {
        pre.hidden = true;
      });
  }

  const panel = document.getElementById('uploads');
  if (!panel) return;
  panel.hidden = false;
  const T = JSON.parse(panel.dataset.texts);
  const csrf = panel.dataset.csrf;
  const folder = panel.dataset.folder;
  const locale = panel.dataset.locale;
  const list = document.getElementById('upload-list');
  const STORE = 'siglata.uploads';
  const PARALLEL_PARTS = 3;
  const PARALLEL_FILES = 2;
  const MAX_RETRIES = 8;

  const percent = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 });
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  // Uploads begun and not finished, kept so that choosing the same file again (same path, size and date) resumes.
  const saved = () => {
    try {
      return JSON.parse(localStorage.getItem(STORE) || '[]').filter((u) => Date.parse(u.expiresAt) > Date.now());
    } catch {
      return [];
    }
  };
  const save = (entries) => localStorage.setItem(STORE, JSON.stringify(entries));
  const remember = (u) => save([...saved().filter((s) => s.uploadId !== u.uploadId), u]);
  const forget = (uploadId) => save(saved().filter((s) => s.uploadId !== uploadId));
  const sameFile = (s, name, file) => s.name === name && s.size === file.size && s.lastModified === file.lastModified;

  class Refused extends Error {
    constructor(status, body, retryAfter) {
      const e = (body && (body.error || body)) || {};
      super([e.message, e.resolution].filter(Boolean).join(' ') || String(status));
      this.status = status;
      this.code = e.code;
      this.retryAfter = retryAfter;
    }
    get transient() {
      return this.status === 0 || this.status === 408 || this.status === 429 || this.status >= 500;
    }
  }

  async function api(name, body) {
    let res;
    try {
      res = await fetch(`/console/api/${name}?lang=${locale}`, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json', 'x-csrf-token': csrf, 'x-service-locale': locale },
        body: JSON.stringify(body),
      });
    } catch {
      throw new Refused(0, null, 0);
    }
    const json = await res.json().catch(() => null);
    if (!res.ok) throw new Refused(res.status, json, Number(res.headers.get('retry-after')) || 0);
    return json;
  }

  /** PUT one part, reporting bytes sent as they go (XMLHttpRequest: fetch reports no upload progress). */
  function putPart(url, blob, onProgress, item) {
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      item.requests.add(xhr);
      xhr.open('PUT', url);
      xhr.setRequestHeader('content-type', 'application/octet-stream');
      xhr.setRequestHeader('x-service-locale', locale);
      xhr.upload.onprogress = (e) => onProgress(e.loaded);
      xhr.onload = () => {
        item.requests.delete(xhr);
        if (xhr.status === 200) return resolve();
        let body = null;
        try {
          body = JSON.parse(xhr.responseText);
        } catch {}
        reject(new Refused(xhr.status, body, Number(xhr.getResponseHeader('retry-after')) || 0));
      };
      xhr.onerror = xhr.ontimeout = () => {
        item.requests.delete(xhr);
        reject(new Refused(0, null, 0));
      };
      xhr.onabort = () => {
        item.requests.delete(xhr);
        reject(new Refused(-1, null, 0));
      };
      xhr.send(blob);
    });
  }

  /** Retry what can pass later (network, 408, 429, 5xx), waiting as Retry-After says or longer each time. */
  async function patiently(item, attempt) {
    for (let tries = 0; ; tries++) {
      try {
        return await attempt();
      } catch (err) {
        if (item.cancelled || !(err instanceof Refused) || !err.transient || tries >= MAX_RETRIES) throw err;
        item.show(T.paused);
        await sleep(err.retryAfter ? err.retryAfter * 1000 : Math.min(30_000, 1000 * 2 ** tries));
        if (item.cancelled) throw err;
        item.show(T.sending);
      }
    }
  }

  function row(name, size) {
    const li = document.createElement('li');
    const label = document.createElement('span');
    label.textContent = name;
    const bar = document.createElement('progress');
    bar.max = size || 1;
    bar.value = 0;
    bar.setAttribute('aria-label', name);
    const status = document.createElement('span');
    status.className = 'note';
    const buttons = document.createElement('span');
    li.append(label, ' ', status, ' ', buttons, bar);
    return { li, bar, status, buttons };
  }

  function button(text, onClick) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'secondary';
    b.textContent = text;
    b.addEventListener('click', onClick);
    return b;
  }

  const items = [];
  let ul = null;
  let summary = null;

  function ensureList() {
    if (ul) return;
    summary = document.createElement('p');
    summary.id = 'upload-summary';
    ul = document.createElement('ul');
    list.append(summary, ul);
  }

  function refreshSummary() {
    const done = items.filter((i) => i.state === 'done').length;
    summary.textContent = T.summary.replace('{done}', String(done)).replace('{total}', String(items.length));
    const settled = items.every((i) => ['done', 'failed', 'cancelled'].includes(i.state));
    if (!settled) return;
    if (items.every((i) => i.state === 'done' || i.state === 'cancelled') && done > 0) {
      const url = new URL(location.href);
      url.searchParams.set('done', 'upload');
      url.searchParams.delete('cursor');
      location.assign(url.toString());
    } else if (done > 0 && !summary.querySelector('a')) {
      const a = document.createElement('a');
      a.href = location.href;
      a.textContent = T.showFiles;
      summary.append(' ', a);
    }
  }

  class Upload {
    constructor(file, name) {
      this.file = file;
      this.name = name;
      this.state = 'waiting';
      this.requests = new Set();
      this.sent = new Map();
      this.cancelled = false;
      const r = row(name, file.size);
      Object.assign(this, r);
      this.cancelButton = button(T.cancel, () => this.cancel());
      this.buttons.append(this.cancelButton);
      this.show(T.waiting);
    }
    show(text) {
      this.status.textContent = text;
    }
    progress() {
      let total = 0;
      for (const n of this.sent.values()) total += n;
      this.bar.value = total;
      if (this.state === 'sending') this.show(`${T.sending} ${percent.format(this.file.size ? total / this.file.size : 1)}`);
    }
    async run() {
      this.state = 'sending';
      this.show(T.sending);
      try {
        const reservation = await this.reserve();
        await this.sendParts(reservation);
        this.state = 'finishing';
        this.show(T.finishing);
        const file = await patiently(this, () => api('upload_complete', { uploadId: reservation.uploadId })).then(
          (done) => done.file,
          // A completion whose answer was lost (a dropped connection) may still have happened: ask.
          async (err) => {
            const status = await api('upload_status', { uploadId: reservation.uploadId }).catch(() => null);
            if (status && status.state === 'completed') return { fileId: status.fileId };
            throw err;
          },
        );
        forget(reservation.uploadId);
        this.finish(file);
      } catch (err) {
        if (this.cancelled) return;
        this.state = 'failed';
        this.show(`${T.failed}: ${err.message}`);
        this.buttons.replaceChildren(button(T.retry, () => this.retry()));
        this.li.classList.add('failed');
      } finally {
        refreshSummary();
      }
    }
    /** A reservation to send to: the one saved for this very file if it is still open, else a new one. */
    async reserve() {
      const known = saved().find((s) => sameFile(s, this.name, this.file));
      if (known) {
        try {
          const status = await patiently(this, () => api('upload_status', { uploadId: known.uploadId }));
          if (status.state === 'open') {
            this.show(T.resumed);
            this.uploadId = known.uploadId;
            for (const n of status.receivedParts) this.sent.set(n, Math.min(status.partSize, this.file.size - (n - 1) * status.partSize));
            this.progress();
            return { ...known, missing: status.missingParts, partSize: status.partSize };
          }
        } catch {}
        forget(known.uploadId);
      }
      const begun = await patiently(this, () =>
        api('upload_begin', {
          name: this.name,
          mediaType: this.file.type || 'application/octet-stream',
          size: this.file.size,
          // The file's own time, as the command line keeps it: a copy made here says when its content last changed.
          modifiedAt: new Date(this.file.lastModified).toISOString(),
        }),
      );
      this.uploadId = begun.uploadId;
      const entry = {
        uploadId: begun.uploadId,
        name: this.name,
        size: this.file.size,
        lastModified: this.file.lastModified,
        expiresAt: begun.expiresAt,
        partUrl: new URL(begun.partUrl, location.origin).pathname,
        partSize: begun.partSize,
      };
      remember(entry);
      return { ...entry, missing: Array.from({ length: begun.partCount }, (_, i) => i + 1) };
    }
    async sendParts(reservation) {
      const queue = [...reservation.missing];
      const worker = async () => {
        while (queue.length) {
          if (this.cancelled) throw new Refused(-1, null, 0);
          const n = queue.shift();
          const start = (n - 1) * reservation.partSize;
          const blob = this.file.slice(start, Math.min(start + reservation.partSize, this.file.size));
          const url = reservation.partUrl.replace('%7BpartNumber%7D', String(n)).replace('{partNumber}', String(n));
          await patiently(this, () =>
            putPart(
              url,
              blob,
              (loaded) => {
                this.sent.set(n, loaded);
                this.progress();
              },
              this,
            ),
          );
          this.sent.set(n, blob.size);
          this.progress();
        }
      };
      await Promise.all(Array.from({ length: Math.min(PARALLEL_PARTS, queue.length || 1) }, worker));
    }
    finish(file) {
      this.state = 'done';
      this.bar.value = this.bar.max;
      this.show(T.done);
      this.buttons.replaceChildren();
      if (file && file.fileId) {
        const a = document.createElement('a');
        a.href = `/console/files/details?lang=${locale}&fileId=${encodeURIComponent(file.fileId)}`;
        a.textContent = this.name;
        this.li.firstChild.replaceWith(a);
      }
    }
    async cancel() {
      this.cancelled = true;
      this.state = 'cancelled';
      for (const xhr of this.requests) xhr.abort();
      this.show(T.cancelled);
      this.buttons.replaceChildren();
      if (this.uploadId) {
        forget(this.uploadId);
        await api('upload_abort', { uploadId: this.uploadId }).catch(() => {});
      }
      refreshSummary();
    }
    retry() {
      this.cancelled = false;
      this.li.classList.remove('failed');
      this.buttons.replaceChildren(this.cancelButton);
      pending.push(this);
      pump();
    }
  }

  const pending = [];
  let running = 0;
  function pump() {
    while (running < PARALLEL_FILES && pending.length) {
      const item = pending.shift();
      running++;
      item.run().finally(() => {
        running--;
        pump();
      });
    }
  }

  function add(entries) {
    if (!entries.length) return;
    ensureList();
    for (const { file, path } of entries) {
      const item = new Upload(file, `${folder}${path}`);
      items.push(item);
      ul.append(item.li);
      pending.push(item);
    }
    refreshSummary();
    pump();
  }

  const fromInput = (input) => () => {
    add([...input.files].map((file) => ({ file, path: file.webkitRelativePath || file.name })));
    input.value = '';
  };
  const filesInput = document.getElementById('upload-files');
  const folderInput = document.getElementById('upload-folder');
  filesInput.addEventListener('change', fromInput(filesInput));
  folderInput.addEventListener('change', fromInput(folderInput));

  // Dropped files and folders (a dropped folder is walked to every file in it).
  const readAll = (reader) =>
    new Promise((resolve, reject) => {
      const out = [];
      const next = () =>
        reader.readEntries((batch) => {
          if (!batch.length) return resolve(out);
          out.push(...batch);
          next();
        }, reject);
      next();
    });
  async function walk(entry, prefix, out) {
    if (entry.isFile) {
      const file = await new Promise((resolve, reject) => entry.file(resolve, reject));
      out.push({ file, path: `${prefix}${file.name}` });
    } else if (entry.isDirectory) {
      for (const child of await readAll(entry.createReader())) await walk(child, `${prefix}${entry.name}/`, out);
    }
  }
  const drop = document.getElementById('drop-zone');
  drop.addEventListener('dragover', (e) => {
    e.preventDefault();
    drop.classList.add('over');
  });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', async (e) => {
    e.preventDefault();
    drop.classList.remove('over');
    const entries = [...e.dataTransfer.items].map((i) => i.webkitGetAsEntry && i.webkitGetAsEntry()).filter(Boolean);
    const out = [];
    if (entries.length) for (const entry of entries) await walk(entry, '', out);
    else for (const file of e.dataTransfer.files) out.push({ file, path: file.name });
    add(out);
  });

  // Leaving the page stops uploads: ask first.
  window.addEventListener('beforeunload', (e) => {
    if (items.some((i) => i.state === 'sending' || i.state === 'waiting' || i.state === 'finishing')) e.preventDefault();
  });

  // Uploads interrupted earlier (a closed tab, a lost connection) into this folder: pick the file again to resume.
  const interrupted = saved().filter((s) => s.name.startsWith(folder));
  if (interrupted.length) {
    const box = document.createElement('div');
    box.id = 'interrupted';
    const heading = document.createElement('p');
    heading.textContent = `${T.interrupted}: ${T.interruptedHint}`;
    const ol = document.createElement('ul');
    for (const s of interrupted) {
      const li = document.createElement('li');
      li.textContent = `${s.name} `;
      li.append(
        button(T.forget, async () => {
          forget(s.uploadId);
          li.remove();
          await api('upload_abort', { uploadId: s.uploadId }).catch(() => {});
        }),
      );
      ol.append(li);
    }
    box.append(heading, ol);
    list.before(box);
  }
})();
