// Who the UI calls the API as. With `auth: oidc` (GET /memory/ui/config) the user logs in with the OAuth 2.0
// Authorization Code flow and PKCE (S256) against the configured issuer, found through its discovery document; the
// issuer's page opens in a popup so this page and its state stay. A pasted access token works too. Tokens live in
// this module's memory only (never localStorage, sessionStorage or a cookie): a reload or a new tab logs in again.
// Before a token expires it is renewed with the refresh token, or the user is asked to log in again. Logging out
// forgets the tokens and ends the issuer's session at its end-session endpoint (in a popup that closes itself).

let config = { auth: 'none', remote_images: false };
let discovery = null;
let session = null; // { accessToken, refreshToken, idToken, expiresAt (ms), subject, source: 'login' | 'pasted', expiring }
let renewTimer = null;
const listeners = [];

export const uiConfig = () => config;

/**
 * fn(state) runs whenever the session changes: state is null (logged out) or { subject, expiresAt, source, expiring }.
 * Returns a function that stops it.
 */
export function onSessionChange(fn) {
  listeners.push(fn);
  return () => { const i = listeners.indexOf(fn); if (i >= 0) listeners.splice(i, 1); };
}

export function sessionState() {
  return session && { subject: session.subject, expiresAt: session.expiresAt, source: session.source, expiring: !!session.expiring };
}

function changed() { listeners.forEach(fn => fn(sessionState())); }

export async function loadConfig() {
  const res = await fetch('/memory/ui/config');
  if (res.ok) config = await res.json();
  return config;
}

/** The bearer to send, or '' (not logged in, or the token has expired). */
export function accessToken() {
  return session && session.expiresAt > Date.now() ? session.accessToken : '';
}

const b64url = bytes => btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const random = n => b64url(crypto.getRandomValues(new Uint8Array(n)));

/** The claims of a JWT, unverified: only to show who is logged in and when the token ends (the hub verifies it). */
function claims(jwt) {
  try {
    return JSON.parse(atob(jwt.split('.')[1].replace(/-/g, '+').replace(/_/g, '/')));
  } catch {
    return {};
  }
}

function remember(tokens, source) {
  const c = claims(tokens.access_token);
  const expiresAt = c.exp ? c.exp * 1000 : Date.now() + (tokens.expires_in || 300) * 1000;
  const refreshToken = tokens.refresh_token || (session && session.refreshToken) || null;
  const idToken = tokens.id_token || (session && session.idToken) || null;
  session = { accessToken: tokens.access_token, refreshToken, idToken, expiresAt, subject: c.preferred_username || c.name || c.sub || 'token', source, expiring: false };
  scheduleRenewal();
  changed();
}

/** Renews when a minute is left, or half the remaining time for short-lived tokens. */
function scheduleRenewal() {
  clearTimeout(renewTimer);
  const left = session.expiresAt - Date.now();
  renewTimer = setTimeout(renew, Math.max(0, left - Math.min(60000, left / 2)));
}

async function renew() {
  if (!session) return;
  if (session.refreshToken && config.auth === 'oidc') {
    try {
      remember(await tokenRequest({ grant_type: 'refresh_token', refresh_token: session.refreshToken, client_id: config.client_id }), session.source);
      return;
    } catch {
      // the issuer refused the refresh: ask again below
    }
  }
  session.expiring = true;
  changed();
  clearTimeout(renewTimer);
  renewTimer = setTimeout(() => { session = null; changed(); }, Math.max(0, session.expiresAt - Date.now()));
}

async function endpoints() {
  if (!discovery) {
    const res = await fetch(`${config.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`);
    if (!res.ok) throw new Error(`issuer discovery failed: HTTP ${res.status}`);
    discovery = await res.json();
  }
  return discovery;
}

async function tokenRequest(params) {
  const { token_endpoint: endpoint } = await endpoints();
  const res = await fetch(endpoint, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(params) });
  const body = await res.json().catch(() => ({}));
  if (!res.ok || !body.access_token) throw new Error(`token endpoint: ${body.error_description || body.error || `HTTP ${res.status}`}`);
  return body;
}

/** Waits for the popup's callback page to post back the code of this login attempt. */
function codeFrom(popup, state) {
  return new Promise((resolve, reject) => {
    let done = false;
    const finish = (fn, value) => { if (!done) { done = true; window.removeEventListener('message', onMessage); clearInterval(watch); fn(value); } };
    const onMessage = e => {
      if (e.origin !== location.origin || e.source !== popup || !e.data || e.data.type !== 'poimen-login') return;
      if (e.data.state !== state) finish(reject, new Error('login answer for another attempt (state mismatch)'));
      else if (e.data.error) finish(reject, new Error(`login refused: ${e.data.error}`));
      else finish(resolve, e.data.code);
    };
    window.addEventListener('message', onMessage);
    // a message posted just before the popup closed is still on its way: give it a moment
    const watch = setInterval(() => { if (popup.closed) setTimeout(() => finish(reject, new Error('login window closed')), 1000); }, 500);
  });
}

/** Logs in through the issuer's own page (Authorization Code + PKCE); resolves once the token is in memory. */
export async function login() {
  const d = await endpoints();
  const verifier = random(32);
  const state = random(16);
  const redirectUri = `${location.origin}/login-callback.html`;
  const challenge = b64url(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
  const url = new URL(d.authorization_endpoint);
  url.search = new URLSearchParams({
    response_type: 'code', client_id: config.client_id, redirect_uri: redirectUri, scope: config.scopes,
    state, nonce: random(16), code_challenge: challenge, code_challenge_method: 'S256',
  }).toString();
  const popup = window.open(url.href, 'poimen-login', 'popup,width=520,height=720');
  if (!popup) throw new Error('the login window was blocked: allow pop-ups for this page');
  const code = await codeFrom(popup, state);
  remember(await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: config.client_id, code_verifier: verifier }), 'login');
}

/** Uses a pasted access token (agents, scripts, issuers without a browser client); '' logs out. */
export function pasteToken(value) {
  const t = String(value || '').trim();
  if (t) remember({ access_token: t }, 'pasted'); else logout();
}

/**
 * Forgets the tokens (they are only in memory). After a log-in here, also ends the issuer's session: its
 * end-session endpoint (OpenID Connect RP-Initiated Logout, named by the discovery document) opens in a popup with
 * the ID token as hint and comes back to the callback page, which closes it. Runs within the click, so the popup is
 * not blocked; an issuer without that endpoint keeps its session.
 */
export function logout() {
  const idToken = session && session.source === 'login' ? session.idToken : null;
  clearTimeout(renewTimer);
  session = null;
  changed();
  const endpoint = discovery && discovery.end_session_endpoint;
  if (!idToken || !endpoint) return;
  const url = new URL(endpoint);
  url.searchParams.set('id_token_hint', idToken);
  url.searchParams.set('client_id', config.client_id);
  url.searchParams.set('post_logout_redirect_uri', `${location.origin}/login-callback.html`);
  window.open(url.href, 'poimen-logout', 'popup,width=520,height=720');
}
