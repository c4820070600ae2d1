// The review screen: the drafts the caller may see (GET /memory/grc/drafts), one draft with its diff
// (GET /memory/grc/drafts/{id}), and the decision (POST /memory/grc/drafts/{id}/approve|reject). Everything a draft
// carries comes from the vault or from its author, so it is put on the page as text nodes only, never as HTML.
import { api, query } from './api.js';

const $ = id => document.getElementById(id);

/** A new element with attributes (strings; `text` sets its text) and children (elements or strings as text). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'text') node.textContent = v;
    else if (k === 'class') node.className = v;
    else node.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) node.append(c);
  return node;
}

/** One line of a unified diff as a span: added, removed, hunk header, file header or context. */
function diffLine(line) {
  const kind = line.startsWith('+++') || line.startsWith('---') ? 'meta'
    : line.startsWith('@@') ? 'hunk' : line.startsWith('+') ? 'add' : line.startsWith('-') ? 'del' : 'ctx';
  return el('span', { class: `diff-line ${kind}`, text: line + '\n' });
}

/** The per-note diffs of a draft or a preview ([{path, change, old_path, diff}]) into `box`. */
export function renderDiffs(box, diffs) {
  box.replaceChildren(...(diffs || []).map(d => el('div', { class: 'file-diff', 'data-path': d.path, 'data-change': d.change },
    el('div', { class: 'file-diff-head' },
      el('span', { class: `badge change-${d.change}`, text: d.change }), ' ',
      el('code', { text: d.old_path ? `${d.old_path} → ${d.path}` : d.path })),
    el('pre', { class: 'diff' }, (d.diff || '').replace(/\n$/, '').split('\n').map(diffLine)))));
  if (!box.children.length) box.append(el('p', { class: 'empty', text: 'No changes.' }));
}

/** What the hub's answer to a decision means for the reviewer, in words. */
export function describeError(e, what) {
  if (e.status === 403) return `You may not ${what} this draft: ${e.message}`;
  if (e.status === 404) return `No such draft, or you may not see it (${e.message}).`;
  if (e.status === 409) return `The draft cannot be decided now: ${e.message}`;
  return `Could not ${what} the draft: ${e.message}`;
}

const STATE_TEXT = {
  open: 'Open: waiting for a review.',
  pending: 'Pending: being delivered to the review host.',
  delivering: 'Being delivered to the review host.',
  merged: 'Merged into the vault.',
  rejected: 'Rejected.',
  conflict: 'Conflict: the notes changed since the draft was made, on the same lines. Nothing was merged; the author redoes the edit on the current text.',
  delivery_failed: 'Delivery failed: the review host could not be reached or refused the draft.',
};

export class Review {
  constructor(status) {
    this.status = status;
    this.current = null;
    this.requests = 0;
    $('draft-status-filter').addEventListener('change', () => this.list());
    $('draft-reload').addEventListener('click', () => this.list());
    $('approve-draft').addEventListener('click', () => this.decide('approve'));
    $('reject-draft').addEventListener('click', () => this.decide('reject'));
  }

  /** `#/review` lists the drafts; `#/review/<id>` shows one as well. */
  async open(id) {
    await this.list();
    if (id) await this.show(id); else this.clearDetail();
  }

  clear() {
    $('draft-list').replaceChildren();
    this.clearDetail();
  }

  clearDetail() {
    this.current = null;
    $('draft-detail').hidden = true;
  }

  async list() {
    const request = ++this.requests;
    try {
      const { drafts } = await api(`/memory/grc/drafts?${query({ status: $('draft-status-filter').value, limit: 100 })}`);
      if (request !== this.requests) return;
      $('draft-list').replaceChildren(...drafts.map(d => el('li', { class: 'draft', 'data-id': d.draft_id, 'data-status': d.status },
        el('a', { href: `#/review/${encodeURIComponent(d.draft_id)}`, class: 'draft-link', text: d.message || d.draft_id }),
        el('span', { class: `badge state state-${d.status}`, text: d.status }),
        el('div', { class: 'draft-meta' },
          el('span', { class: 'draft-author', text: d.author_name || d.user }), ' · ',
          el('time', { text: d.created_at })),
        el('ul', { class: 'draft-paths' }, (d.paths || []).map(p => el('li', {}, el('code', { text: p })))))));
      if (!drafts.length) $('draft-list').append(el('li', { class: 'empty', text: 'No drafts in this state.' }));
    } catch (e) {
      this.status(`Could not list the drafts: ${e.message}`, 'error');
    }
  }

