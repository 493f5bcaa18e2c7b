/* Keeps a table's entry page current when another phone at the same table saves a hand: every
 * few seconds it asks the table's status (GET /api/tables/<token>/status/: the game's version
 * and status, one cheap query); when the game's version moved, an untouched page
 * redraws its score and hands in place (table_offline.js; the page reloads when the game ended
 * or without that script), and a page with a half-typed hand shows a note instead of losing the
 * typing. This phone's own saves redraw the page themselves: while one is on its way (or being
 * redrawn) the poll waits, and the version it compares with is the one the page shows now. */
(function () {
  "use strict";
  var note = document.querySelector("[data-live-table]");
  if (!note || !window.fetch || !window.Live) return;
  var url = note.dataset.stateUrl;
  var form = document.querySelector("form[data-hand-form]");
  var typing = false;
  if (form) {
    form.addEventListener("input", function () { typing = true; });
    form.addEventListener("change", function () { typing = true; });
  }
  // the form was emptied for the next hand (after a save, or following the server)
  document.addEventListener("table:form-reset", function () { typing = false; });
  document.addEventListener("table:refreshed", function () { note.hidden = true; });

  function shown() {
    var score = document.getElementById("table-score");
    var from = score || note;
    return { version: parseInt(from.getAttribute("data-version") || "0", 10),
             status: from.getAttribute("data-status") };
  }

  function waiting() { return !!(window.TableEntry && window.TableEntry.busy()); }

  function poll() {
    if (document.hidden || waiting()) return;
    fetch(url, { headers: { Accept: "application/json" }, cache: "no-store" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (state) {
        if (!state || !state.game || waiting()) return;
        var now = shown();
        if (state.game.version === now.version && state.game.status === now.status) return;
        if (typing) { note.hidden = false; return; }
        if (window.TableEntry && state.game.status === now.status) { window.TableEntry.refresh(); return; }
        window.location.reload();
      })
      .catch(function () { /* offline: try again on the next tick */ });
  }
  window.Live.every(5000, poll);  // live.js: the timer, and at once when shown again
})();
