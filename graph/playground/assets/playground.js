// Switchyard: mounts the vendored GraphiQL on #graphiql. The page's options
// (endpoint, prefilled headers, default query, style nonce) arrive in the
// element's data attributes, since the Content-Security-Policy allows no
// inline script.
//
// A dashboard user signs in with the small form above the editor: it runs
// the signIn mutation and mounts GraphiQL again with the session in the
// header editor (Authorization: Bearer <token>). The token lives in this
// page only, never in the browser's storage.
(function () {
  'use strict';
  var page = document.getElementById('graphiql');
  var opts = page.dataset;
  // GraphiQL's dialogs inject <style> elements; they carry this nonce so
  // that the policy admits them.
  window.__webpack_nonce__ = opts.nonce;
  var endpoint = new URL(opts.endpoint, window.location.href).toString();
  // Subscriptions go over a websocket to the same endpoint; the header
  // editor's headers (a key or a session) travel in connection_init.
  var socket = new URL(endpoint);
  socket.protocol = socket.protocol === 'https:' ? 'wss:' : 'ws:';
  var fetcher = GraphiQL.createFetcher({ url: endpoint, subscriptionUrl: socket.toString() });

  var bar = document.createElement('form');
  bar.id = 'signin';
  bar.className = 'playground-signin';
  bar.innerHTML =
    '<span>Dashboard user:</span>' +
    '<input id="signin-email" type="email" placeholder="email" autocomplete="username" required>' +
    '<input id="signin-password" type="password" placeholder="password" autocomplete="current-password" required>' +
    '<button id="signin-submit" type="submit">Sign in</button>' +
    '<span id="signin-status" role="status"></span>';
  var editor = document.createElement('div');
  editor.className = 'playground-editor';
  page.textContent = '';
  page.appendChild(bar);
  page.appendChild(editor);
  var root = ReactDOM.createRoot(editor);

  var mounts = 0;
  function mount(headers) {
    var props = {
      key: 'graphiql-' + mounts++, // a new key mounts afresh, with these headers
      fetcher: fetcher,
      defaultQuery: opts.query,
      // The headers (a key or a session) are not kept in the browser's storage.
      shouldPersistHeaders: false,
    };
    if (headers) {
      props.headers = headers;
      props.defaultEditorToolsVisibility = 'headers';
    }
    root.render(React.createElement(GraphiQL, props));
  }
  mount(opts.headers);

  var status = bar.querySelector('#signin-status');
  bar.addEventListener('submit', function (ev) {
    ev.preventDefault();
    status.textContent = 'signing in…';
    fetch(endpoint, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        query: 'mutation SignIn($email: String!, $password: String!) { signIn(email: $email, password: $password) { token merchantID role } }',
        variables: {
          email: bar.querySelector('#signin-email').value,
          password: bar.querySelector('#signin-password').value,
        },
      }),
    })
      .then(function (resp) { return resp.json(); })
      .then(function (body) {
        var s = body.data && body.data.signIn;
        if (!s) {
          status.textContent = (body.errors && body.errors[0] && body.errors[0].message) || 'sign-in failed';
          return;
        }
        bar.querySelector('#signin-password').value = '';
        status.textContent = 'signed in: ' + s.role.toLowerCase() + ' of ' + s.merchantID;
        mount(JSON.stringify({ Authorization: 'Bearer ' + s.token }, null, 2));
      })
      .catch(function (err) { status.textContent = 'sign-in failed: ' + err; });
  });
})();
