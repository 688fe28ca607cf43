// The EnvScript control panel: plain JavaScript over the host's control API (/v1), kept live by its
// event stream. Every request goes to the same origin, which holds the access cookie.
'use strict';

const pages = ['containers', 'flags', 'state', 'scenarios'];
const loaders = { containers: loadContainers, flags: loadFlags, state: loadState, scenarios: loadScenarios };

// MARK: Helpers

/** Calls the control API; throws an Error carrying the API's own message on failure. */
async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers['Content-Type'] = 'application/json';
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch (_) { data = null; }
  if (!response.ok) {
    const message = data && data.error ? data.error.message : data && data.errorDetails ? `${data.errorCode}: ${data.errorDetails}` : null;
    const error = new Error(message || `${response.status} ${response.statusText}`);
    error.status = response.status;
    throw error;
  }
  return data;
}

/** Makes an element with attributes (on* keys become listeners) and children. */
function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else if (value === true) node.setAttribute(name, '');
    else node.setAttribute(name, value);
  }
  for (const child of children) {
    if (child === undefined || child === null) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function show(id, text) { document.getElementById(id).textContent = text || ''; }
function segment(text) { return encodeURIComponent(text); }
function formatDate(text) { return text ? new Date(text).toLocaleString() : '—'; }

function currentPage() {
  const name = location.hash.slice(1);
  return pages.includes(name) ? name : 'containers';
}

function showPage() {
  const name = currentPage();
  for (const page of pages) {
    document.getElementById(`page-${page}`).hidden = page !== name;
    const link = document.getElementById(`nav-${page}`);
    if (page === name) link.setAttribute('aria-current', 'page'); else link.removeAttribute('aria-current');
  }
  loaders[name]();
}

// MARK: Containers

let rowAction = null;

async function loadContainers() {
  try {
    const { containers } = await api('GET', '/v1/containers');
    renderContainers(containers);
  } catch (error) {
    show('containers-message', error.message);
  }
}

function renderContainers(containers) {
  const body = document.querySelector('#containers-table tbody');
  body.replaceChildren(...containers.map((container) => {
    const name = container.name;
    const action = (label, handler, disabled) =>
      element('button', { type: 'button', 'aria-label': `${label} ${name}`, 'data-action': label.toLowerCase(), disabled, onclick: handler }, label);
    return element('tr', { class: container.is_active ? 'active' : undefined, 'data-name': name, 'data-active': container.is_active ? 'true' : 'false' },
      element('td', {}, name, container.is_active ? element('span', { class: 'visually-hidden' }, ' (active)') : null),
      element('td', {}, container.description || ''),
      element('td', {}, formatDate(container.created_at)),
      element('td', {}, formatDate(container.last_activated_at)),
      element('td', {}, container.activated_count),
      element('td', {},
        action('Info', () => showInfo(container)),
        action('Activate', () => activate(container), container.is_active),
        action('Clone', () => openRowForm('clone', container)),
        element('a', { href: `/v1/containers/${segment(container.uuid)}/export`, download: `${name}.zip`, class: 'button',
          'aria-label': `Export ${name}`, 'data-action': 'export' }, 'Export'),
        action('Compare', () => openDiff(container, containers)),
        action('Rename', () => openRowForm('rename', container), container.is_default),
        action('Describe', () => openRowForm('describe', container)),
        action('Clean', () => clean(container)),
        action('Delete', () => remove(container), container.is_default || container.is_active)));
  }));
}

function formatBytes(bytes) {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) { value /= 1000; unit += 1; }
  return unit === 0 ? `${value} bytes` : `${value.toFixed(1)} ${units[unit]}`;
}

