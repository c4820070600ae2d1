// The attachments of a rendered note (markdown.js marks them with data-attachment): GET /memory/vault/attachment
// with the session's bearer. An <img src> cannot send an Authorization header, so the bytes are fetched and shown
// through blob: URLs (the Content-Security-Policy allows img-src blob:), which are revoked when the note changes.
// An SVG shown in an <img> never runs its scripts; it gets a data: URL instead, because a blob: URL opened on its
// own ("open image in new tab") would be a document of the hub's origin, and whether the hub's policy still covers
// it is up to the browser; a data: document has an opaque origin and browsers refuse to open one top-level.
// A link to an attachment (a PDF, a linked image) saves the file.
import { authHeaders } from './api.js';
import { escapeHtml } from './markdown.js';

let shown = [];
let generation = 0;

async function fetchAttachment(path) {
  const res = await fetch(`/memory/vault/attachment?${new URLSearchParams({ path })}`, { headers: authHeaders() });
  if (!res.ok) {
    let message = `HTTP ${res.status}`;
    try { message = (await res.json()).message || message; } catch { /* not JSON: the status says it */ }
    throw new Error(message);
  }
  return res.blob();
}

function unavailable(path, message) {
  const chip = document.createElement('span');
  chip.className = 'attachment missing';
  chip.title = `${path}: ${message}`;
  chip.innerHTML = `attachment not available: ${escapeHtml(path.split('/').pop())}`;
  return chip;
}

function dataUrl(blob) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result);
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(blob);
  });
}

async function save(a) {
  const path = a.dataset.attachment;
  try {
    const url = URL.createObjectURL(await fetchAttachment(path));
    const download = document.createElement('a');
    download.href = url;
    download.download = path.split('/').pop();
    download.click();
    setTimeout(() => URL.revokeObjectURL(url), 60000);
  } catch (e) {
    a.replaceWith(unavailable(path, e.message));
  }
}

/** Loads the images under root and makes its attachment links save their file; call releaseAttachments() first. */
export function showAttachments(root) {
  const mine = generation;
  root.querySelectorAll('img[data-attachment]').forEach(async img => {
    try {
      const blob = await fetchAttachment(img.dataset.attachment);
      if (blob.type === 'image/svg+xml') {
        const url = await dataUrl(blob);
        if (mine === generation) img.src = url;
        return;
      }
      if (mine !== generation) return; // the note changed meanwhile
      const url = URL.createObjectURL(blob);
      shown.push(url);
      img.src = url;
    } catch (e) {
      if (mine === generation) img.replaceWith(unavailable(img.dataset.attachment, e.message));
    }
  });
  root.querySelectorAll('a[data-attachment]').forEach(a => a.addEventListener('click', e => {
    e.preventDefault();
    save(a);
  }));
}

/** Revokes the blob: URLs of the images shown so far; answers still on their way are dropped. */
export function releaseAttachments() {
  generation++;
  shown.forEach(url => URL.revokeObjectURL(url));
  shown = [];
}
