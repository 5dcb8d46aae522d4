// The demo page's logic: no framework. Everything shown is set with textContent (never
// innerHTML): the data is untrusted text from the service (scraped headings, posts, ...).
import init, { Client, estimateCost, operations } from '../pkg/serpkit.js';

const $ = (id) => document.getElementById(id);
const el = {
  baseUrl: $('base-url'), key: $('key'), operation: $('operation'), request: $('request'),
  price: $('price'), run: $('run'), cancel: $('cancel'), status: $('status'),
  summary: $('summary'), issues: $('issues'), dataInfo: $('data-info'), data: $('data'),
};

const EXAMPLES = {
  'search_volume/bulk': { keywords: ['trail shoes', 'running shoes'], ccode: 'US' },
  'search_volume/single': { keyword: 'trail shoes', ccode: 'US' },
  domainstats: { domains: ['example.com', 'example.org'] },
  'backlink/metrics': { urls: ['https://example.com/'] },
  'ranked-keywords/metrics': { domain: 'example.com' },
  'ranked-keywords/domain': { domain: 'example.com' },
  'backlink/overview': { domain: 'example.com' },
  'outline/seo': { keyword: 'trail shoes' },
  'microblog/post': { keyword: 'trail shoes' },
  'video/video': { keyword: 'trail shoes' },
  related: { keyword: 'trail shoes', ccode: 'US' },
};

/** Longest data text shown (the rest is cut: a 20,000-row answer is several MB). */
const MAX_SHOWN = 200_000;

function setText(node, text, cls = '') {
  node.textContent = text;
  node.className = cls;
}

function describeError(e) {
  if (e && e.name === 'SerpkitError') {
    const parts = [`${e.code}: ${e.message}`];
    if (e.field) parts.push(`field ${e.field}`);
    if (e.hint) parts.push(e.hint);
    if (e.charge && e.charge.micros > 0) parts.push(`charged ${e.charge.display}`);
    return parts.join(' · ');
  }
  return String(e);
}

function showPrice() {
  try {
    const est = estimateCost(el.operation.value, el.request.value);
    setText(el.price, `Price: ${est.display} (${est.units} × ${est.unit.replace('_', ' ')})`, 'ok');
    el.run.disabled = false;
    return true;
  } catch (e) {
    setText(el.price, describeError(e), 'error');
    el.run.disabled = true;
    return false;
  }
}

function showReport(report) {
  el.issues.replaceChildren();
  if (!report) {
    setText(el.summary, 'Validation is off.');
    return;
  }
  setText(
    el.summary,
    `${report.ok ? 'OK' : 'Breaks the contract'}: ${report.error_count} error(s), ${report.warning_count} warning(s)` +
      (report.omitted ? ` (${report.omitted} not listed)` : ''),
    report.ok ? 'ok' : 'error',
  );
  for (const issue of [...report.errors, ...report.warnings]) {
    const li = document.createElement('li');
    li.className = issue.severity;
    li.textContent = `${issue.severity} ${issue.path || '/'} [${issue.code}] ${issue.message}`;
    el.issues.append(li);
  }
}

function showData(data) {
  const text = JSON.stringify(data, null, 2);
  const rows = Array.isArray(data) ? `${data.length} record(s), ` : '';
  setText(el.dataInfo, `${rows}${text.length.toLocaleString('en-US')} characters` + (text.length > MAX_SHOWN ? ' (cut)' : ''), 'muted');
  el.data.textContent = text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}\n…` : text;
}

let running = null;

async function run() {
  if (!showPrice()) return;
  const ctl = new AbortController();
  running = ctl;
  el.run.disabled = true;
  el.cancel.disabled = false;
  setText(el.status, 'Running…');
  el.issues.replaceChildren();
  setText(el.summary, '');
  setText(el.dataInfo, '');
  el.data.textContent = '';
  let client;
  try {
    client = new Client({ key: el.key.value, baseUrl: el.baseUrl.value.trim(), retries: 2 });
    const reply = await client.call(el.operation.value, el.request.value, { signal: ctl.signal });
    setText(el.status, `Done in ${reply.attempts} attempt(s), charged ${reply.charge.display}.`, 'ok');
    showReport(reply.report);
    showData(reply.data);
  } catch (e) {
    setText(el.status, describeError(e), 'error');
    if (e && e.report) showReport(e.report);
  } finally {
    client?.free();
    running = null;
    el.run.disabled = false;
    el.cancel.disabled = true;
  }
}

await init();
for (const op of operations()) {
  const option = document.createElement('option');
  option.value = op.path;
  option.textContent = `${op.title} (${op.path}): ${op.price.display} ${op.unitLabel}`;
  el.operation.append(option);
}
const fill = () => {
  el.request.value = JSON.stringify(EXAMPLES[el.operation.value] ?? {}, null, 2);
  showPrice();
};
el.operation.addEventListener('change', fill);
el.request.addEventListener('input', showPrice);
el.run.addEventListener('click', run);
el.cancel.addEventListener('click', () => running?.abort());
fill();
document.body.dataset.ready = 'true';
