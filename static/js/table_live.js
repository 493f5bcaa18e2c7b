/* Keeps a table's entry page current when another phone at the same table saves a hand: every
 * few seconds it asks the table's state; when the game's version moved, an untouched page
 * reloads itself, and a page with a half-typed hand shows a note instead of losing the typing. */
(function () {
  "use strict";
  var note = document.querySelector("[data-live-table]");
  if (!note || !window.fetch) return;
  var url = note.dataset.stateUrl;
  var version = parseInt(note.dataset.version || "0", 10);
  var status = note.dataset.status;
  var form = document.querySelector("form[data-hand-form]");
  var typing = false;
  if (form) {
    form.addEventListener("input", function () { typing = true; });
    form.addEventListener("change", function () { typing = true; });
    form.addEventListener("submit", function () { version = -1; });  // our own save reloads
  }

  function poll() {
    if (document.hidden || version < 0) return;
    fetch(url, { headers: { Accept: "application/json" }, cache: "no-store" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (state) {
        if (!state || !state.game || version < 0) return;
        if (state.game.version !== version || state.game.status !== status) {
          if (typing) { note.hidden = false; } else { window.location.reload(); }
        }
      })
      .catch(function () { /* offline: try again on the next tick */ });
  }
  setInterval(poll, 5000);
  document.addEventListener("visibilitychange", poll);
})();
