// A small markdown renderer for vault notes: front matter, headings, paragraphs, lists, block quotes, fenced and
// inline code, emphasis, links, images, tables and Obsidian wiki-links. Everything is HTML-escaped before markup is
// added; remote images load only when the hub opts in.
// Wiki-links and internal markdown links are resolved with the `links` list of GET /memory/vault/file (raw text →
// path): a note becomes a link to it, an image of the vault an <img data-attachment> and a PDF a link with
// data-attachment, whose bytes attachments.js fetches with the session's bearer.

export function escapeHtml(s) {
  return String(s).replace(/[&<>"']/g, c => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));
}

/** Sets the widths that markup carries as data-width (the Content-Security-Policy forbids style attributes). */
export function applyWidths(root) {
  root.querySelectorAll('[data-width]').forEach(el => { el.style.width = el.dataset.width; });
}

export function slug(text) {
  return String(text).toLowerCase().trim().replace(/[^\p{L}\p{N}\s-]/gu, '').replace(/\s+/g, '-');
}

function safeUrl(url) {
  const u = url.trim();
  return /^(https?:|mailto:|#|\/|\.{0,2}\/?[\w-])/i.test(u) && !/^(javascript|data|vbscript):/i.test(u) ? u : '#';
}

/** Splits `---` front matter off the top; returns [frontMatterLines, bodyLines]. */
function splitFrontMatter(lines) {
  if (lines[0] !== '---') return [[], lines];
  const end = lines.indexOf('---', 1);
  return end < 0 ? [[], lines] : [lines.slice(1, end), lines.slice(end + 1)];
}

/** 'image' or 'pdf' for a vault path GET /memory/vault/attachment serves (by extension), else null. */
export function attachmentKind(path) {
  const ext = (String(path).match(/\.([^./]+)$/) || [])[1];
  if (!ext) return null;
  const e = ext.toLowerCase();
  return ['png', 'jpg', 'jpeg', 'gif', 'webp', 'svg'].includes(e) ? 'image' : e === 'pdf' ? 'pdf' : null;
}

const fileName = path => String(path).split('/').pop();

/** `alt|300` or `300x200` (Obsidian's image size) → {alt, width, height}. */
function imageSize(text) {
  const m = String(text || '').match(/^(?:(.*?)\|)?\s*(\d+)(?:x(\d+))?\s*$/);
  return m ? { alt: m[1] || '', width: m[2], height: m[3] } : { alt: text || '', width: null, height: null };
}

/**
 * A link or embed that resolved to a file of the vault that is not a note: an embedded image shows (its bytes come
 * later, attachments.js), any other attachment is a link that opens it; a file type the hub does not serve is a chip.
 */
function attachment(path, embed, text) {
  const kind = attachmentKind(path);
  const name = fileName(path);
  const p = escapeHtml(path);
  if (embed && kind === 'image') {
    const { alt, width, height } = imageSize(text);
    const size = (width ? ` width="${width}"` : '') + (height ? ` height="${height}"` : '');
    return `<img class="attachment" data-attachment="${p}" alt="${escapeHtml(alt || name)}" title="${p}"${size}>`;
  }
  const label = escapeHtml(text && !imageSize(text).width ? text : name);
  if (kind) {
    return `<a class="attachment-link" href="#" data-attachment="${p}" data-kind="${kind}" title="${p}">${label}</a>`;
  }
  return `<span class="attachment unsupported" title="${p}: a file type the hub does not show">${label}</span>`;
}

/** An embed that resolves to nothing (or to a file the caller may not read, which answers the same). */
function missingAttachment(target, raw) {
  return `<span class="attachment missing" title="missing attachment: ${escapeHtml(raw)}">missing attachment: ${escapeHtml(fileName(target))}</span>`;
}

/** A target written with a file extension other than .md: meant as an attachment. */
const looksLikeFile = target => /\.[A-Za-z0-9]{1,8}$/.test(target) && !/\.md$/i.test(target);

function wikiLink(raw, embed, linksByRaw) {
  const link = linksByRaw.get(raw);
  const [targetAndHeading, ...rest] = raw.replace(/\\\|/g, '|').split('|');
  const alias = rest.join('|');
  const [target, heading] = targetAndHeading.split('#');
  const label = escapeHtml(alias || (target ? target.replace(/\.md$/, '').split('/').pop() : '') + (heading ? ' › ' + heading.replace(/^\^/, '') : ''));
  if (link && link.resolved_path && !/\.md$/i.test(link.resolved_path)) {
    return attachment(link.resolved_path, embed, alias);
  }
  if (link && link.resolved_path) {
    const h = link.heading ? ` data-heading="${escapeHtml(slug(link.heading))}"` : '';
    return `<a class="wikilink${embed ? ' embed' : ''}" href="#/note/${encodeURI(link.resolved_path)}" data-path="${escapeHtml(link.resolved_path)}"${h} title="${escapeHtml(link.resolved_path)}">${label}</a>`;
  }
  if (!target && heading) {
    return `<a class="wikilink" href="#" data-heading="${escapeHtml(slug(heading))}">${label}</a>`;
  }
  if (embed && looksLikeFile(target.trim())) {
    return missingAttachment(target.trim(), raw);
  }
  return `<span class="wikilink unresolved" title="unresolved: ${escapeHtml(raw)}">${label}</span>`;
}

/** An image: local ones load, remote ones (another host) only when the hub opts in, else they become a link. */
function image(alt, url, ctx) {
  const u = safeUrl(url);
  const remote = /^(https?:)?\/\//i.test(u);
  if (remote && !ctx.remoteImages) {
    return `<a class="remote-image" href="${escapeHtml(u)}" rel="noopener noreferrer" title="remote image, not loaded">🖼 ${escapeHtml(alt || u)}</a>`;
  }
  return `<img alt="${escapeHtml(alt)}" src="${escapeHtml(u)}"${remote ? ' referrerpolicy="no-referrer"' : ''}>`;
}

/**
 * A markdown link or image (`raw` as written, without the `!`). One the hub resolved is a link to the note or the
 * attachment; an internal one that resolved to nothing is unresolved (a missing attachment for an image); an
 * external one (a URL scheme, `//host`) is left as written.
 */
function markdownLink(raw, embed, text, url, ctx) {
  const link = ctx.linksByRaw.get(raw);
  if (link && link.resolved_path && !/\.md$/i.test(link.resolved_path)) {
    return attachment(link.resolved_path, embed, text);
  }
  if (link && link.resolved_path) {
    const h = link.heading ? ` data-heading="${escapeHtml(slug(link.heading))}"` : '';
    return `<a class="wikilink" href="#/note/${encodeURI(link.resolved_path)}" data-path="${escapeHtml(link.resolved_path)}"${h} title="${escapeHtml(link.resolved_path)}">${emphasis(escapeHtml(text || fileName(link.resolved_path)))}</a>`;
  }
  if (link && link.target) {
    return embed ? missingAttachment(link.target, raw)
      : `<span class="wikilink unresolved" title="unresolved: ${escapeHtml(raw)}">${emphasis(escapeHtml(text))}</span>`;
  }
  return embed ? image(text, url, ctx)
    : `<a href="${escapeHtml(safeUrl(url))}" rel="noopener noreferrer">${emphasis(escapeHtml(text))}</a>`;
}

/** Emphasis, strike-through and tags of text that is already HTML-escaped and holds no markup yet. */
function emphasis(s) {
  s = s.replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>').replace(/__([^_]+)__/g, '<strong>$1</strong>');
  s = s.replace(/(^|[^*])\*([^*\s][^*]*)\*/g, '$1<em>$2</em>').replace(/(^|\W)_([^_\s][^_]*)_(?=\W|$)/g, '$1<em>$2</em>');
  s = s.replace(/~~([^~]+)~~/g, '<del>$1</del>');
  return s.replace(/(^|\s)#([\p{L}][\p{L}\p{N}_/-]*)/gu, '$1<span class="tag">#$2</span>');
}

/**
 * `[text](destination "title")` and `![alt](…)` as the hub's link parser reads them (WikiLinkParser.MARKDOWN_LINK):
 * one level of brackets in the text, a destination in `<…>` or without blanks (balanced parentheses), a title.
 */
const MARKDOWN_LINK = /(!?)\[((?:[^[\]\n]|\[[^[\]\n]*\])*)\]\(\s*(<[^<>\n]*>|(?:[^\s()<>]|\([^\s()]*\))+)(?:\s+(?:"[^"\n]*"|'[^'\n]*'|\([^()\n]*\)))?\s*\)/g;

/**
 * Inline markup of one line of text (not code). Code spans, wiki-links, images and links become finished HTML
 * first and are set aside behind placeholders, so the later passes (emphasis, tags) never reach into an attribute
 * value: `![a #tag x](u)` keeps its alt text, `[x](http://h/_a_)` its URL.
 */
function inline(text, ctx) {
  const done = [];
  const keep = html => { done.push(html); return `\u0000${done.length - 1}\u0000`; };
  let s = String(text).replace(/[\u0000\u0001]/g, '');
  s = s.replace(/`([^`]+)`/g, (_, c) => keep(`<code>${escapeHtml(c)}</code>`));
  s = s.replace(/(!?)\[\[([^\]\n]+?)\]\]/g, (_, bang, raw) => keep(wikiLink(raw, bang === '!', ctx.linksByRaw)));
  s = s.replace(MARKDOWN_LINK, (all, bang, text, dest) => {
    const url = dest.replace(/^<(.*)>$/, '$1').trim();
    return keep(markdownLink(all.slice(bang.length), bang === '!', text, url, ctx));
  });
  s = emphasis(escapeHtml(s));
  return s.replace(/\u0000(\d+)\u0000/g, (_, i) => done[i]);
}

function renderFrontMatter(lines) {
  if (!lines.length) return '';
  const rows = lines.filter(l => l.trim()).map(l => {
    const m = l.match(/^([\w-]+):\s*(.*)$/);
    return m ? `<tr><th>${escapeHtml(m[1])}</th><td>${escapeHtml(m[2])}</td></tr>` : `<tr><td colspan="2">${escapeHtml(l)}</td></tr>`;
  });
  return `<table class="front-matter">${rows.join('')}</table>`;
}

/** Markdown text → HTML string. options.remoteImages: load images from other hosts (GET /memory/ui/config). */
export function renderMarkdown(text, links = [], options = {}) {
  const ctx = { linksByRaw: new Map(links.map(l => [l.raw, l])), remoteImages: !!options.remoteImages };
  const [front, lines] = splitFrontMatter(String(text).replace(/\r\n?/g, '\n').split('\n'));
  const out = [renderFrontMatter(front)];
  let i = 0;
  const isBlank = l => !l.trim();
  const listItem = l => l.match(/^(\s*)([-*+]|\d+[.)])\s+(.*)$/);
  while (i < lines.length) {
    const line = lines[i];
    if (isBlank(line)) { i++; continue; }
    const fence = line.match(/^\s*(```|~~~)\s*([\w+-]*)/);
    if (fence) {
      const body = [];
      i++;
      while (i < lines.length && !lines[i].trim().startsWith(fence[1])) body.push(lines[i++]);
      i++;
      const lang = fence[2] ? ` class="language-${escapeHtml(fence[2])}"` : '';
      out.push(`<pre><code${lang}>${escapeHtml(body.join('\n'))}</code></pre>`);
      continue;
    }
    const heading = line.match(/^(#{1,6})\s+(.*?)\s*#*\s*$/);
    if (heading) {
      const level = heading[1].length;
      out.push(`<h${level} id="${escapeHtml(slug(heading[2]))}">${inline(heading[2], ctx)}</h${level}>`);
      i++;
      continue;
    }
    if (/^\s*([-*_])\s*\1\s*\1[\s\1]*$/.test(line)) { out.push('<hr>'); i++; continue; }
    if (/^\s*>/.test(line)) {
      const quote = [];
      while (i < lines.length && /^\s*>/.test(lines[i])) quote.push(lines[i++].replace(/^\s*>\s?/, ''));
      out.push(`<blockquote>${renderMarkdown(quote.join('\n'), links, options)}</blockquote>`);
      continue;
    }
    if (line.includes('|') && i + 1 < lines.length && /^\s*\|?\s*:?-{3,}/.test(lines[i + 1])) {
      // `\|` is a pipe inside a cell (Obsidian's `[[img.png\|300]]` in a table), not a cell border
      const cells = l => l.trim().replace(/^\||(?<!\\)\|$/g, '').split(/(?<!\\)\|/).map(c => inline(c.trim(), ctx));
      const head = cells(line);
      i += 2;
      const rows = [];
      while (i < lines.length && lines[i].includes('|') && !isBlank(lines[i])) rows.push(cells(lines[i++]));
      out.push(`<table><thead><tr>${head.map(c => `<th>${c}</th>`).join('')}</tr></thead><tbody>${rows.map(r => `<tr>${r.map(c => `<td>${c}</td>`).join('')}</tr>`).join('')}</tbody></table>`);
      continue;
    }
    if (listItem(line)) {
      out.push(renderList(lines, i, ctx, n => { i = n; }));
      continue;
    }
    const para = [];
    while (i < lines.length && !isBlank(lines[i]) && !/^(#{1,6}\s|\s*(```|~~~)|\s*>)/.test(lines[i]) && !listItem(lines[i])) para.push(lines[i++]);
    out.push(`<p>${para.map(l => inline(l.replace(/\s\^[\w-]+\s*$/, ''), ctx)).join(' ')}</p>`);
  }
  return out.join('\n');
}

/** A (possibly nested) list starting at lines[start]; calls done(nextIndex). */
function renderList(lines, start, ctx, done) {
  const first = lines[start].match(/^(\s*)([-*+]|\d+[.)])\s+/);
  const indent = first[1].length;
  const ordered = /\d/.test(first[2]);
  const items = [];
  let i = start;
  while (i < lines.length) {
    const m = lines[i].match(/^(\s*)([-*+]|\d+[.)])\s+(.*)$/);
    if (m && m[1].length === indent) {
      const task = m[3].match(/^\[([ xX])\]\s+(.*)$/);
      const text = task ? `<input type="checkbox" disabled${task[1] !== ' ' ? ' checked' : ''}> ${inline(task[2], ctx)}` : inline(m[3], ctx);
      items.push([text, '']);
      i++;
    } else if (m && m[1].length > indent && items.length) {
      items[items.length - 1][1] += renderList(lines, i, ctx, n => { i = n; });
    } else if (!m && lines[i].trim() && /^\s+/.test(lines[i]) && items.length) {
      items[items.length - 1][0] += ' ' + inline(lines[i].trim(), ctx);
      i++;
    } else {
      break;
    }
  }
  done(i);
  const tag = ordered ? 'ol' : 'ul';
  return `<${tag}>${items.map(([t, sub]) => `<li>${t}${sub}</li>`).join('')}</${tag}>`;
}
