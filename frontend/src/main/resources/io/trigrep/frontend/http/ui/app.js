// trigrep's web UI on top of the server-rendered pages: "/" focuses the search box, and a query
// that is still running shows its progress and best results so far from the Server-Sent Events
// stream, then the finished first page. Every piece of text from the server goes in through
// textContent, never as markup.
'use strict';

document.addEventListener('keydown', (event) => {
  const target = event.target;
  const typing = target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target.isContentEditable;
  if (event.key === '/' && !typing && !event.ctrlKey && !event.metaKey && !event.altKey) {
    event.preventDefault();
    const box = document.getElementById('q');
    box.focus();
    box.select();
  }
});

const main = document.getElementById('main');
if (main && main.dataset.events) {
  follow(main.dataset.events);
}

// A file view opened with line= but no #L fragment (typed or shared by hand): bring the line into view.
const targetLine = document.querySelector('pre.file .l.target');
if (targetLine && !location.hash) {
  targetLine.scrollIntoView({ block: 'center' });
}

function follow(url) {
  const events = new EventSource(url);
  const bar = document.getElementById('bar');
  const text = document.getElementById('progress-text');
  const notice = document.getElementById('progress-notice');
  const best = document.getElementById('best');
  const bestTitle = document.querySelector('.best-title');
  const number = new Intl.NumberFormat('en');
  events.addEventListener('progress', (event) => {
    const p = JSON.parse(event.data);
    bar.max = Math.max(1, p.files_total);
    bar.value = p.files_searched;
    text.textContent = `${number.format(p.files_searched)} of ${number.format(p.files_total)} files searched · `
      + `${p.shards_done} of ${p.shards_total} shards answered · ${number.format(p.results_so_far)} results so far`;
    if (p.shards_failed > 0) {
      notice.hidden = false;
      notice.textContent = `${p.shards_failed} of ${p.shards_total} shards failed: the results will be partial.`;
    }
    if (p.best.length > 0) {
      bestTitle.hidden = false;
      best.replaceChildren(...p.best.map(resultItem));
    }
  });
  events.addEventListener('done', (event) => {
    events.close();
    bar.value = bar.max;
    const d = JSON.parse(event.data);
    if (d.capped) {
      // Said at once; the finished page swapped in below says it again, with what to do about it.
      notice.hidden = false;
      notice.textContent = d.capped.reason === 'results'
        ? `Capped: only the first ${number.format(d.capped.limit)} results are kept.`
        : `Capped: only the first ${number.format(d.capped.limit)} bytes of results are kept.`;
    }
    showFinished();
  });
  events.addEventListener('error', (event) => {
    events.close();
    if (event.data) {
      const failure = JSON.parse(event.data);
      showQueryError(failure.error, failure.position || 0);
    } else {
      // The stream broke (the server restarted, a proxy cut it): the page itself says where things are.
      showFinished();
    }
  });
}

// Replaces the progress page with the finished page the server renders for the same URL.
async function showFinished() {
  try {
    const response = await fetch(location.href, { headers: { Accept: 'text/html' } });
    const page = new DOMParser().parseFromString(await response.text(), 'text/html');
    const fresh = page.getElementById('main');
    const error = page.getElementById('query-error');
    if (error) {
      document.querySelector('header.bar').after(document.adoptNode(error));
    }
    document.title = page.title;
    main.replaceWith(document.adoptNode(fresh));
    if (fresh.dataset.events) {
      follow(fresh.dataset.events);
    }
  } catch (e) {
    location.reload();
  }
}

function showQueryError(message, position) {
  const box = document.createElement('div');
  box.className = 'error';
  box.id = 'query-error';
  box.setAttribute('role', 'alert');
  const p = document.createElement('p');
  p.textContent = message;
  box.append(p);
  const query = document.getElementById('q').value;
  if (position > 0 && position <= query.length + 1) {
    const caret = document.createElement('pre');
    caret.className = 'caret';
    caret.textContent = `${query}\n${' '.repeat(position - 1)}^`;
    box.append(caret);
  }
  document.querySelector('header.bar').after(box);
  document.querySelector('.progress').hidden = true;
}

