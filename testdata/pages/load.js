// Writes the script tag(s) for the implementation under test, chosen by the
// page's query string (no inline script, so it also works under a strict
// Content-Security-Policy):
//
//   impl=ref|wasm       the reference (/reference/) or the module (/static/)
//   build=test          with impl=wasm, the module's test build (/teststatic/,
//                       make build-test), for the tests that use its hooks
//   debug=1             data-debug on the tag
//   boot=MODE           data-boot="MODE" on the tag (lazy, eager, idle)
//   mcp=1               data-mcp on the tag
//   wasm=URL            data-wasm="URL" on the tag
//   twice=1             the tag twice, with /between.js registering a resource in between
//   existing=own        define document.modelContext (an EventTarget with registerTool) first
//   existing=accessor   the same object, returned by a getter on Document.prototype
//   existing=plain      a plain object (no EventTarget) with registerTool
//   early=1             /early.js right after the tag: calls before `ready`
(function () {
  'use strict';
  const q = new URLSearchParams(location.search);
  const impl = q.get('impl') || 'ref';
  const src = impl !== 'wasm' ? '/reference/modelcontext.js'
    : q.get('build') === 'test' ? '/teststatic/modelcontext.js' : '/static/modelcontext.js';
  window.__implSrc = src;
  window.__impl = impl;

  const existing = q.get('existing');
  if (existing) {
    const tools = [];
    const obj = existing === 'plain' ? {} : new EventTarget();
    window.__tools = {};
    obj.registerTool = function (tool) {
      tools.push(tool.name);
      window.__tools[tool.name] = tool;
      return { unregister() { tools.splice(tools.indexOf(tool.name), 1); delete window.__tools[tool.name]; } };
    };
    obj.listTools = () => tools.slice();
    obj.__existingMarker = 'existing';
    window.__existing = obj;
    window.__existingOwnKeys = Reflect.ownKeys(obj).map(String);
    window.__existingRegisterTool = obj.registerTool;
    if (existing === 'accessor') {
      Object.defineProperty(Document.prototype, 'modelContext', {
        configurable: true, enumerable: true, get() { return obj; },
      });
    } else {
      Object.defineProperty(document, 'modelContext', {
        configurable: true, enumerable: true, writable: true, value: obj,
      });
    }
  }

  const attrs = [];
  if (q.has('debug')) attrs.push('data-debug');
  if (q.has('wasm')) attrs.push('data-wasm="' + q.get('wasm').replace(/"/g, '&quot;') + '"');
  if (q.has('boot')) attrs.push('data-boot="' + q.get('boot').replace(/"/g, '&quot;') + '"');
  if (q.has('mcp')) attrs.push('data-mcp');
  const tag = '<script src="' + src + '" ' + attrs.join(' ') + '></' + 'script>';
  document.write(tag);
  if (q.has('twice')) document.write('<script src="/between.js"></' + 'script>' + tag);
  if (q.has('early')) document.write('<script src="/early.js"></' + 'script>');
})();