  async show(id) {
    try {
      this.render(await api(`/memory/grc/drafts/${encodeURIComponent(id)}`));
      $('review-outcome').hidden = true;
    } catch (e) {
      this.clearDetail();
      this.status(describeError(e, 'open'), 'error');
    }
  }

  render(d) {
    this.current = d;
    document.querySelectorAll('#draft-list li.draft').forEach(li => li.classList.toggle('current', li.dataset.id === d.draft_id));
    const box = $('draft-detail');
    box.dataset.id = d.draft_id;
    box.dataset.status = d.status;
    $('draft-title').textContent = d.message || d.draft_id;
    const state = $('draft-state');
    state.dataset.status = d.status;
    state.textContent = `${d.status} — ${STATE_TEXT[d.status] || ''}`;
    const facts = [
      ['author', d.author_name && d.author_name !== d.user ? `${d.author_name} (${d.user})` : d.user],
      ['review host', d.review_host], ['branch', d.branch], ['created', d.created_at],
    ];
    if (d.review && d.review.reviewer) facts.push(['reviewer', d.review.reviewer]);
    if (d.review && d.review.comment) facts.push(['comment', d.review.comment]);
    if (d.last_error) facts.push(['last error', d.last_error]);
    $('draft-facts').replaceChildren(...facts.filter(([, v]) => v).map(([k, v]) => el('div', {}, el('dt', { text: k }), el('dd', { text: v }))));
    if (d.pr_url) $('draft-facts').append(el('div', {}, el('dt', { text: 'pull request' }),
      el('dd', {}, el('a', { href: d.pr_url, target: '_blank', rel: 'noopener', text: `#${d.pr_number}` }))));
    renderDiffs($('draft-diff'), d.diff);
    const notes = [];
    for (const c of d.conflicts || []) {
      notes.push(el('div', { class: 'conflict', 'data-path': c.path }, el('strong', { text: `Conflict in ${c.path}: ` }),
        el('span', { text: c.reason || '' }), c.text ? el('pre', { class: 'diff', text: c.text }) : null));
    }
    for (const r of d.rewrites || []) notes.push(el('div', { class: 'rewrite' }, 'link rewritten in ', el('code', { text: r.path }), `: ${r.before} → ${r.after}`));
    for (const [p, from] of Object.entries(d.linked_from || {})) {
      if (from.length) notes.push(el('div', { class: 'linked-from' }, el('code', { text: p }), ' is still linked from: ', from.join(', ')));
    }
    $('draft-notes').replaceChildren(...notes);
    $('approve-draft').hidden = !d.may_approve;
    $('reject-draft').hidden = !d.may_reject;
    $('review-decision').hidden = !d.may_approve && !d.may_reject;
    $('review-not-yours').hidden = d.may_approve || d.status !== 'open';
    $('review-not-yours').textContent = d.review_host === 'forgejo'
      ? 'This draft is reviewed in its pull request on Forgejo.'
      : 'You may not approve this draft (approving needs write access on every note it touches, and an author does not approve their own).';
    box.hidden = false;
  }

  async decide(decision) {
    const d = this.current;
    if (!d) return;
    const outcome = $('review-outcome');
    const buttons = [$('approve-draft'), $('reject-draft')];
    buttons.forEach(b => { b.disabled = true; });
    try {
      const comment = $('review-comment').value.trim();
      const answer = await api(`/memory/grc/drafts/${encodeURIComponent(d.draft_id)}/${decision}`,
        { method: 'POST', body: comment ? { comment } : {} });
      this.render(answer);
      outcome.dataset.kind = answer.status === 'conflict' || answer.status === 'delivery_failed' ? 'error' : 'ok';
      outcome.dataset.status = answer.status;
      outcome.textContent = answer.status === 'open' ? 'Approved: the writer merges it shortly.' : STATE_TEXT[answer.status] || answer.status;
      $('review-comment').value = '';
      this.list();
    } catch (e) {
      outcome.dataset.kind = 'error';
      outcome.dataset.status = String(e.status || '');
      outcome.textContent = describeError(e, decision);
    } finally {
      outcome.hidden = false;
      buttons.forEach(b => { b.disabled = false; });
    }
  }
}
