// The vault view: collapsible file tree, breadcrumbs, markdown preview with working wiki-links, backlinks,
// and the note's edit buttons (edit.js: edits submitted for review).
import { api, query } from './api.js';
import { uiConfig } from './auth.js';
import { attachmentKind, escapeHtml, renderMarkdown } from './markdown.js';
import { releaseAttachments, showAttachments } from './attachments.js';
import { NoteEditor } from './edit.js';

const $ = id => document.getElementById(id);

/** Paths → nested folders: {dirs: Map<name, node>, files: [entry]}. */
function buildTree(files) {
  const root = { dirs: new Map(), files: [] };
  for (const f of files) {
    const parts = f.path.split('/');
    let node = root;
    for (const dir of parts.slice(0, -1)) {
      if (!node.dirs.has(dir)) node.dirs.set(dir, { dirs: new Map(), files: [] });
      node = node.dirs.get(dir);
    }
    node.files.push(f);
  }
  return root;
}

const fileLeaf = (f, label) =>
  `<li class="file"><a href="#/note/${encodeURI(f.path)}" data-path="${escapeHtml(f.path)}" title="${escapeHtml(f.title || f.path)}">` +
  `${escapeHtml(label)}</a></li>`;

/** A folder holding only its SKILL.md: one leaf named after the folder (every skill's note is called SKILL). */
const skillOnly = node => !node.dirs.size && node.files.length === 1 && node.files[0].path.endsWith('/SKILL.md');

function treeHtml(node, prefix = '') {
  const dirs = [...node.dirs.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([name, child]) => skillOnly(child)
    ? fileLeaf(child.files[0], name)
    : `<li class="dir"><details open data-dir="${escapeHtml(prefix + name)}"><summary>${escapeHtml(name)}</summary>` +
      `<ul>${treeHtml(child, prefix + name + '/')}</ul></details></li>`);
  const files = node.files.sort((a, b) => a.path.localeCompare(b.path)).map(f =>
    fileLeaf(f, f.path.split('/').pop().replace(/\.md$/, '')));
  return dirs.concat(files).join('');
}

/** A vault path that wraps only after a slash, never inside a name (not even at its hyphens). */
const pathHtml = path => path.split('/').map(part => `<span class="path-part">${escapeHtml(part)}</span>`).join('/<wbr>');

/**
 * A resolved link of the side panel: a note opens in the preview, an attachment the hub serves saves its file, any
 * other file is only named.
 */
function outlink(path) {
  const p = escapeHtml(path);
  if (/\.md$/i.test(path)) return `<a href="#/note/${encodeURI(path)}" data-path="${p}">${pathHtml(path)}</a>`;
  return attachmentKind(path) ? `<a href="#" data-attachment="${p}">${pathHtml(path)}</a>` : `<span title="a file type the hub does not show">${pathHtml(path)}</span>`;
}

/** The note's own first heading when it only repeats the title shown above it. */
function dropRepeatedTitle(preview, title) {
  const h1 = preview.querySelector('h1');
  const first = preview.querySelector('h1, h2, h3, h4, h5, h6');
  if (h1 && h1 === first && h1.textContent.trim().toLowerCase() === title.trim().toLowerCase()) h1.remove();
}

export class Browser {
  constructor(state, status) {
    this.state = state;
    this.status = status;
    this.files = [];
    this.note = null;
    this.treeRequests = 0;
    this.openRequests = 0;
    $('collapse-all').addEventListener('click', () => document.querySelectorAll('#tree details').forEach(d => { d.open = false; }));
    this.editor = new NoteEditor(status, () => this.note);
    $('preview').addEventListener('click', e => {
      const a = e.target.closest('a[data-heading]');
      if (a && !a.dataset.path) { e.preventDefault(); this.scrollTo(a.dataset.heading); }
    });
  }

  hasFile(path) {
    return this.files.some(f => f.path === path);
  }

  async loadTree(project) {
    const request = ++this.treeRequests; // the latest request wins: an older answer arriving later is dropped
    if (!project) { $('tree').innerHTML = ''; $('file-count').textContent = ''; this.files = []; return; }
    try {
      const { files } = await api(`/memory/vault?${query({ project })}`);
      if (request !== this.treeRequests) return;
      this.files = files;
      $('tree').innerHTML = `<ul>${treeHtml(buildTree(files))}</ul>`;
      const own = files.filter(f => f.path.startsWith(`projects/${project}/`)).length;
      $('file-count').textContent = `${own} notes in ${project} + ${files.length - own} shared`;
      $('file-count').title = `${files.length} notes in ${project}'s scope: its own and the shared notes they link to`;
      this.markCurrent();
    } catch (e) {
      this.status(`Could not load the vault: ${e.message}`, 'error');
    }
  }