/** Shows one container's details, its size on disk included (measured on request: it walks the tree). */
async function showInfo(container) {
  const panel = document.getElementById('container-info');
  show('container-info-title', container.name);
  const list = document.getElementById('container-info-fields');
  list.replaceChildren(element('dd', {}, 'Measuring…'));
  panel.hidden = false;
  try {
    const info = await api('GET', `/v1/containers/${segment(container.uuid)}`);
    const usage = info.disk_usage;
    const fields = [
      ['UUID', info.uuid], ['Description', info.description || '—'], ['Active', info.is_active ? 'yes' : 'no'],
      ['Created', formatDate(info.created_at)], ['Last activated', formatDate(info.last_activated_at)],
      ['Activations', info.activated_count],
      ['Size on disk', usage ? `${formatBytes(usage.bytes)} in ${usage.entries} ${usage.entries === 1 ? 'entry' : 'entries'}` : '—'],
    ];
    list.replaceChildren(...fields.flatMap(([name, value]) =>
      [element('dt', {}, name), element('dd', { 'data-field': name.toLowerCase().replaceAll(' ', '-') }, value)]));
  } catch (error) {
    list.replaceChildren(element('dd', { class: 'message' }, error.message));
  }
}

async function containerChange(work) {
  show('containers-message', '');
  try {
    await work();
  } catch (error) {
    show('containers-message', error.message);
  }
  await loadContainers();
}

function activate(container) {
  return containerChange(() => api('POST', `/v1/containers/${segment(container.uuid)}/activate`));
}

function clean(container) {
  if (!confirm(`Clean ${container.name}? Everything stored in it is erased.`)) return;
  return containerChange(() => api('POST', `/v1/containers/${segment(container.uuid)}/clean`));
}

function remove(container) {
  if (!confirm(`Delete ${container.name}? It cannot be undone.`)) return;
  return containerChange(() => api('DELETE', `/v1/containers/${segment(container.uuid)}`));
}

// MARK: Sharing: import an archive, compare two containers

let diffFrom = null;

/** Sends the chosen archive file as the body of an import. */
async function submitImport(event) {
  event.preventDefault();
  const file = document.getElementById('import-file').files[0];
  const name = document.getElementById('import-name').value;
  show('import-error', '');
  if (!file) return;
  const query = name ? `?name=${encodeURIComponent(name)}` : '';
  try {
    const response = await fetch(`/v1/containers/import${query}`, {
      method: 'POST', headers: { 'Content-Type': 'application/zip' }, body: await file.arrayBuffer() });
    if (!response.ok) {
      const data = await response.json().catch(() => null);
      throw new Error(data && data.error ? data.error.message : `${response.status} ${response.statusText}`);
    }
    document.getElementById('import-form').reset();
    await loadContainers();
  } catch (error) {
    show('import-error', error.message);
  }
}

function openDiff(container, containers) {
  diffFrom = container;
  show('container-diff-title', `Compare ${container.name}`);
  show('diff-summary', '');
  document.getElementById('diff-lines').replaceChildren();
  document.getElementById('diff-other').replaceChildren(...containers
    .filter((other) => other.uuid !== container.uuid)
    .map((other) => element('option', { value: other.uuid }, other.name)));
  document.getElementById('container-diff').hidden = false;
}

/** Lists what differs from the container the panel was opened for to the chosen one. */
async function submitDiff(event) {
  event.preventDefault();
  if (!diffFrom) return;
  const other = document.getElementById('diff-other').value;
  try {
    const diff = await api('GET', `/v1/containers/${segment(diffFrom.uuid)}/diff/${segment(other)}`);
    const size = (bytes) => (bytes === undefined ? '—' : formatBytes(bytes));
    const lines = [
      ...diff.entries.added.map((entry) => `+ ${entry.path} (${size(entry.size_after)})`),
      ...diff.entries.removed.map((entry) => `− ${entry.path} (${size(entry.size_before)})`),
      ...diff.entries.changed.map((entry) => `~ ${entry.path} (${size(entry.size_before)} → ${size(entry.size_after)})`),
      ...diff.preferences.added.map((key) => `+ ${key.kind} ${key.name} = ${JSON.stringify(key.after)}`),
      ...diff.preferences.removed.map((key) => `− ${key.kind} ${key.name} = ${JSON.stringify(key.before)}`),
      ...diff.preferences.changed.map((key) => `~ ${key.kind} ${key.name}: ${JSON.stringify(key.before)} → ${JSON.stringify(key.after)}`),
    ];
    show('diff-summary', lines.length ? `${diff.first} → ${diff.second}: ${lines.length} difference${lines.length === 1 ? '' : 's'}` : `No differences between ${diff.first} and ${diff.second}`);
    document.getElementById('diff-lines').replaceChildren(...lines.map((line) => element('li', {}, line)));
  } catch (error) {
    show('diff-summary', error.message);
  }
}

