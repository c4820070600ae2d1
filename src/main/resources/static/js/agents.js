// Agent workspace: the recent log (GET /memory/agents/logs), then events as they arrive on the live stream
// (GET /memory/agents/stream). Newest first.
import { api, followStream, query } from './api.js';
import { applyWidths, escapeHtml } from './markdown.js';

const $ = id => document.getElementById(id);

function summary(e) {
  const p = e.payload || {};
  switch (e.type) {
    case 'memory_retrieved': {
      const top = Math.max(...(p.chunks || []).map(c => (typeof c.score === 'number' ? c.score : 0)), 1e-9);
      const chunks = (p.chunks || []).map(c => {
        const score = typeof c.score === 'number' ? c.score : 0;
        return `<li><span class="mini-bar" title="relative to the best chunk"><span data-width="${(100 * score / top).toFixed(1)}%"></span></span>` +
          `<a href="#/note/${encodeURI(c.path || '')}">${escapeHtml(c.path || c.doc_id || '')}</a> ` +
          `<span class="muted">${escapeHtml(c.heading || '')} · ${score.toFixed(3)}</span></li>`;
      }).join('');
      return `<div class="q">“${escapeHtml(p.query || '')}”${p.project ? ` in ${escapeHtml(p.project)}` : ''}</div><ul class="chunks">${chunks}</ul>`;
    }
    case 'tool_invoked':
      return `<div><b>${escapeHtml(p.tool_name || p.tool || '')}</b> <code>${escapeHtml(JSON.stringify(p.args ?? p.arguments ?? {}))}</code></div>`;
    case 'tool_result':
      return `<div>${escapeHtml(typeof p.result === 'string' ? p.result : JSON.stringify(p.result ?? p))}</div>`;
    case 'agent_decision':
      return `<div>${escapeHtml(p.reasoning || p.decision || JSON.stringify(p))}</div>`;
    default:
      return p.message || p.goal || p.summary ? `<div>${escapeHtml(p.message || p.goal || p.summary)}</div>` : '';
  }
}

export function eventHtml(e) {
  const time = e.created_at ? new Date(e.created_at).toLocaleTimeString() : '';
  return `<li class="agent-event" data-type="${escapeHtml(e.type)}" data-id="${e.id}">
    <div class="event-head"><span class="badge" data-type="${escapeHtml(e.type)}">${escapeHtml(e.type)}</span>
      <span class="agent">${escapeHtml(e.agent_id)}</span>${e.session_id ? `<span class="session">${escapeHtml(e.session_id)}</span>` : ''}
      <time>${escapeHtml(time)}</time></div>
    <div class="event-body">${summary(e)}</div>
    <details><summary>payload</summary><pre>${escapeHtml(JSON.stringify(e.payload, null, 2))}</pre></details>
  </li>`;
}

export class AgentWorkspace {
  constructor(status) {
    this.status = status;
    this.stop = null;
    this.seen = new Set();
    $('agent-reload').addEventListener('click', () => this.restart());
    $('agent-filter').addEventListener('change', () => this.restart());
  }

  agentFilter() {
    return $('agent-filter').value.trim();
  }

  add(event) {
    if (this.seen.has(event.id)) return;
    this.seen.add(event.id);
    const list = $('agent-timeline');
    list.querySelector('.empty')?.remove();
    // newest first by id: the log can answer after the first live events have arrived
    const template = document.createElement('template');
    template.innerHTML = eventHtml(event).trim();
    const item = template.content.firstElementChild;
    list.insertBefore(item, [...list.children].find(li => Number(li.dataset.id) < event.id) || null);
    applyWidths(item);
  }

  async start() {
    if (this.stop) return;
    const agent = this.agentFilter();
    this.stop = followStream(`/memory/agents/stream?${query({ agent_id: agent })}`, ev => {
      if (ev.event === 'agent_event') this.add(JSON.parse(ev.data));
    }, state => {
      $('stream-status').textContent = state;
      $('stream-status').dataset.state = state;
    }, () => this.loadLog(agent)); // reconnected (a renewed token, or a drop): what came in between is in the log
    await this.loadLog(agent);
  }

  async loadLog(agent) {
    try {
      const { events } = await api(`/memory/agents/logs?${query({ agent_id: agent, limit: 50 })}`);
      events.forEach(e => this.add(e));
      if (!$('agent-timeline').children.length) $('agent-timeline').innerHTML = '<li class="empty">No agent events yet. They appear here live.</li>';
    } catch (e) {
      this.status(`Could not load the agent log: ${e.message}`, 'error');
    }
  }

  restart() {
    if (this.stop) { this.stop(); this.stop = null; }
    this.seen.clear();
    $('agent-timeline').innerHTML = '';
    if (!document.getElementById('view-agents').hidden) this.start();
  }
}
