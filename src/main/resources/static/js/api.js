// HTTP calls to the hub. The bearer token of the session (auth.js, in memory only) goes on every request; without
// one the embedded default answers as the local operator.
import { accessToken, onSessionChange } from './auth.js';

export function authHeaders(extra = {}) {
  const t = accessToken();
  return t ? { ...extra, Authorization: `Bearer ${t}` } : extra;
}

/** Calls the API; resolves to the JSON body, rejects with the hub's {error, message} (the whole body as err.body). */
export async function api(path, { method = 'GET', body } = {}) {
  const headers = authHeaders(body !== undefined ? { 'Content-Type': 'application/json' } : {});
  const res = await fetch(path, { method, headers, body: body !== undefined ? JSON.stringify(body) : undefined });
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = { error: 'bad_response', message: text.slice(0, 200) }; }
  if (!res.ok) {
    const err = new Error(data && data.message ? `${data.error}: ${data.message}` : `HTTP ${res.status}`);
    err.status = res.status;
    err.body = data;
    throw err;
  }
  return data;
}

export const query = params => new URLSearchParams(Object.entries(params).filter(([, v]) => v !== undefined && v !== null && v !== '')).toString();

/**
 * Follows a Server-Sent Events stream with fetch (EventSource cannot send the Authorization header) and calls
 * onEvent({event, id, data}) per event. The hub ends a stream when the token it was opened with expires, so the
 * stream is reopened with the current token: at once when the token is renewed (before the old one ends), and
 * after the hub ends it or the connection drops (with backoff). onResync() runs after every reconnection, for the
 * caller to fetch what may have happened in between. Returns a function that stops it.
 */
export function followStream(path, onEvent, onStatus = () => {}, onResync = () => {}) {
  let stopped = false;
  let controller;
  let token = null; // the bearer the open connection was made with
  let renewed = false;
  let delay = 500;
  let connections = 0;
  const unsubscribe = onSessionChange(() => {
    const now = accessToken();
    if (controller && now && now !== token) { renewed = true; controller.abort(); }
  });
  async function connect() {
    while (!stopped) {
      controller = new AbortController();
      token = accessToken();
      try {
        onStatus('connecting');
        const res = await fetch(path, { headers: authHeaders({ Accept: 'text/event-stream' }), signal: controller.signal });
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        onStatus('live');
        delay = 500;
        if (connections++ > 0) onResync();
        const reader = res.body.getReader();
        const decoder = new TextDecoder();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += decoder.decode(value, { stream: true });
          let cut;
          while ((cut = buffer.search(/\r?\n\r?\n/)) >= 0) {
            const frame = buffer.slice(0, cut);
            buffer = buffer.slice(cut).replace(/^\r?\n\r?\n/, '');
            const ev = { event: 'message', id: null, data: '' };
            const data = [];
            for (const line of frame.split(/\r?\n/)) {
              if (line.startsWith(':')) continue;
              const [field, ...rest] = line.split(':');
              const val = rest.join(':').replace(/^ /, '');
              if (field === 'event') ev.event = val;
              else if (field === 'id') ev.id = val;
              else if (field === 'data') data.push(val);
            }
            if (data.length) { ev.data = data.join('\n'); onEvent(ev); }
          }
        }
      } catch (e) {
        if (stopped) return;
      }
      if (renewed) { renewed = false; continue; }
      onStatus('reconnecting');
      await new Promise(r => setTimeout(r, delay));
      delay = Math.min(delay * 2, 10000);
    }
  }
  connect();
  return () => { stopped = true; unsubscribe(); controller && controller.abort(); onStatus('stopped'); };
}
