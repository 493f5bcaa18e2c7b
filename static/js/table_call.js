/* The table phone's "Call the director" region (#table-call, drawn by the conduct app):
 *   - the call (and the dismissal of a ruling) is sent without leaving the page: the form is
 *     posted with fetch and the server answers the region again (201, or the refusal inside it:
 *     400 for a call already open, 403 once the round is closed), which replaces this one;
 *   - while a call is open (data-state "waiting" or "taken") the region asks for itself every
 *     few seconds and redraws when the call moved (data-version): "Director called 2 min ago",
 *     then "A director is on the way: NAME", then the ruling;
 *   - the waiting time ticks ([data-since-ms], against the server's clock: data-now-ms);
 *   - a hand saved and redrawn in place (table:refreshed) asks again: the ruling goes at the
 *     next hand.
 * Without the network the call is not sent: the region says so and the form stays, to try
 * again (or to walk over to the director). Without JavaScript the forms post and come back. */
(function () {
  "use strict";
  // The page's language (Django's JavaScript catalog, /jsi18n/, loaded before this script);
  // English when the catalog is absent (the table page kept offline).
  var gettext = window.gettext || function (s) { return s; };
  var ngettext = window.ngettext || function (s, p, n) { return n === 1 ? s : p; };
  var interpolate = window.interpolate || function (f, o) {
    return f.replace(/%\((\w+)\)s/g, function (m, k) { return String(o[k]); });
  };
  if (!document.querySelector("[data-table-call]") || !window.fetch || !window.DOMParser) return;
  var OPEN_EVERY = 5000;
  var busy = false;

  function region() { return document.querySelector("[data-table-call]"); }

  function minutes(ms) {
    var mins = Math.floor(Math.max(0, ms) / 60000);
    return mins < 1 ? "less than a minute" : mins === 1 ? "1 minute" : mins + " minutes";
  }

  function tick() {
    var shown = region();
    if (!shown) return;
    if (shown.skew === undefined) {
      var serverNow = parseInt(shown.getAttribute("data-now-ms") || "", 10);
      shown.skew = isNaN(serverNow) ? 0 : serverNow - Date.now();
    }
    var clocks = shown.querySelectorAll("[data-since-ms]");
    for (var i = 0; i < clocks.length; i += 1) {
      var since = parseInt(clocks[i].getAttribute("data-since-ms"), 10);
      if (!isNaN(since)) { clocks[i].textContent = minutes(Date.now() + shown.skew - since); }
    }
  }

  function swap(html) {
    var fresh = new DOMParser().parseFromString(html, "text/html").querySelector("[data-table-call]");
    var shown = region();
    if (!fresh || !shown) return;
    var node = document.importNode(fresh, true);
    shown.replaceWith(node);
    bind(node);
    tick();
  }

  function fail(message) {
    var shown = region();
    if (!shown) return;
    var note = shown.querySelector("[data-call-error]");
    if (!note) {
      note = document.createElement("div");
      note.className = "banner error refusal";
      note.setAttribute("role", "alert");
      note.setAttribute("data-call-error", "");
      note.appendChild(document.createElement("p"));
      shown.insertBefore(note, shown.querySelector(".call-state, .call-ruling, .call-ask"));
    }
    note.firstChild.textContent = message;
  }

  function send(form) {
    if (busy) return;
    busy = true;
    var button = form.querySelector("button[type=submit]");
    if (button) { button.disabled = true; }
    fetch(form.action, { method: "POST", body: new FormData(form), credentials: "same-origin",
                         headers: { "X-Requested-With": "fetch" }, cache: "no-store" })
      .then(function (response) {
        return response.text().then(function (html) {
          if (response.status >= 500 || html.indexOf("data-table-call") < 0) {
            throw new Error("HTTP " + response.status);
          }
          swap(html);
        });
      })
      .catch(function () {
        if (button) { button.disabled = false; }
        fail(gettext("Not sent: this phone has no network just now. Try again, or walk over to a director."));
      })
      .then(function () { busy = false; });
  }

  function refresh() {
    var shown = region();
    if (!shown || busy || document.hidden) return;
    var ask = shown.querySelector("[data-call-ask]");
    if (ask && ask.open) return;  // someone is choosing a reason: leave the form alone
    fetch(shown.getAttribute("data-url"), { headers: { "X-Requested-With": "fetch" },
                                            credentials: "same-origin", cache: "no-store" })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (!html || busy) return;
        var fresh = new DOMParser().parseFromString(html, "text/html").querySelector("[data-table-call]");
        var now = region();
        if (fresh && now && fresh.getAttribute("data-version") !== now.getAttribute("data-version")) {
          swap(html);
        }
      })
      .catch(function () { /* offline: the next tick asks again */ });
  }

  function bind(node) {
    var forms = node.querySelectorAll("form[data-call-form]");
    for (var i = 0; i < forms.length; i += 1) {
      forms[i].addEventListener("submit", function (event) {
        event.preventDefault();
        send(event.currentTarget);
      });
    }
  }

  bind(region());
  tick();
  window.Live.every(15000, tick, { onVisible: false, whenHidden: true });  // the clock
  // live.js: while a call is open, ask for its state; at once when the page is shown again
  window.Live.every(OPEN_EVERY, function () {
    var shown = region();
    var state = shown && shown.getAttribute("data-state");
    if (state === "waiting" || state === "taken") { refresh(); }
  }, { onVisible: false, whenHidden: true });
  document.addEventListener("visibilitychange", function () { if (!document.hidden) { refresh(); } });
  document.addEventListener("table:refreshed", refresh);
})();