function openRowForm(kind, container) {
  rowAction = { kind, container };
  const labels = { clone: `Name of the copy of ${container.name}`, rename: `New name of ${container.name}`, describe: `Description of ${container.name}` };
  show('row-form-label', labels[kind]);
  show('row-form-error', '');
  const input = document.getElementById('row-form-input');
  input.value = kind === 'describe' ? (container.description || '') : '';
  document.getElementById('row-form').hidden = false;
  input.focus();
}

function closeRowForm() {
  rowAction = null;
  document.getElementById('row-form').hidden = true;
}

async function submitRowForm(event) {
  event.preventDefault();
  if (!rowAction) return;
  const { kind, container } = rowAction;
  const value = document.getElementById('row-form-input').value;
  const path = `/v1/containers/${segment(container.uuid)}`;
  try {
    if (kind === 'clone') await api('POST', `${path}/clone`, { name: value });
    if (kind === 'rename') await api('PATCH', path, { name: value });
    if (kind === 'describe') await api('PATCH', path, { description: value });
    closeRowForm();
    await loadContainers();
  } catch (error) {
    show('row-form-error', error.message);
  }
}

async function submitCreate(event) {
  event.preventDefault();
  const name = document.getElementById('create-name');
  const description = document.getElementById('create-description');
  show('create-error', '');
  try {
    const body = { name: name.value };
    if (description.value) body.description = description.value;
    await api('POST', '/v1/containers', body);
    name.value = '';
    description.value = '';
    await loadContainers();
  } catch (error) {
    show('create-error', error.message);
  }
}

// MARK: Flags

let flags = { tweaks: [], overrides: new Map(), failures: [], providers: [] };
/** The evaluation context of the field (null when empty) and each flag's OFREP answer in it, by key. */
let flagContext = { context: null, answers: new Map() };

async function loadFlags() {
  try {
    const [list, overrides, stack] = await Promise.all([
      api('GET', '/v1/tweaks'), api('GET', '/v1/tweaks/overrides'), api('GET', '/v1/tweaks/providers')]);
    flags = {
      tweaks: list.tweaks,
      failures: list.failures,
      providers: stack.providers,
      overrides: new Map(overrides.overrides.map((tweak) => [`${tweak.feature}/${tweak.variable}`, tweak])),
    };
    show('flags-message', list.failures.map((failure) => `${failure.provider}: ${failure.message || failure.reason}`).join('; '));
    if (flagContext.context) await evaluateInContext(flagContext.context);
    renderFlags();
  } catch (error) {
    show('flags-message', error.message);
  }
}

function renderFlags() {
  const query = document.getElementById('flag-search').value.trim().toLowerCase();
  const matching = flags.tweaks.filter((tweak) =>
    !query || `${tweak.feature} ${tweak.variable} ${tweak.title || ''} ${tweak.group || ''}`.toLowerCase().includes(query));
  const features = [...new Set(matching.map((tweak) => tweak.feature))];
  document.getElementById('flag-groups').replaceChildren(...features.map((feature) =>
    element('section', { class: 'flag-group', 'data-feature': feature, 'aria-label': `Feature ${feature}` },
      element('h3', {}, feature),
      ...matching.filter((tweak) => tweak.feature === feature).map(renderFlag))));
  document.getElementById('provider-stack').replaceChildren(...flags.providers.map(renderProvider));
}

