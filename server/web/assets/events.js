// The front page's live events: every 5 s (web.EventsPoll) ask
// /events/recent.json for the newest rows and redraw the list. Rows are
// text only (textContent), never HTML.
"use strict";
(function () {
  const list = document.getElementById("events");
  if (!list) return;
  const poll = 5000;
  async function refresh() {
    try {
      const resp = await fetch("/events/recent.json", { cache: "no-store" });
      if (!resp.ok) return;
      const rows = await resp.json();
      const items = rows.map(function (row) {
        const li = document.createElement("li");
        const time = document.createElement("span");
        time.className = "dim";
        time.textContent = row.time + " UTC ";
        li.append(time, document.createTextNode(row.text));
        return li;
      });
      list.replaceChildren.apply(list, items);
      const none = document.getElementById("events-none");
      if (none) none.hidden = rows.length > 0;
    } catch (e) {
      // the server is away for a moment: try again at the next poll
    }
  }
  setInterval(refresh, poll);
})();
