// Editing a note through review: the whole note, one section from its heading, a move/rename or a delete. Each
// becomes operations of POST /memory/grc/draft with the version of the note as it was read (base_versions), so a
// change made meanwhile by someone else is merged or reported, never undone. "Preview changes" asks the same
// endpoint for a dry run and shows the diff the draft would have; nothing is stored until "Submit for review".
// Editing is offered only when the hub has a review host (GET /memory/ui/config: review is not "none").
import { api } from './api.js';
import { uiConfig } from './auth.js';
import { slug } from './markdown.js';
import { el, renderDiffs } from './review.js';

const $ = id => document.getElementById(id);
const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const FENCE = /^\s{0,3}(`{3,}|~{3,})/;

/**
 * The sections of a note as the hub's replace_section finds them: each heading outside front matter and fenced
 * code, its heading path (the enclosing headings and its own, joined by #), and its text: from the line after the
 * heading up to the next heading of the same or a higher level.
 */
export function sections(markdown) {
  const lines = markdown.split('\n');
  const heads = [];
  let offset = 0;
  let i = 0;
  if (lines[0] === '---') { // front matter
    const close = lines.findIndex((l, n) => n > 0 && (l === '---' || l === '...'));
    if (close > 0) {
      for (; i <= close; i++) offset += lines[i].length + 1;
    }
  }
  let fence = null;
  for (; i < lines.length; i++) {
    const line = lines[i].replace(/\r$/, '');
    const f = line.match(FENCE);
    if (f && (!fence || f[1][0] === fence[0] && f[1].length >= fence.length)) fence = fence ? null : f[1];
    else if (!fence) {
      const h = line.match(HEADING);
      if (h) heads.push({ level: h[1].length, text: h[2], start: offset, bodyStart: Math.min(markdown.length, offset + lines[i].length + 1) });
    }
    offset += lines[i].length + 1;
  }
  const stack = [];
  return heads.map((h, n) => {
    const next = heads.slice(n + 1).find(o => o.level <= h.level);
    while (stack.length && stack[stack.length - 1].level >= h.level) stack.pop();
    stack.push(h);
    const end = next ? next.start : markdown.length;
    return { ...h, end, path: stack.map(s => s.text).join('#'), body: markdown.slice(h.bodyStart, end).replace(/^\n+/, '').replace(/\s+$/, '') };
  });
}

export class NoteEditor {
  /** @param note () => the note shown ({path, title, content, version}) or null */
  constructor(status, note) {
    this.status = status;
    this.note = note;
    this.mode = null;
    $('edit-button').addEventListener('click', () => this.start({ kind: 'note' }));
    $('move-button').addEventListener('click', () => this.start({ kind: 'move' }));
    $('delete-button').addEventListener('click', () => this.start({ kind: 'delete' }));
    $('cancel-edit').addEventListener('click', () => this.close());
    $('preview-diff').addEventListener('click', () => this.preview());
    $('editor-form').addEventListener('submit', e => { e.preventDefault(); this.submit(); });
    $('preview').addEventListener('click', e => {
      const b = e.target.closest('button.section-edit');
      if (b) { e.preventDefault(); this.start({ kind: 'section', section: b.dataset.section }); }
    });
  }

  /** Whether this hub takes drafts (no review host: the UI offers no editing). */
  static editable() {
    return (uiConfig().review || 'none') !== 'none';
  }

  /** After a note is rendered in the preview (or null: none is): its edit buttons, one per section heading. */
  shown(note) {
    const editable = !!note && NoteEditor.editable();
    for (const id of ['edit-button', 'move-button', 'delete-button']) $(id).hidden = !editable;
    if (!editable) return;
    const parsed = sections(note.content);
    let from = 0;
    for (const h of $('preview').querySelectorAll('h1, h2, h3, h4, h5, h6')) {
      const at = parsed.findIndex((s, n) => n >= from && slug(s.text) === h.id);
      if (at < 0) continue;
      from = at + 1;
      h.append(el('button', { type: 'button', class: 'section-edit', 'data-section': parsed[at].path,
        title: `Edit the section "${parsed[at].text}"`, 'aria-label': `edit section ${parsed[at].text}` }));
    }
  }

  /** Opens the editor for the whole note, a section ({section: heading path}), a move or a delete. */
  start(mode) {
    const note = this.note();
    if (!note) return;
    const title = note.title || note.path;
    const form = $('editor-form');
    this.mode = mode;
    form.dataset.mode = mode.kind;
    let text = '';
    let message = `Update ${title}`;
    let what = `Editing the whole note ${note.path}.`;
    if (mode.kind === 'note') {
      text = note.content;
    } else if (mode.kind === 'section') {
      const s = sections(note.content).find(x => x.path === mode.section);
      if (!s) { this.status(`No section "${mode.section}" in ${note.path}`, 'error'); return; }
      text = s.body;
      message = `Update ${title}: ${s.text}`;
      what = `Editing the section "${s.path.split('#').join(' › ')}" (the heading stays; subsections are part of its text).`;
    } else if (mode.kind === 'move') {
      message = `Move ${title}`;
      what = 'Moving or renaming the note: the links to it across the vault are rewritten in the same draft.';
      $('move-to').value = note.path;
    } else {
      message = `Delete ${title}`;
      what = 'Deleting the note: the notes that still link to it are listed in the preview.';
    }
    $('editor-mode').textContent = what;
    $('editor').value = text;
    $('editor').hidden = mode.kind === 'move' || mode.kind === 'delete';
    $('move-row').hidden = mode.kind !== 'move';
    $('edit-message').value = message;
    $('editor-diff').hidden = true;
    $('editor-diff').replaceChildren();
    $('preview').hidden = true;
    for (const id of ['edit-button', 'move-button', 'delete-button']) $(id).hidden = true;
    $('review-result').hidden = true;
    form.hidden = false;
    if (mode.kind === 'move' || mode.kind === 'delete') {
      (mode.kind === 'move' ? $('move-to') : $('edit-message')).focus();
      return;
    }
    // the caret at the start: focusing a filled textarea otherwise scrolls it to its end
    $('editor').setSelectionRange(0, 0);
    $('editor').focus({ preventScroll: true });
    $('editor').scrollTop = 0;
  }

  close() {
    $('editor-form').hidden = true;
    $('preview').hidden = false;
    this.mode = null;
    const note = this.note();
    for (const id of ['edit-button', 'move-button', 'delete-button']) $(id).hidden = !note || !NoteEditor.editable();
  }

  /** The draft request of what is in the editor, with the version of the note as it was read. */
  request() {
    const note = this.note();
    const path = note.path;
    const ops = {
      note: () => ({ op: 'replace', path, content: $('editor').value }),
      section: () => ({ op: 'replace_section', path, section: this.mode.section, content: $('editor').value }),
      move: () => ({ op: 'move', path, to: $('move-to').value.trim() }),
      delete: () => ({ op: 'delete', path }),
    };
    return { operations: [ops[this.mode.kind]()], base_versions: { [path]: note.version }, message: $('edit-message').value };
  }

  async preview() {
    if (!this.mode) return;
    const box = $('editor-diff');
    const button = $('preview-diff');
    button.disabled = true;
    try {
      const answer = await api('/memory/grc/draft', { method: 'POST', body: { ...this.request(), dry_run: true } });
      renderDiffs(box, answer.diff);
      for (const [p, from] of Object.entries(answer.linked_from || {})) {
        if (from.length) box.append(el('p', { class: 'linked-from' }, el('code', { text: p }), ' is still linked from: ', from.join(', ')));
      }
    } catch (e) {
      box.replaceChildren(el('p', { class: 'error', text: `No preview: ${e.message}` }));
    } finally {
      box.hidden = false;
      button.disabled = false;
      box.scrollIntoView({ block: 'nearest' });
    }
  }

  async submit() {
    if (!this.mode) return;
    const button = $('submit-review');
    const result = $('review-result');
    button.disabled = true;
    try {
      const draft = await api('/memory/grc/draft', { method: 'POST', body: this.request() });
      result.dataset.kind = 'ok';
      result.dataset.draft = draft.draft_id;
      if (draft.pr_url) {
        result.replaceChildren(el('strong', { text: 'Draft saved — review request created.' }), ' ',
          el('a', { id: 'pr-link', href: draft.pr_url, target: '_blank', rel: 'noopener', text: `Pull request #${draft.pr_number}` }),
          ' on branch ', el('code', { text: draft.branch }), '. The note changes here once a reviewer merges it.');
      } else {
        result.replaceChildren(el('strong', { text: `Draft ${draft.status}.` }), ' ',
          el('a', { id: 'draft-link', href: `#/review/${encodeURIComponent(draft.draft_id)}`, text: 'Open it on the review screen' }),
          draft.review_host === 'local' ? ': the note changes here once a reviewer approves it.'
            : ` (branch ${draft.branch}): delivery to the review host is still being retried.`);
      }
      this.close();
    } catch (e) {
      result.dataset.kind = 'error';
      result.textContent = e.status === 409 && /edit_conflict/.test(e.message)
        ? `The note changed since you opened it, on the lines you edited: reload it and redo the edit. (${e.message})`
        : e.status === 403 ? `You may not make this edit: ${e.message}` : `Could not submit the edit: ${e.message}`;
    } finally {
      result.hidden = false;
      button.disabled = false;
    }
  }
}