/** The one string OFREP names a flag by: the feature alone for its own switch, else feature.variable. */
function flagKey(tweak) {
  return tweak.feature === tweak.variable ? tweak.feature : `${tweak.feature}.${tweak.variable}`;
}

/** Reads the context field: null when empty, the object it holds, or an error naming what is wrong. */
function readFlagContext() {
  const text = document.getElementById('flag-context').value.trim();
  if (!text) return { context: null };
  let context;
  try {
    context = JSON.parse(text);
  } catch (failure) {
    return { error: `not valid JSON: ${failure.message}` };
  }
  if (context === null || typeof context !== 'object' || Array.isArray(context)) {
    return { error: 'a context is a JSON object, such as {"targetingKey": "user-1", "country": "DE"}' };
  }
  return { context };
}

/** Every flag evaluated in `context` through OFREP's bulk evaluation, kept by key for the flags' rows. */
async function evaluateInContext(context) {
  const answer = await api('POST', '/ofrep/v1/evaluate/flags', { context });
  flagContext = { context, answers: new Map(answer.flags.map((flag) => [flag.key, flag])) };
}

async function applyFlagContext(event) {
  event.preventDefault();
  const error = document.getElementById('flag-context-error');
  error.textContent = '';
  const read = readFlagContext();
  if (read.error) { error.textContent = read.error; return; }
  try {
    if (read.context) await evaluateInContext(read.context);
    else flagContext = { context: null, answers: new Map() };
    renderFlags();
  } catch (failure) {
    error.textContent = failure.message;
  }
}

/** What a flag is for the context of the field: its value, variant and reason, or why it has none. */
function renderInContext(tweak) {
  if (!flagContext.context) return null;
  const answer = flagContext.answers.get(flagKey(tweak));
  const id = `flag-${tweak.feature}-${tweak.variable}`.replace(/[^A-Za-z0-9_-]/g, '_') + '-in-context';
  let text;
  if (!answer) text = 'not evaluated';
  else if (answer.errorCode) text = `${answer.errorCode}: ${answer.errorDetails}`;
  else {
    const value = 'value' in answer ? (tweak.sealed ? '••••••' : JSON.stringify(answer.value)) : "the caller's default";
    text = `${value}${answer.variant ? ` (variant ${answer.variant})` : ''}, ${answer.reason}`;
  }
  return element('div', { class: 'in-context', id, 'data-reason': answer && answer.reason || '' }, `For this context: ${text}`);
}

/** One provider of the stack: its name and kind, and for a remote one how its last fetch went. */
function renderProvider(provider) {
  const facts = [provider.kind === 'other' ? null : provider.kind, provider.writable ? 'writable' : 'read-only'];
  const status = provider.status;
  if (status) {
    facts.push(status.last_success ? `last fetched ${formatDate(status.last_success)}` : 'never fetched');
    if (status.etag) facts.push(`ETag ${status.etag}`);
    if (status.from_kept_copy) facts.push('answering from the copy kept in the container');
    if (status.last_error) facts.push(`error: ${status.last_error}`);
  }
  return element('li', { 'data-provider': provider.name },
    element('strong', {}, provider.name), ` — ${facts.filter(Boolean).join(', ')}`);
}

