// mcp-panel.js — the MCP tab: the same page, seen by a stock MCP client.
//
// The module serves its resources over window.postMessage when its script tag
// has data-mcp (index.html). This tab connects to that server the way any MCP
// client in the page (or a browser extension's content script) would: the
// TypeScript SDK's Client over @mcp-b/transports' TabClientTransport, loaded
// from /vendor/mcpclient.js (bundled by `make mcpclient`, served by
// `serve -vendor testdata/out`). It speaks only MCP, never document.modelContext:
//
//   initialize                      on connect (the SDK's handshake)
//   resources/list                  the resources (every page, by nextCursor)
//   resources/templates/list        the URI templates
//   resources/subscribe             every listed resource
//   resources/read                  the Read buttons
//   completion/complete             a template's boxes, as they are typed
//   notifications/resources/updated logged as they arrive: a uri, no value
//   notifications/resources/list_changed  → list again, subscribe to new ones
//
// The one look across the fence is a count of the page's own resourceupdated
// events per uri since this client subscribed to it, shown next to the MCP
// count, so it is plain that both tabs see the same pushes.
'use strict';

{
  const CHANNEL = 'mcp-default'; // data-mcp without a value
  const CLIENT_SRC = '/vendor/mcpclient.js';
  const TIMEOUT_MS = 10000;

  const P = globalThis.AgentPanel; // panel-common.js
  const { $, el } = P;
  const mc = document.modelContext;
  const panel = $('#panel-mcp');
  const statusEl = $('#mcp-status');
  const routeEl = $('#mcp-route');
  const listEl = $('#mcp-resource-list');
  const tplEl = $('#mcp-template-list');
  const logEl = $('#mcp-log');

  function setStatus(state, text) {
    statusEl.dataset.state = state;
    statusEl.textContent = text;
    panel.dataset.state = state;
  }

  // unavailable says why there is nothing to show, and hides the (empty)
  // resource and notification sections.
  function unavailable(text) {
    setStatus('error', '');
    // Commands and paths as code, so they read (and copy) as one piece.
    const msg = el('span');
    for (const [i, part] of text.split(/(make \w+|-vendor \S+|\/vendor\/mcpclient\.js)/).entries()) {
      if (part) msg.append(i % 2 ? el('code', null, part) : part);
    }
    statusEl.append(msg);
    for (const section of panel.querySelectorAll('.agent-section')) section.hidden = true;
  }

  const message = (err) => (err && err.message ? err.message : String(err));

  // describe renders an MCP error the way the protocol reports it.
  function describe(err) {
    if (err && typeof err.code === 'number') return `MCP error ${err.code}: ${message(err).replace(/^MCP error -?\d+: /, '')}`;
    return message(err);
  }

  // ---- loading the client ----------------------------------------------------

  function loadClient() {
    if (globalThis.mcpTest) return Promise.resolve(globalThis.mcpTest);
    return new Promise((resolve, reject) => {
      const s = document.createElement('script');
      s.src = CLIENT_SRC;
      s.async = true;
      s.onload = () => (globalThis.mcpTest ? resolve(globalThis.mcpTest)
        : reject(new Error(`${CLIENT_SRC} loaded but defined no MCP client`)));
      s.onerror = () => reject(new Error(`The MCP client (${CLIENT_SRC}) did not load. Run make mcpclient, and serve the demo with -vendor testdata/out (make demo does both).`));
      document.head.append(s);
    });
  }

  // ---- counts ----------------------------------------------------------------

  const updated = new Map(); // uri -> notifications/resources/updated received
  // uri -> the page's resourceupdated events since resources/subscribe was
  // sent for it (a push before that cannot reach any MCP client).
  const pagePushes = new Map();
  const totalUpdated = P.total('#mcp-total-updated', '#tab-count-mcp b');
  const totalListChanged = P.total('#mcp-total-listchanged');

  if (mc && typeof mc.addEventListener === 'function') {
    mc.addEventListener('resourceupdated', (e) => {
      const uri = e.detail.uri;
      if (!pagePushes.has(uri)) return;
      pagePushes.set(uri, pagePushes.get(uri) + 1);
      renderCounts(uri);
    });
  }

  const itemFor = (uri) => P.itemFor(listEl, uri);

  function renderCounts(uri) {
    const li = itemFor(uri);
    if (!li) return;
    const n = updated.get(uri) || 0;
    $('[data-stat="updated"]', li).textContent = String(n);
    $('[data-stat="page"]', li).textContent = String(pagePushes.get(uri) || 0);
    li.dataset.updated = String(n);
  }

  // ---- resource cards --------------------------------------------------------

  // readOut is the (hidden) box a Read shows the contents in; Hide returns the
  // focus to back.
  function readOut(what, back) {
    return P.readOut(what, 'contents', back, el('div', 'res-contents'));
  }

  function createItem(uri) {
    const badge = el('span', 'badge', 'subscribing');
    badge.dataset.kind = 'pending';
    const li = P.resourceItem(uri, {
      badge,
      stats: [
        P.stat('stat', 'notifications/resources/updated received for this uri',
          el('span', 'dot dot-sent'), P.statCount('updated'), ' updated'),
        P.stat('stat stat-page', 'Pushes the Page tab saw for this uri (resourceupdated) since this client subscribed to it',
          'page tab ', P.statCount('page')),
      ],
      readLabel: `Read ${uri} (resources/read)`,
      read: readInto,
      readOut,
    });
    li.dataset.subscribed = 'pending';
    return li;
  }

  function setSubscribed(li, state, why) {
    li.dataset.subscribed = state;
    const badge = $('.badge', li);
    badge.dataset.kind = state === 'yes' ? 'live' : state === 'error' ? 'error' : 'pending';
    badge.textContent = state === 'yes' ? 'subscribed' : state === 'error' ? 'not subscribed' : 'subscribing';
    badge.title = state === 'yes' ? 'resources/subscribe answered: changes arrive as notifications/resources/updated'
      : state === 'error' ? `resources/subscribe failed: ${why}` : 'resources/subscribe sent';
  }

  function createTemplateItem(tpl) {
    return P.templateItem(tpl, {
      badgeTitle: 'Read on demand: a template cannot be subscribed to',
      formLabel: `Read an instance of ${tpl} (resources/read)`,
      readOut,
      invalid: (out, text) => showContents(out, text, null, 'error'),
      read: readInto,
      complete: (uri, name, value, args) => client
        .complete({ ref: { type: 'ref/resource', uri }, argument: { name, value }, context: { arguments: args } })
        .then((r) => r.completion.values),
    });
  }

  // ---- reading ---------------------------------------------------------------

  let client = null;
  let connected = ''; // the status line's start once connected

  function pretty(text, mimeType) {
    if (!/json/i.test(mimeType || '')) return text;
    try {
      return JSON.stringify(JSON.parse(text), null, 2);
    } catch (_) {
      return text;
    }
  }

  // showContents fills a read-out box: a header line, then one block per
  // entry of contents[] saying whether it came as text or as a base64 blob.
  function showContents(out, head, contents, state, errorText) {
    out.hidden = false;
    $('.res-read-time', out).textContent = head;
    const body = $('.res-contents', out);
    body.textContent = '';
    body.dataset.state = state;
    if (errorText) {
      const pre = el('pre', 'res-value', errorText);
      pre.dataset.state = 'error';
      pre.tabIndex = 0;
      body.append(pre);
    }
    for (const c of contents || []) {
      const isBlob = typeof c.blob === 'string';
      const kind = el('div', 'res-content-kind');
      const size = isBlob ? `${Math.floor((c.blob.length * 3) / 4)} bytes, base64` : `${c.text.length} chars`;
      kind.append(el('span', `content-tag content-${isBlob ? 'blob' : 'text'}`, isBlob ? 'blob' : 'text'),
        ` ${c.mimeType || 'no mimeType'} · ${size}`);
      const pre = el('pre', 'res-value', isBlob ? c.blob : pretty(c.text, c.mimeType));
      pre.dataset.kind = isBlob ? 'blob' : 'text';
      pre.dataset.mimeType = c.mimeType || '';
      pre.dataset.state = 'ok';
      pre.tabIndex = 0;
      pre.setAttribute('aria-label', `Contents of ${c.uri}`);
      body.append(kind, pre);
    }
  }

  // readInto reads uri with resources/read and shows its contents in li's
  // read-out box.
  function readInto(uri, li) {
    P.readInto(uri, li, {
      busy: 'resources/read…',
      call: 'resources/read',
      read: (_, out) => {
        if (client) return client.readResource({ uri }, { timeout: TIMEOUT_MS }).then(({ contents }) => contents);
        showContents(out, 'Not connected', null, 'error', 'The MCP client is not connected.');
        return null;
      },
      show: (out, head, result, state) => showContents(out, head,
        state === 'ok' ? result : null, state, state === 'error' ? describe(result) : undefined),
    });
  }

  // ---- the notification log --------------------------------------------------

  // logRow adds a notification to the log: its time, what it names, and
  // its params exactly as they arrived (for updated: the uri, and no value).
  function logRow(kind, params, note) {
    const li = el('li', `push mcp-row mcp-${kind}`);
    li.dataset.kind = kind;
    const uri = params && params.uri;
    if (uri) li.dataset.uri = uri;
    const t = P.logTime();
    const dot = P.logDot(kind === 'updated' ? 'dot-sent' : 'dot-list');
    const where = el('span', 'push-where');
    if (uri) where.append(el('code', 'push-uri', uri));
    else where.append(el('span', 'mcp-method', 'list_changed'));
    if (note) where.append(el('span', 'push-changed', ` · ${note}`));
    const method = `notifications/resources/${kind}`;
    const wire = el('span', 'push-value mcp-params');
    wire.append(el('span', 'mcp-method', kind === 'updated' ? 'updated ' : 'list_changed '),
      params ? JSON.stringify(params) : '(no params)');
    li.append(dot, t, where, wire);
    li.title = `${method} ${params ? JSON.stringify(params) : ''}`.trim();
    P.addRow(logEl, li, $('#mcp-empty'));
    return li;
  }

  function onUpdated(uri) {
    updated.set(uri, (updated.get(uri) || 0) + 1);
    totalUpdated.add();
    logRow('updated', { uri });
    renderCounts(uri);
    const li = itemFor(uri);
    if (li) P.flash(li, 'flash-sent');
  }

  // ---- listing and subscribing -----------------------------------------------

  const subscribed = new Set();
  let listing = null;
  let again = false;

  // relist lists resources and templates and brings the subscriptions in
  // line: subscribe to new uris, unsubscribe from vanished ones. Calls that
  // arrive while it runs fold into one more round.
  function relist() {
    if (listing) {
      again = true;
      return listing;
    }
    panel.dataset.listing = 'busy';
    listing = (async () => {
      do {
        again = false;
        await listOnce();
      } while (again);
    })().catch((err) => {
      connected = '';
      setStatus('error', `Listing failed: ${describe(err)}`);
    }).finally(() => {
      listing = null;
      if (client && connected) {
        setStatus('ready', `${connected} · ${subscribed.size} subscription${subscribed.size === 1 ? '' : 's'}`);
      }
      panel.dataset.listing = 'idle';
    });
    return listing;
  }

  async function listAll(method, key) {
    const out = [];
    let cursor;
    do {
      const page = await client[method](cursor === undefined ? undefined : { cursor }, { timeout: TIMEOUT_MS });
      out.push(...page[key]);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return out;
  }

  async function listOnce() {
    const resources = await listAll('listResources', 'resources');
    const templates = await listAll('listResourceTemplates', 'resourceTemplates');
    P.keyed(listEl, resources, 'uri', createItem, (li, r) => {
      P.describeItem(li, r);
      renderCounts(r.uri);
    });
    P.keyed(tplEl, templates, 'uriTemplate', createTemplateItem, P.describeItem);
    $('#mcp-resource-count').textContent = String(resources.length);
    $('#mcp-template-count').textContent = String(templates.length);

    const now = new Set(resources.map((r) => r.uri));
    const jobs = [];
    for (const uri of now) {
      if (subscribed.has(uri)) {
        setSubscribed(itemFor(uri), 'yes');
        continue;
      }
      if (!pagePushes.has(uri)) pagePushes.set(uri, 0);
      jobs.push(client.subscribeResource({ uri }, { timeout: TIMEOUT_MS }).then(
        () => { subscribed.add(uri); const li = itemFor(uri); if (li) setSubscribed(li, 'yes'); },
        (err) => { const li = itemFor(uri); if (li) setSubscribed(li, 'error', describe(err)); },
      ));
    }
    for (const uri of subscribed) {
      if (now.has(uri)) continue;
      subscribed.delete(uri);
      pagePushes.delete(uri);
      updated.delete(uri);
      jobs.push(client.unsubscribeResource({ uri }, { timeout: TIMEOUT_MS }).catch(() => {}));
    }
    await Promise.all(jobs);
    return { resources: resources.length, templates: templates.length };
  }

  // ---- connecting ------------------------------------------------------------

  async function start() {
    if (!mc || typeof mc.serveMCP !== 'function') {
      unavailable('No MCP server: modelcontext.js did not load (run make build).');
      return;
    }
    let lib;
    try {
      lib = await loadClient();
    } catch (err) {
      unavailable(message(err));
      return;
    }
    try {
      await mc.ready;
    } catch (err) {
      unavailable(`No MCP server: the module failed to start (${message(err)}).`);
      return;
    }

    setStatus('loading', `Connecting to channel "${CHANNEL}"…`);
    const { Client, TabClientTransport, sdk, versions } = lib;
    const c = new Client({ name: 'fernhill-agent-panel', version: '1.0.0' });
    c.setNotificationHandler(sdk.ResourceUpdatedNotificationSchema, (n) => onUpdated(n.params.uri));
    // The SDK hands the handler the notification as it validated it.
    c.setNotificationHandler(sdk.ResourceListChangedNotificationSchema, async () => {
      totalListChanged.add();
      const row = logRow('list_changed', null, 'listing again…');
      await relist();
      $('.push-changed', row).textContent =
        ` · listed again: ${listEl.children.length} resources, ${tplEl.children.length} template${tplEl.children.length === 1 ? '' : 's'}`;
    });
    c.onclose = () => {
      client = null;
      setStatus('error', 'Disconnected: the MCP server stopped (mcp-server-stopped).');
    };

    const transport = new TabClientTransport({ targetOrigin: location.origin, channelId: CHANNEL });
    // The SDK hands the negotiated protocol version to transports that take it.
    let protocol = '';
    transport.setProtocolVersion = (v) => { protocol = v; };
    try {
      await c.connect(transport, { timeout: TIMEOUT_MS });
    } catch (err) {
      unavailable(`No MCP server answered on channel "${CHANNEL}": ${describe(err)}`);
      return;
    }
    client = c;
    const server = c.getServerVersion() || {};
    routeEl.hidden = false;
    routeEl.textContent = '';
    const hop = (label, value, detail, title) => {
      const d = el('div', 'route-hop');
      d.title = title;
      d.append(el('span', 'route-label', label), el('span', 'route-value', value), el('span', 'route-detail', detail));
      return d;
    };
    routeEl.append(
      hop('Client', 'SDK Client', `v${versions['@modelcontextprotocol/sdk']}`, `@modelcontextprotocol/sdk ${versions['@modelcontextprotocol/sdk']}: Client`),
      hop('Transport', 'postMessage', CHANNEL, `@mcp-b/transports ${versions['@mcp-b/transports']}: TabClientTransport on window.postMessage, channel "${CHANNEL}"`),
      hop('Server', server.name || '?', server.version ? `v${server.version}` : '', 'The module\'s MCP server (data-mcp on its script tag)'),
    );
    connected = `Connected · protocol ${protocol || '?'}`;
    setStatus('loading', `${connected} · listing resources…`);
    await relist();
  }

  start().catch((err) => setStatus('error', `MCP tab failed: ${message(err)}`));
}
