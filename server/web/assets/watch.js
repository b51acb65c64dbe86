// grotto's watch and play pages: draws a live game with xterm.js from the
// frames its WebSocket sends (binary messages: terminal output), and tells
// the server the terminal's size (text messages: {"cols":N,"rows":N}) as
// the window changes. A watch page is read-only: no key is sent. A play
// page (data-play="1") sends what the player types as binary messages
// (UTF-8, as xterm.js's onData gives it, a long paste split into messages
// of at most 4096 bytes). window.grottoTerm is the
// Terminal, for tests. A watch page also shows the game's chat, which
// comes on the same socket as text messages ({"chat":{lines, canSay,
// hint, muted, said}}), drawn as text (textContent, never HTML); a page whose
// browser is tied to a key sends its lines as {"say":"…"}.
(function () {
  'use strict';
  var el = document.getElementById('term');
  var status = document.getElementById('status');
  var play = el.dataset.play === '1';
  var term = new Terminal({ disableStdin: !play, cursorBlink: false, scrollback: 0,
    fontFamily: 'ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace', fontSize: 15,
    theme: { background: '#000000' } });
  var fit = new FitAddon.FitAddon();
  term.loadAddon(fit);
  term.open(el);
  fit.fit();
  window.grottoTerm = term;
  var proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  var ws = new WebSocket(proto + '//' + location.host + el.dataset.ws + '?cols=' + term.cols + '&rows=' + term.rows);
  ws.binaryType = 'arraybuffer';
  ws.onopen = function () { status.textContent = play ? 'connected' : 'live'; };
  if (play) {
    var utf8 = new TextEncoder();
    // A paste comes as one onData; the server takes messages of at most
    // 16 KiB (web.MaxPlayMessage), so keys go in messages of at most
    // maxKeys bytes (web.MaxPaste), which the server reads as one stream.
    var maxKeys = 4096;
    term.onData(function (data) {
      if (ws.readyState !== WebSocket.OPEN) { return; }
      var bytes = utf8.encode(data);
      for (var i = 0; i < bytes.length; i += maxKeys) { ws.send(bytes.subarray(i, i + maxKeys)); }
    });
    term.focus();
  }
  var chat = document.getElementById('chat');
  function showChat(m) {
    chat.hidden = false;
    if (m.lines) {
      var list = document.getElementById('chat-lines');
      var atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
      list.textContent = '';
      m.lines.forEach(function (l) {
        var li = document.createElement('li');
        var who = document.createElement('span');
        who.className = 'who';
        who.textContent = '<' + l.name + (l.player ? '*' : '') + '> ';
        li.appendChild(who);
        li.appendChild(document.createTextNode(l.text));
        list.appendChild(li);
      });
      if (atEnd) { list.scrollTop = list.scrollHeight; }
    }
    if (m.canSay !== undefined) { document.getElementById('chat-form').hidden = !m.canSay; }
    if (m.hint) {
      var hint = document.getElementById('chat-hint');
      hint.textContent = m.hint;
      hint.hidden = false;
    }
    if (m.muted !== undefined) {
      document.getElementById('chat-muted').hidden = !m.muted;
      document.getElementById('chat-text').disabled = m.muted;
    }
    var said = document.getElementById('chat-said');
    said.textContent = m.said || '';
    said.hidden = !m.said;
  }
  if (chat) {
    document.getElementById('chat-form').addEventListener('submit', function (e) {
      e.preventDefault();
      var input = document.getElementById('chat-text');
      if (input.value.trim() !== '' && ws.readyState === WebSocket.OPEN) {
        ws.send(JSON.stringify({ say: input.value }));
        input.value = '';
      }
    });
  }
  ws.onmessage = function (e) {
    if (e.data instanceof ArrayBuffer) { term.write(new Uint8Array(e.data)); return; }
    if (!chat) { return; }
    try { var m = JSON.parse(e.data); } catch (err) { return; }
    if (m && m.chat) { showChat(m.chat); }
  };
  ws.onclose = function (e) {
    status.textContent = e.reason || (play ? 'The connection closed. Reload the page to play on.' : 'The connection closed. Reload the page to watch again.');
    document.body.dataset.closed = String(e.code);
  };
  term.onResize(function (size) {
    if (ws.readyState === WebSocket.OPEN) { ws.send(JSON.stringify({ cols: size.cols, rows: size.rows })); }
  });
  var pending;
  function refit() {
    clearTimeout(pending);
    pending = setTimeout(function () { fit.fit(); }, 100);
  }
  window.addEventListener('resize', refit);
  // The terminal's box also shrinks when the chat appears under it (or its
  // form shows): fit it again then, or it draws over the chat.
  if (window.ResizeObserver) { new ResizeObserver(refit).observe(el); }
})();