function renderFlag(tweak) {
  const key = `${tweak.feature}/${tweak.variable}`;
  const override = flags.overrides.get(key);
  const id = `flag-${tweak.feature}-${tweak.variable}`.replace(/[^A-Za-z0-9_-]/g, '_');
  const error = element('span', { class: 'field-error', role: 'alert', id: `${id}-error` });
  const details = element('div', { class: 'details', id: `${id}-details`, hidden: true });
  let editor;
  if (tweak.encrypted) {
    editor = element('span', {}, '(sealed: cannot be decrypted)');
  } else if (tweak.sealed) {
    // A secret: masked until asked for, and changed from the command line rather than here.
    const shown = element('span', { class: 'sealed', id }, '••••••');
    editor = element('span', {}, shown, ' ', element('button', {
      type: 'button', 'aria-label': `Reveal ${tweak.feature} ${tweak.variable}`,
      onclick: (event) => { shown.textContent = String(tweak.value); event.target.remove(); },
    }, 'Reveal'));
  } else if (typeof tweak.value === 'boolean') {
    editor = element('input', {
      type: 'checkbox', role: 'switch', id, checked: tweak.value, 'aria-label': `${tweak.feature} ${tweak.variable}`,
      onchange: (event) => setOverride(tweak, event.target.checked, error),
    });
  } else if (typeof tweak.value === 'object') {
    // A structured value (an array or an object): edited as JSON, checked here before it is sent.
    const area = element('textarea', {
      id, rows: 4, cols: 48, spellcheck: 'false', class: 'json-editor', 'aria-label': `${tweak.feature} ${tweak.variable} (JSON)`,
    });
    area.value = JSON.stringify(tweak.value, null, 2);
    editor = overrideForm(tweak, area, () => parseJSONValue(tweak.value, area.value), error);
  } else {
    const input = element('input', {
      id, value: String(tweak.value), type: 'text',
      inputmode: typeof tweak.value === 'number' ? 'decimal' : undefined, 'aria-label': `${tweak.feature} ${tweak.variable}`,
    });
    editor = overrideForm(tweak, input, () => parseValue(tweak.value, input.value), error);
  }
  return element('div', { class: 'flag', 'data-key': key, 'data-overridden': override ? 'true' : 'false' },
    element('label', { for: id }, tweak.title || tweak.variable),
    element('div', {}, editor, ' ',
      element('span', { class: 'source' }, `from ${tweak.source}`), ' ',
      override ? element('span', { class: 'overridden' }, 'overridden') : null, error),
    element('div', {},
      element('button', { type: 'button', 'aria-label': `Why ${tweak.feature} ${tweak.variable}`, onclick: () => explain(tweak, details) }, 'Why?'),
      override ? element('button', {
        type: 'button', 'aria-label': `Remove override of ${tweak.feature} ${tweak.variable}`,
        onclick: () => removeOverride(tweak, override, error),
      }, 'Remove override') : null),
    renderInContext(tweak),
    details);
}

/** A form with `field` and an Override button: `read()` gives `{value}` to set, or `{error}` shown next to it. */
function overrideForm(tweak, field, read, error) {
  return element('form', {
    class: 'inline-form',
    onsubmit: (event) => {
      event.preventDefault();
      const value = read();
      if (value.error) { error.textContent = value.error; return; }
      setOverride(tweak, value.value, error);
    },
  }, field, element('button', { type: 'submit', 'aria-label': `Override ${tweak.feature} ${tweak.variable}` }, 'Override'));
}

/** The typed value of `text` for a flag whose value is `current`, or the reason it is not one. */
function parseValue(current, text) {
  if (typeof current !== 'number') return { value: text };
  const trimmed = text.trim();
  if (!/^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/.test(trimmed)) {
    return { error: `'${text}' is not a number: this flag holds a number` };
  }
  return { value: Number(trimmed) };
}

/** The value the JSON `text` holds for a structured flag whose value is `current`, or why it cannot be one. */
function parseJSONValue(current, text) {
  let value;
  try {
    value = JSON.parse(text);
  } catch (failure) {
    return { error: `not valid JSON: ${failure.message}` };
  }
  const shape = (item) => (Array.isArray(item) ? 'an array' : item === null ? 'null' : typeof item === 'object' ? 'an object' : `a ${typeof item}`);
  if (shape(value) !== shape(current)) return { error: `this flag holds ${shape(current)}, not ${shape(value)}` };
  return { value };
}

async function setOverride(tweak, value, error) {
  error.textContent = '';
  try {
    await api('PUT', `/v1/tweaks/${segment(tweak.feature)}/${segment(tweak.variable)}`, { value });
    await loadFlags();
  } catch (failure) {
    error.textContent = failure.message;
  }
}

