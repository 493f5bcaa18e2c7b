/* The table's phone page once its game is over: "where do we sit next?". While the next round
 * is not seated, every few seconds it asks the table's status (GET /api/tables/<token>/status/,
 * whose next_round says whether the round after this one is seated); as soon as it is, it
 * fetches the page again and swaps the "where next" card in place (no reload, nothing typed is
 * lost). The fresh card keeps waiting when the round is still not seated (e.g. the other
 * tables). */
(function () {
  "use strict";
  if (!window.fetch || !window.DOMParser || !window.Live) { return; }
  var busy = false;

  function card() { return document.querySelector("[data-where-next]"); }

  function poll() {
    var waiting = card();
    if (!waiting || busy || document.hidden) { return; }
    busy = true;
    fetch(waiting.getAttribute("data-state-url"),
          { headers: { Accept: "application/json" }, cache: "no-store" })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (state) {
        var next = state && state.next_round;
        if (!next || !next.seated) { return null; }
        return fetch(waiting.getAttribute("data-page-url"), { cache: "no-store" })
          .then(function (response) { return response.ok ? response.text() : null; })
          .then(function (html) {
            if (!html) { return; }
            var fresh = new DOMParser().parseFromString(html, "text/html")
              .getElementById("where-next");
            var shown = card();
            if (fresh && shown) {
              shown.replaceWith(document.importNode(fresh, true));
              var seated = document.getElementById("where-next");
              if (seated && !seated.hasAttribute("data-where-next")) {
                seated.scrollIntoView({ block: "nearest" });
              }
            }
          });
      })
      .catch(function () { /* offline for a moment: ask again on the next tick */ })
      .then(function () { busy = false; });
  }

  window.Live.every(4000, poll);  // live.js: the timer, and at once when shown again
})();