  async open(path) {
    const request = ++this.openRequests; // the note asked for last is the one shown, whichever answer comes last
    this.closeEditor();
    $('review-result').hidden = true;
    const [notePath, heading] = path.split('#');
    try {
      const note = await api(`/memory/vault/file?${query({ path: notePath })}`);
      if (request !== this.openRequests) return;
      // a name (wiki-link name, alias, memory:// URL) opens its note under the note's own path
      if (note.path !== notePath) history.replaceState(null, '', `#/note/${encodeURI(note.path)}${heading ? `#${heading}` : ''}`);
      this.note = note;
      this.status('');
      $('note-title').textContent = note.title || notePath.split('/').pop();
      $('breadcrumbs').innerHTML = this.breadcrumbs(note.path);
      releaseAttachments();
      $('preview').innerHTML = renderMarkdown(note.content, note.links, { remoteImages: uiConfig().remote_images });
      dropRepeatedTitle($('preview'), $('note-title').textContent);
      showAttachments($('preview'));
      this.editor.shown(note);
      $('backlinks').innerHTML = note.backlinks.length
        ? note.backlinks.map(p => `<li><a href="#/note/${encodeURI(p)}" data-path="${escapeHtml(p)}">${pathHtml(p)}</a></li>`).join('')
        : '<li class="empty">No note links here.</li>';
      const out = [...new Map(note.links.filter(l => l.resolved_path && l.resolved_path !== note.path)
        .map(l => [l.resolved_path, l])).values()];
      const unresolved = note.links.filter(l => !l.resolved_path);
      $('outlinks').innerHTML = out.map(l => `<li>${outlink(l.resolved_path)} <span class="link-type">${escapeHtml(l.type || '')}</span></li>`).join('') +
        unresolved.map(l => `<li class="unresolved" title="unresolved">${escapeHtml(l.raw)}</li>`).join('') || '<li class="empty">No links.</li>';
      showAttachments($('outlinks'));
      const project = note.project;
      if (project && project !== this.state.project) {
        this.state.project = project;
        $('project-select').value = project;
        await this.loadTree(project);
      }
      this.markCurrent();
      if (heading) this.scrollTo(heading); else window.scrollTo(0, 0);
    } catch (e) {
      if (request !== this.openRequests) return;
      this.note = null;
      this.editor.shown(null);
      $('note-title').textContent = '';
      releaseAttachments();
      const candidates = (e.body && e.body.candidates) || [];
      $('preview').innerHTML = `<p class="error">${escapeHtml(e.message)}</p>` + (candidates.length
        ? `<ul class="candidates">${candidates.map(p => `<li><a href="#/note/${encodeURI(p)}" data-path="${escapeHtml(p)}">${pathHtml(p)}</a></li>`).join('')}</ul>`
        : '');
      this.status(`Could not open ${notePath}: ${e.message}`, 'error');
    }
  }

  scrollTo(headingSlug) {
    const el = document.getElementById(headingSlug);
    if (el) el.scrollIntoView({ block: 'start' }); else window.scrollTo(0, 0);
  }

  breadcrumbs(path) {
    const parts = path.split('/');
    const crumbs = parts.map((part, i) => {
      const prefix = parts.slice(0, i + 1).join('/');
      if (i === parts.length - 1) return `<span class="crumb current">${escapeHtml(part)}</span>`;
      return `<a class="crumb" href="#" data-dir="${escapeHtml(prefix)}">${escapeHtml(part)}</a>`;
    });
    setTimeout(() => document.querySelectorAll('#breadcrumbs a[data-dir]').forEach(a => a.addEventListener('click', e => {
      e.preventDefault();
      const d = document.querySelector(`#tree details[data-dir="${CSS.escape(a.dataset.dir)}"]`);
      if (d) { d.open = true; d.scrollIntoView({ block: 'nearest' }); }
    })));
    return crumbs.join('<span class="sep">/</span>');
  }

  markCurrent() {
    document.querySelectorAll('#tree a.current').forEach(a => a.classList.remove('current'));
    if (!this.note) return;
    const a = document.querySelector(`#tree a[data-path="${CSS.escape(this.note.path)}"]`);
    if (a) {
      a.classList.add('current');
      for (let d = a.closest('details'); d; d = d.parentElement.closest('details')) d.open = true;
    }
  }

  closeEditor() {
    this.editor.close();
  }
}
