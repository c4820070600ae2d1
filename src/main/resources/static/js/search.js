// Search: POST /memory/query for the selected project, each result with its score breakdown drawn as bars:
// a stacked bar of the branch contributions to the fused score, and one row per branch with its normalised
// score, weight, raw score and rank.
import { api } from './api.js';
import { applyWidths, escapeHtml } from './markdown.js';

const $ = id => document.getElementById(id);
const BRANCHES = ['semantic', 'lexical', 'tfidf'];
const fmt = (n, d = 3) => (typeof n === 'number' ? n.toFixed(d) : '–');

export function breakdownHtml(b) {
  if (!b) return '';
  const parts = b.branches || {};
  const total = Object.values(parts).reduce((s, p) => s + (p.contribution || 0), 0) || 1;
  const stacked = BRANCHES.filter(k => parts[k]).map(k =>
    `<span class="seg" data-branch="${k}" data-width="${(100 * parts[k].contribution / total).toFixed(1)}%" title="${k}: ${fmt(parts[k].contribution, 4)}"></span>`).join('');
  const rows = BRANCHES.map(k => {
    const p = parts[k];
    const w = (b.weights || {})[k];
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
      this.status('Choose a project before searching.', 'error');
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
      $('search-summary').innerHTML = `<b>${r.results.length}</b> results in <b>${escapeHtml(r.project)}</b> · ` +
        `strategy ${escapeHtml(r.strategy)} · ${t.total ?? '–'} ms · ${r.context.tokens_used}/${r.context.token_budget} tokens${escapeHtml(degraded)}`;
      $('search-results').innerHTML = r.results.map((res, i) => `
        <li class="result" data-path="${escapeHtml(res.path)}">
          <div class="result-head">
            <span class="rank">${i + 1}</span>
            <a class="result-link" href="#/note/${encodeURI(res.path)}">${escapeHtml(res.path)}</a>
            <span class="score" title="final score">${fmt(res.score)}</span>
          </div>
          <div class="crumbs">${escapeHtml((res.breadcrumb || []).join(' › '))}</div>
          <p class="snippet">${escapeHtml(res.text.length > 320 ? res.text.slice(0, 320) + '…' : res.text)}</p>
          ${breakdownHtml(res.breakdown)}
        </li>`).join('') || '<li class="empty">Nothing found.</li>';
      applyWidths($('search-results'));
    } catch (e) {
      $('search-summary').textContent = '';
      this.status(`Search failed: ${e.message}`, 'error');
    }
  }
}