// One result, with the markup ResultItem.result renders on the server.
function resultItem(r) {
  if (r.kind === 'file') return fileItem(r);
  const params = new URLSearchParams(location.search);
  const show = new URLSearchParams({ package: r.package, path: r.path, q: params.get('q') || '' });
  if (params.get('mode') === 'literal') show.set('mode', 'literal');
  const item = element('li', 'result');
  const loc = element('a', 'loc');
  show.set('line', String(r.line));
  loc.href = `/show?${show}#L${r.line}`;
  loc.append(element('span', 'pkg', r.package), '/', element('span', 'path', r.path), ':', element('span', 'lno', String(r.line)));
  if (r.symbol) {
    loc.append(' ', element('span', 'kind', r.symbol.kind));
    if (r.symbol.scope) loc.append(' ', element('span', 'scope', `in ${r.symbol.scope}`));
  }
  const pre = element('pre', 'ctx');
  // Lines the backend cut (long lines): by line number, what of the line is shown.
  const cuts = new Map((r.cut || []).map((c) => [c.line, c]));
  const before = r.context_before || [];
  before.forEach((line, i) => pre.append(contextLine(r.line - before.length + i, line, cuts)));
  const hit = contextLine(r.line, '', new Map());
  hit.classList.add('hit');
  hit.lastChild.remove();
  const cut = cuts.get(r.line);
  if (cut && cut.start > 0) hit.append(cutMark(cut));
  hit.append(...marked(r.context, r.ranges || []));
  if (cut && cut.end < cut.bytes) hit.append(cutMark(cut));
  hit.append('\n');
  pre.append(hit);
  (r.context_after || []).forEach((line, i) => pre.append(contextLine(r.line + 1 + i, line, cuts)));
  item.append(loc, pre);
  return item;
}

// A whole file (a file-name query's result), with the markup ResultItem.file renders.
function fileItem(r) {
  const params = new URLSearchParams(location.search);
  const show = new URLSearchParams({ package: r.package, path: r.path, q: params.get('q') || '' });
  if (params.get('mode') === 'literal') show.set('mode', 'literal');
  const item = element('li', 'result file');
  const loc = element('a', 'loc');
  loc.href = `/show?${show}`;
  loc.append(element('span', 'pkg', r.package), '/', element('span', 'path', r.path));
  const meta = element('span', 'meta');
  if (r.language) meta.append(element('span', 'lang', r.language), ' · ');
  meta.append(element('span', 'size', size(r.bytes)));
  item.append(loc, ' ', meta);
  return item;
}

// A file size as ResultItem.size writes it: 812 B, 4.1 KiB, 12 MiB.
function size(bytes) {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = bytes;
  let u = -1;
  while (v >= 1024 && u < units.length - 1) { v /= 1024; u++; }
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[u]}`;
}

function contextLine(number, text, cuts) {
  const line = element('span', 'l');
  line.append(element('span', 'n', String(number)), text);
  const cut = cuts.get(number);
  if (cut) line.append(cutMark(cut));
  line.append('\n');
  return line;
}

// The ellipsis where a line was cut, with the markup PageLayout.cutMark renders.
function cutMark(cut) {
  const mark = element('span', 'cut', '…');
  mark.title = `line cut: ${new Intl.NumberFormat('en').format(cut.bytes)} bytes`;
  return mark;
}

// The line as text nodes and <mark>s; ranges are UTF-8 byte offsets, as the server sends them.
function marked(line, ranges) {
  const bytes = new TextEncoder().encode(line);
  const decode = (from, to) => new TextDecoder().decode(bytes.subarray(from, to));
  const parts = [];
  let done = 0;
  for (const [start, rawEnd] of ranges) {
    const end = Math.min(rawEnd, bytes.length);
    if (start < done || start >= end) continue;
    parts.push(decode(done, start), element('mark', null, decode(start, end)));
    done = end;
  }
  parts.push(decode(done, bytes.length));
  return parts;
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}
