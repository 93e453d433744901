// The module's tag for busy.html, with data-declarative when the page's
// query has declarative=1.
(function () {
  const on = new URLSearchParams(location.search).get('declarative') === '1';
  document.write('<script src="/static/modelcontext.js"' + (on ? ' data-declarative' : '') + '><\/script>');
})();
