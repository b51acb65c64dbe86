// grotto's replay page: plays a finished game back with xterm.js from what
// its WebSocket sends (binary messages: terminal output). It sends the
// terminal's size (text {"cols":N,"rows":N}) and the replay's keys only
// (text {"key":"space"}): space, + and -, . and →, >, G and End, q, ↑ and ↓, ?.
// window.grottoTerm is the Terminal, for tests.
(function () {
  'use strict';
  var el = document.getElementById('term');
  var status = document.getElementById('status');
  var term = new Terminal({ cursorBlink: false, scrollback: 0,
    fontFamily: 'ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace', fontSize: 15,
    theme: { background: '#000000' } });
  var fit = new FitAddon.FitAddon();
  term.loadAddon(fit);
  term.open(el);
  fit.fit();
  term.focus();
  window.grottoTerm = term;
  var proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  var ws = new WebSocket(proto + '//' + location.host + el.dataset.ws + '?cols=' + term.cols + '&rows=' + term.rows);
  ws.binaryType = 'arraybuffer';
  ws.onopen = function () { status.textContent = 'playing'; };
  ws.onmessage = function (e) {
    if (e.data instanceof ArrayBuffer) { term.write(new Uint8Array(e.data)); }
  };
  ws.onclose = function (e) {
    status.textContent = e.reason || 'The connection closed. Reload the page to play the replay again.';
    document.body.dataset.closed = String(e.code);
  };
  var keys = { ' ': 'space', '+': '+', '=': '+', '-': '-', '.': '.', '\x1b[C': 'right', '>': '>',
    'G': 'G', '\x1b[F': 'end', '\x1b[4~': 'end', '\x1bOF': 'end', 'q': 'q', '\x1b[A': 'up', '\x1b[B': 'down', '?': '?' };
  term.onData(function (data) {
    var key = keys[data];
    if (key && ws.readyState === WebSocket.OPEN) { ws.send(JSON.stringify({ key: key })); }
  });
  term.onResize(function (size) {
    if (ws.readyState === WebSocket.OPEN) { ws.send(JSON.stringify({ cols: size.cols, rows: size.rows })); }
  });
  var pending;
  window.addEventListener('resize', function () {
    clearTimeout(pending);
    pending = setTimeout(function () { fit.fit(); }, 100);
  });
})();
