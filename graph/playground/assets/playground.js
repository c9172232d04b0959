// Switchyard: mounts the vendored GraphiQL on #graphiql. The page's options
// (endpoint, prefilled headers, default query, style nonce) arrive in the
// element's data attributes, since the Content-Security-Policy allows no
// inline script.
(function () {
  'use strict';
  var root = document.getElementById('graphiql');
  var opts = root.dataset;
  // GraphiQL's dialogs inject <style> elements; they carry this nonce so
  // that the policy admits them.
  window.__webpack_nonce__ = opts.nonce;
  var fetcher = GraphiQL.createFetcher({
    url: new URL(opts.endpoint, window.location.href).toString(),
  });
  var props = {
    fetcher: fetcher,
    defaultQuery: opts.query,
    // The headers (an API key) are not kept in the browser's storage.
    shouldPersistHeaders: false,
  };
  if (opts.headers) {
    props.headers = opts.headers;
    props.defaultEditorToolsVisibility = 'headers';
  }
  ReactDOM.createRoot(root).render(React.createElement(GraphiQL, props));
})();
