// Entry point: the project selector, the token form, hash routing between the vault, search and agent views.
import { api, token } from './api.js';
import { escapeHtml } from './markdown.js';
import { Browser } from './browse.js';
import { Search } from './search.js';
import { AgentWorkspace } from './agents.js';

const $ = id => document.getElementById(id);
const state = { project: sessionStorage.getItem('poimen.project') || '' };

export function showStatus(message, kind = 'info') {
  const el = $('status');
  el.textContent = message;
  el.dataset.kind = kind;
  el.hidden = !message;
}

const browser = new Browser(state, showStatus);
const search = new Search(state, showStatus);
const agents = new AgentWorkspace(showStatus);

function showView(name) {
  for (const v of ['browse', 'search', 'agents']) {
    $(`view-${v}`).hidden = v !== name;
    $(`tab-${v}`).classList.toggle('active', v === name);
  }
}

async function route() {
  const hash = decodeURI(location.hash.replace(/^#/, '')) || '/';
  if (hash.startsWith('/note/')) {
    showView('browse');
    await browser.open(hash.slice('/note/'.length));
  } else if (hash.startsWith('/search')) {
    showView('search');
    const q = new URLSearchParams(hash.split('?')[1] || '').get('q');
    if (q && q !== search.lastQuery) { $('search-input').value = q; await search.run(q, $('search-method').value); }
  } else if (hash.startsWith('/agents')) {
    showView('agents');
    agents.start();
  } else {
    showView('browse');
  }
}

async function loadProjects() {
  const select = $('project-select');
  try {
    const { projects } = await api('/memory/projects');
    select.innerHTML = '<option value="">— choose a project —</option>' +
      projects.map(p => `<option value="${escapeHtml(p.name)}">${escapeHtml(p.name)} (${p.notes})</option>`).join('');
    if (state.project && projects.some(p => p.name === state.project)) select.value = state.project;
    else state.project = '';
    if (state.project) await browser.loadTree(state.project);
  } catch (e) {
    showStatus(`Could not load projects: ${e.message}`, 'error');
  }
}

function wire() {
  $('project-select').addEventListener('change', async e => {
    state.project = e.target.value;
    sessionStorage.setItem('poimen.project', state.project);
    await browser.loadTree(state.project);
    if (state.project && !location.hash.startsWith('#/note/')) {
      const index = `projects/${state.project}/index.md`;
      if (browser.hasFile(index)) location.hash = `#/note/${encodeURI(index)}`;
    }
  });
  $('search-form').addEventListener('submit', e => {
    e.preventDefault();
    const q = $('search-input').value.trim();
    if (!q) return;
    search.lastQuery = null;
    location.hash = `#/search?q=${encodeURIComponent(q)}`;
    if (location.hash === `#/search?q=${encodeURIComponent(q)}`) route();
  });
  $('token-form').addEventListener('submit', e => {
    e.preventDefault();
    token.set($('token-input').value);
    $('token-input').value = '';
    updateAuth();
    loadProjects();
    agents.restart();
  });
  $('token-clear').addEventListener('click', () => { token.set(''); updateAuth(); loadProjects(); agents.restart(); });
  window.addEventListener('hashchange', route);
}

function updateAuth() {
  $('auth-summary').textContent = token.get() ? 'Token ✓' : 'Token';
}

wire();
updateAuth();
loadProjects().then(route);
