// Entry point: login (auth.js), the project selector, the token form, hash routing between the vault, search and
// agent views.
import { api } from './api.js';
import { loadConfig, login, logout, onSessionChange, pasteToken, sessionState, uiConfig } from './auth.js';
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
    openProjectIndex(true);
  }
}

/** The project's own notes, labelled: the sidebar counts the same notes, plus the shared ones in its scope. */
const projectOption = p => `<option value="${escapeHtml(p.name)}">${escapeHtml(p.name)} (${p.notes} notes)</option>`;

/**
 * Fills the selector with the projects the caller may read and keeps one chosen: the last one of this tab, else
 * the first of the list, so the first page shows a project (its index note) rather than an empty page.
 */
async function loadProjects() {
  const select = $('project-select');
  try {
    const { projects } = await api('/memory/projects');
    if (!projects.length) {
      select.innerHTML = '<option value="">no project you may read</option>';
      state.project = '';
      return;
    }
    select.innerHTML = projects.map(projectOption).join('');
    if (!projects.some(p => p.name === state.project)) state.project = projects[0].name;
    select.value = state.project;
    await browser.loadTree(state.project);
  } catch (e) {
    showStatus(`Could not load projects: ${e.message}`, 'error');
  }
}

/**
 * Opens the chosen project's index note, unless a note of that project is already open; `replace`: in place of
 * the current history entry (the bare `#/`, which would otherwise lead straight back here).
 */
function openProjectIndex(replace = false) {
  if (!state.project || location.hash.startsWith(`#/note/${encodeURI(`projects/${state.project}/`)}`)) return;
  const index = `projects/${state.project}/index.md`;
  if (!browser.hasFile(index)) return;
  if (replace) location.replace(`#/note/${encodeURI(index)}`);
  else location.hash = `#/note/${encodeURI(index)}`;
}

function wire() {
  $('project-select').addEventListener('change', async e => {
    const project = state.project = e.target.value;
    sessionStorage.setItem('poimen.project', state.project);
    await browser.loadTree(state.project);
    if (state.project !== project) return; // another project was chosen meanwhile
    openProjectIndex();
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
    pasteToken($('token-input').value);
    $('token-input').value = '';
  });
  $('token-clear').addEventListener('click', () => logout());
  $('login-button').addEventListener('click', async () => {
    try {
      await login();
    } catch (e) {
      showStatus(`Log-in failed: ${e.message}`, 'error');
    }
  });
  $('logout-button').addEventListener('click', () => logout());
  window.addEventListener('hashchange', route);
}

function updateAuth(s) {
  const oidc = uiConfig().auth === 'oidc';
  $('auth-summary').textContent = s && s.source === 'pasted' ? 'Token ✓' : 'Token';
  $('auth-user').hidden = !s;
  $('auth-user').textContent = s ? s.subject : '';
  $('auth-user').dataset.expiresAt = s ? String(s.expiresAt) : '';
  $('login-button').hidden = !oidc || (s && !s.expiring);
  $('logout-button').hidden = !s;
  if (oidc) $('auth-hint').textContent = 'Or log in: the token then comes from your identity provider.';
  if (s && s.expiring) showStatus('Your session ends soon: log in again to keep working.', 'error');
  else if (!s && oidc) showStatus('Log in to read the vault.', 'info');
}

let signedIn = null;
onSessionChange(async s => {
  updateAuth(s);
  const who = s ? s.subject + s.source : null;
  if (who === signedIn) return; // a renewed token for the same user: nothing to reload
  signedIn = who;
  if (s) showStatus('');
  if (!s && uiConfig().auth === 'oidc') { // logged out: nothing of the vault stays on screen
    state.project = '';
    $('project-select').innerHTML = '';
    await browser.loadTree('');
    $('note-title').textContent = '';
    $('preview').innerHTML = '<p class="empty">Log in to read the vault.</p>';
    $('search-results').innerHTML = '';
    agents.restart();
    return;
  }
  await loadProjects();
  agents.restart();
  route();
});

async function start() {
  wire();
  try {
    await loadConfig();
  } catch (e) {
    showStatus(`Could not load the UI settings: ${e.message}`, 'error');
  }
  updateAuth(sessionState());
  if (uiConfig().auth === 'oidc') return; // nothing to show before the log-in
  await loadProjects();
  route();
}

start();