async function removeOverride(tweak, override, error) {
  try {
    await api('DELETE', `/v1/tweaks/${segment(tweak.feature)}/${segment(tweak.variable)}?provider=${segment(override.source)}`);
    await loadFlags();
  } catch (failure) {
    error.textContent = failure.message;
  }
}

async function explain(tweak, details) {
  try {
    const lookup = await api('GET', `/v1/tweaks/${segment(tweak.feature)}/${segment(tweak.variable)}`);
    const passed = lookup.misses.map((miss) => `${miss.provider}: ${miss.message || 'does not have it'}`);
    details.textContent = `Answered by ${lookup.source}.` + (passed.length ? ` Passed above it: ${passed.join('; ')}.` : ' No provider above it.');
  } catch (error) {
    details.textContent = error.message;
  }
  details.hidden = false;
}

async function deleteAllOverrides() {
  if (!confirm('Remove every override of the active container?')) return;
  try {
    await api('DELETE', '/v1/tweaks/overrides');
  } catch (error) {
    show('flags-message', error.message);
  }
  await loadFlags();
}

// MARK: State

async function loadState() {
  try {
    const { state } = await api('GET', '/v1/state');
    document.querySelector('#state-table tbody').replaceChildren(...state.map((entry) =>
      element('tr', { 'data-key': entry.key },
        element('td', {}, entry.key),
        element('td', {}, entry.kind),
        element('td', {}, entry.error ? `(${entry.error})` : entry.kind === 'secure' ? '••••••' : JSON.stringify(entry.value)))));
    show('state-message', '');
  } catch (error) {
    show('state-message', error.message);
  }
}

// MARK: Scenarios

let scenarioEvents = null;

async function loadScenarios() {
  let listing;
  try {
    listing = await api('GET', '/v1/scenarios');
  } catch (error) {
    show('scenarios-message', error.status === 404
      ? 'This panel offers no scenarios: start it with envscript ui --scenarios DIR (or from a folder holding scenarios/).'
      : error.message);
    document.getElementById('run-all-scenarios').disabled = true;
    return;
  }
  show('scenarios-message', '');
  show('scenario-folder', `Files of ${listing.folder}; each run gets a fresh temporary home.`);
  document.getElementById('scenario-files').replaceChildren(...listing.files.map((file) =>
    element('li', { 'data-file': file }, file, ' ',
      element('button', { type: 'button', 'aria-label': `Run ${file}`, onclick: () => runScenarios([file]) }, 'Run'))));
  document.getElementById('run-all-scenarios').disabled = listing.files.length === 0;
  renderRun(listing.run);
  // Results arrive through their own stream, opened once the panel is known to offer scenarios.
  if (!scenarioEvents) {
    scenarioEvents = new EventSource('/v1/scenarios/events');
    scenarioEvents.addEventListener('run', (event) => renderRun(JSON.parse(event.data).run));
    scenarioEvents.addEventListener('result', (event) => {
      const { run, result } = JSON.parse(event.data);
      if (shownRun && run === shownRun.id) {
        shownRun.results.push(result);
        renderRun(shownRun);
      }
    });
  }
}

let shownRun = null;

/** Shows a whole run: its status line and every result so far. */
function renderRun(run) {
  shownRun = run;
  document.querySelector('#scenario-results tbody').replaceChildren();
  if (!run) { show('scenario-run-status', 'No run yet.'); return; }
  for (const result of run.results) appendResult(result);
  const status = document.getElementById('scenario-run-status');
  status.dataset.phase = run.phase;
  if (run.phase === 'running') {
    // How many tests a run has is known only at its end (a block's tests are declared when the run
    // reaches its body, as in busted): the count so far.
    status.textContent = `Run ${run.id} of ${run.files.join(', ')}: running, ${run.results.length} done…`;
  } else if (run.phase === 'finished') {
    status.textContent = `Run ${run.id}: ${run.summary.line}`;
  } else {
    status.textContent = `Run ${run.id} failed: ${run.error}`;
  }
  document.getElementById('run-all-scenarios').disabled = run.phase === 'running';
}

