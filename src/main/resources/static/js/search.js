// Search: POST /memory/query for the selected project, each result with its text rendered as markdown, a link to
// its section of the note, and its score breakdown drawn as bars: a stacked bar of the branch contributions to the
// fused score, and one row per branch that ran with its normalised score, weight, raw score and rank.
import { api } from './api.js';
import { applyWidths, escapeHtml, renderMarkdown, slug } from './markdown.js';

const $ = id => document.getElementById(id);
const BRANCHES = ['semantic', 'lexical', 'tfidf'];
const fmt = (n, d = 3) => (typeof n === 'number' ? n.toFixed(d) : '–');

/**
 * The branches this answer ran: those that answered (`calls.branches`, hit counts even when 0; without `calls`, the
 * branches timed) and those that were expected but failed or were late (`degraded`). A short query runs only TF-IDF
 * and BM25, a requested method one branch.
 */
export function branchesRun(answer) {
  const answered = Object.keys(answer.calls ? answer.calls.branches || {} : answer.timings_ms || {});
  const ran = new Set([...answered, ...(answer.degraded || [])]);
  return BRANCHES.filter(k => ran.has(k));
}

export function breakdownHtml(b, ran = BRANCHES, degraded = []) {
  if (!b) return '';
  const parts = b.branches || {};
  const total = Object.values(parts).reduce((s, p) => s + (p.contribution || 0), 0) || 1;
  const stacked = BRANCHES.filter(k => parts[k]).map(k =>
    `<span class="seg" data-branch="${k}" data-width="${(100 * parts[k].contribution / total).toFixed(1)}%" title="${k}: ${fmt(parts[k].contribution, 4)}"></span>`).join('');
  const rows = ran.map(k => {
    const p = parts[k];
    const w = (b.weights || {})[k];
    if (!p && degraded.includes(k)) {
      return `<div class="branch-row missing" data-branch="${k}"><span class="name">${k}</span><span class="bar"><span class="fill" data-width="0"></span></span>` +
        `<span class="nums">degraded: no answer from this branch</span></div>`;
    }
    if (!p) {
      return `<div class="branch-row missing" data-branch="${k}"><span class="name">${k}</span><span class="bar"><span class="fill" data-width="0"></span></span>` +
        `<span class="nums">w ${fmt(w, 2)} · not found by this branch</span></div>`;
    }
    return `<div class="branch-row" data-branch="${k}"><span class="name">${k}</span>` +
      `<span class="bar" title="normalised ${fmt(p.normalized)}"><span class="fill" data-width="${Math.max(0, Math.min(1, p.normalized)) * 100}%"></span></span>` +
      `<span class="nums">norm ${fmt(p.normalized)} × w ${fmt(p.weight, 2)} = <b class="contribution">${fmt(p.contribution, 4)}</b> · raw ${fmt(p.raw)} · rank ${p.rank}</span></div>`;
  }).join('');
  const boost = b.boost && b.boost !== 1 ? ` · boost ×${fmt(b.boost, 2)} (${escapeHtml((b.boosts || []).join(', '))})` : '';
  return `<div class="breakdown" data-fusion="${escapeHtml(b.fusion)}">` +
    `<div class="breakdown-head">${escapeHtml(b.fusion)} fusion · fused ${fmt(b.fused_score, 4)}${boost}</div>` +
    `<div class="stacked" aria-label="branch contributions">${stacked}</div>${rows}` +
    `<div class="reason">${escapeHtml(b.reason || '')}</div></div>`;
}

// The filter row's values as the query's `filters` (docs/api.md), or null when none is set.
export function filtersFromForm() {
  const filters = {};
  const tags = $('filter-tags').value.split(/[\s,]+/).map(t => t.trim()).filter(Boolean);
  if (tags.length) filters.tags = tags;
  const folder = $('filter-folder').value.trim();
  if (folder) filters.path_prefix = folder;
  if ($('filter-after').value) filters.changed_after = $('filter-after').value;
  return Object.keys(filters).length ? filters : null;
}

/** `el` replaced by a span of its text. */
function asText(el, className) {
  const span = document.createElement('span');
  span.className = className;
  span.textContent = el.textContent;
  el.replaceWith(span);
}

/**
 * A result's text as markdown, without its heading line (the breadcrumb above names it), cut at a line end after
 * about 400 characters. The result has no resolved links: wiki-links and links inside the vault show as their
 * names, images as their text; only links to the web stay links.
 */
export function snippetHtml(text) {
  let body = String(text).replace(/^\s*#{1,6}\s+[^\n]*\n+/, '');
  if (body.length > 400) {
    const end = body.lastIndexOf('\n', 400);
    body = body.slice(0, end > 80 ? end : 400).trimEnd() + ' …';
  }
  const t = document.createElement('template'); // parsed inert: nothing in it loads
  t.innerHTML = renderMarkdown(body);
  t.content.querySelectorAll('.wikilink.unresolved').forEach(el => asText(el, 'wikilink'));
  t.content.querySelectorAll('a').forEach(a => {
    if (!/^(https?|mailto):/i.test(a.getAttribute('href') || '')) asText(a, a.className);
  });
  t.content.querySelectorAll('img, .attachment').forEach(el => el.replaceWith(el.getAttribute('alt') || el.textContent.replace(/^missing attachment: /, '')));
  return t.innerHTML;
}

export class Search {
  constructor(state, status) {
    this.state = state;
    this.status = status;
    this.lastQuery = null;
    $('search-filters').addEventListener('submit', e => {
      e.preventDefault();
      if (this.lastQuery) this.run(this.lastQuery, $('search-method').value);
    });
  }

  async run(q, method) {
    this.lastQuery = q;
    if (!this.state.project) {
      this.status('There is no project you may read to search in.', 'error');
      return;
    }
    $('search-summary').textContent = 'Searching…';
    $('search-results').innerHTML = '';
    try {
      const body = { project: this.state.project, query: q, top_k: 10 };
      if (method) body.search_method = method;
      const filters = filtersFromForm();
      if (filters) body.filters = filters;
      const r = await api('/memory/query', { method: 'POST', body });
      this.status('');
      const t = r.timings_ms || {};
      const degraded = (r.degraded || []).length ? ` · degraded: ${r.degraded.join(', ')}` : '';
      const ran = branchesRun(r);
      $('search-summary').innerHTML = `<b>${r.results.length}</b> results in <b>${escapeHtml(r.project)}</b> · ` +
        `strategy ${escapeHtml(r.strategy)} (<span class="branches-run">${ran.join(', ')}</span>) · ${t.total ?? '–'} ms · ` +
        `${r.context.tokens_used}/${r.context.token_budget} tokens${escapeHtml(degraded)}`;
      $('search-results').innerHTML = r.results.map((res, i) => `
        <li class="result" data-path="${escapeHtml(res.path)}">
          <div class="result-head">
            <span class="rank">${i + 1}</span>
            <a class="result-link" href="#/note/${encodeURI(res.path)}${res.heading ? '#' + encodeURIComponent(slug(res.heading)) : ''}">${escapeHtml(res.path)}</a>
            <span class="score" title="final score">${fmt(res.score)}</span>
          </div>
          <div class="crumbs">${escapeHtml((res.breadcrumb || []).join(' › '))}</div>
          <div class="snippet markdown">${snippetHtml(res.text)}</div>
          ${breakdownHtml(res.breakdown, ran, r.degraded || [])}
        </li>`).join('') || '<li class="empty">Nothing found.</li>';
      applyWidths($('search-results'));
    } catch (e) {
      $('search-summary').textContent = '';
      this.status(`Search failed: ${e.message}`, 'error');
    }
  }
}
