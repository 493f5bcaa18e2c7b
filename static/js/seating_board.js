/* The wall's seating board ("where do I sit"): every few seconds it asks the board's version
 * (a digest of the latest round's seats, byes and status); when it moved, it fetches the page
 * again and swaps the board in place, so the screen never goes blank and nobody has to touch
 * it. A network hiccup keeps the last board and tries again on the next tick. */
(function () {
  "use strict";
  var wall = document.querySelector("[data-seating-board]");
  if (!wall || !window.fetch || !window.DOMParser) { return; }
  var url = wall.getAttribute("data-version-url");
  var every = Math.max(2, parseInt(wall.getAttribute("data-poll-seconds"), 10) || 5) * 1000;
  var busy = false;

  function board() { return document.getElementById("seating-board"); }

  function get(address, asJson) {
    return fetch(address, { headers: { "X-Requested-With": "fetch" }, cache: "no-store",
                            credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) { throw new Error("HTTP " + response.status); }
        return asJson ? response.json() : response.text();
      });
  }

  function poll() {
    var shown = board();
    if (busy || document.hidden || !shown) { return; }
    busy = true;
    get(url, true).then(function (answer) {
      if (!answer || String(answer.version) === shown.getAttribute("data-version")) { return null; }
      return get(window.location.href, false).then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("seating-board");
        if (fresh) {
          board().replaceWith(document.importNode(fresh, true));
          window.scrollTo({ top: 0 });
          wall.dispatchEvent(new CustomEvent("seating:updated", { detail: answer }));
        }
      });
    }).catch(function () {
      // offline for a moment: keep the board on screen, try again on the next tick
    }).then(function () { busy = false; });
  }

  window.setInterval(poll, every);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) { poll(); } });
})();