function appendResult(result) {
  const body = document.querySelector('#scenario-results tbody');
  const outcome = element('td', { class: `outcome-${result.outcome}` }, result.outcome);
  if (result.message) outcome.append(element('pre', { class: 'failure' }, result.message));
  body.append(element('tr', { 'data-outcome': result.outcome, 'data-name': result.name },
    element('td', {}, result.name), element('td', {}, result.file), outcome,
    element('td', {}, `${result.duration_ms.toFixed(1)} ms`)));
}

async function runScenarios(files) {
  show('scenarios-message', '');
  try {
    await api('POST', '/v1/scenarios/runs', { files });
  } catch (error) {
    show('scenarios-message', error.message);
  }
}

// MARK: Live updates

/** Says whose data the page shows: an application's (the panel's own, or the one attached to the home) or the home's. */
async function loadShown() {
  try {
    const { home, shows } = await api('GET', '/v1/panel');
    const text = shows.kind === 'application'
      ? `${shows.program || shows.app_id} (pid ${shows.pid})`
      : 'the home (no application attached)';
    const label = document.getElementById('shows');
    label.textContent = text;
    label.title = home;
    label.dataset.kind = shows.kind;
  } catch (error) {
    show('shows', error.message);
  }
}

/** Asks the application shown (or the panel's own host) to run its start-up scripts again; shows what
 * they put in force, or why it kept its scripts (file, line and message). */
async function reloadScripts() {
  const outcome = document.getElementById('reload-outcome');
  outcome.dataset.outcome = 'pending';
  outcome.textContent = 'reloading…';
  try {
    const report = await api('POST', '/v1/reload');
    outcome.dataset.outcome = 'reloaded';
    const scripts = report.scripts.length === 1 ? '1 start-up script' : `${report.scripts.length} start-up scripts`;
    outcome.textContent = `Reloaded ${scripts} in ${report.milliseconds.toFixed(1)} ms; providers: ${report.providers.join(', ')}`;
  } catch (error) {
    outcome.dataset.outcome = 'kept';
    outcome.textContent = error.message;
  }
  loaders[currentPage()]();
}

function connectEvents() {
  const live = document.getElementById('live');
  const source = new EventSource('/v1/events');
  let connections = 0;
  source.addEventListener('ready', () => {
    live.textContent = 'live';
    // A stream that starts again may come from another application (it came, or left): read all anew.
    connections += 1;
    if (connections > 1) { loadShown(); loaders[currentPage()](); }
  });
  source.addEventListener('container', () => { loaders[currentPage()](); });
  source.addEventListener('containers', () => { if (currentPage() === 'containers') loadContainers(); });
  source.addEventListener('tweak', () => { if (currentPage() === 'flags') loadFlags(); });
  source.addEventListener('state', () => { if (currentPage() === 'state') loadState(); });
  source.onerror = () => { live.textContent = 'reconnecting…'; };
}

document.addEventListener('DOMContentLoaded', () => {
  document.getElementById('create-form').addEventListener('submit', submitCreate);
  document.getElementById('row-form').addEventListener('submit', submitRowForm);
  document.getElementById('import-form').addEventListener('submit', submitImport);
  document.getElementById('diff-form').addEventListener('submit', submitDiff);
  document.getElementById('diff-close').addEventListener('click', () => { document.getElementById('container-diff').hidden = true; });
  document.getElementById('row-form-cancel').addEventListener('click', closeRowForm);
  document.getElementById('flag-search').addEventListener('input', renderFlags);
  document.getElementById('flag-context-form').addEventListener('submit', applyFlagContext);
  document.getElementById('remove-all-overrides').addEventListener('click', deleteAllOverrides);
  document.getElementById('run-all-scenarios').addEventListener('click', () => runScenarios([]));
  document.getElementById('reload-scripts').addEventListener('click', reloadScripts);
  document.getElementById('container-info-close').addEventListener('click', () => { document.getElementById('container-info').hidden = true; });
  window.addEventListener('hashchange', showPage);
  loadShown();
  showPage();
  connectEvents();
});
