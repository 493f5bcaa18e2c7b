// Live standings: poll the snapshot version; when it moves, fetch the fragment and swap it in.
// While the snapshot is behind the entered hands (worker busy or down) show the "updating…" note.
(function () {
  "use strict";
  var live = document.getElementById("standings-live");
  if (!live) { return; }
  var note = document.querySelector("[data-standings-updating]");
  var roundLine = document.querySelector("[data-round-status]");  // the wall's state of play
  var versionUrl = live.getAttribute("data-version-url");
  var fragmentUrl = live.getAttribute("data-fragment-url");
  // A phone shows five columns (site.css): it asks for the "phone" fragment, without the
  // columns it would hide; turned sideways past 600px it asks for the full one again.
  var narrow = window.matchMedia ? window.matchMedia("(max-width: 600px)") : null;
  function fragmentFor() {
    if (!narrow || !narrow.matches || fragmentUrl.indexOf("view=page") < 0) { return fragmentUrl; }
    return fragmentUrl.replace("view=page", "view=phone");
  }
  var every = Math.max(1, parseInt(live.getAttribute("data-poll-seconds"), 10) || 3) * 1000;
  var current = live.getAttribute("data-version");
  var busy = false;

  function get(url, asJson) {
    // no-cache: the browser keeps the last answer and revalidates it (ETag, 304 when unchanged).
    return fetch(url, { headers: { "X-Requested-With": "fetch" }, cache: "no-cache",
                        credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) { throw new Error("HTTP " + response.status); }
        return asJson ? response.json() : response.text();
      });
  }

  function poll() {
    if (busy || document.hidden) { return; }
    busy = true;
    get(versionUrl, true).then(function (status) {
      if (note) { note.hidden = !status.behind; }
      if (roundLine && status.round !== undefined) {
        roundLine.textContent = status.round ? status.round.text : "";
      }
      if (String(status.version) === String(current)) { return null; }
      return get(fragmentFor(), false).then(function (html) {
        live.innerHTML = html;
        current = String(status.version);
        live.setAttribute("data-version", current);
        live.dispatchEvent(new CustomEvent("standings:updated", { detail: status }));
      });
    }).catch(function () {
      // Network hiccup: keep the last standings on screen and try again on the next tick.
    }).then(function () { busy = false; });
  }

  window.setInterval(poll, every);
  if (narrow && narrow.addEventListener) {
    narrow.addEventListener("change", function () { current = null; poll(); });
  }

  // Wall screen: when the standings are taller than the screen, page through them slowly and
  // start again from the top, so a room can read every row without anyone touching the screen.
  if (document.body.classList.contains("wall")) {
    window.setInterval(function () {
      var bottom = window.scrollY + window.innerHeight;
      if (document.documentElement.scrollHeight <= window.innerHeight + 4) { return; }
      if (bottom >= document.documentElement.scrollHeight - 4) {
        window.scrollTo({ top: 0, behavior: "smooth" });
      } else {
        window.scrollBy({ top: Math.round(window.innerHeight * 0.8), behavior: "smooth" });
      }
    }, 10000);
  }
  document.addEventListener("visibilitychange", function () { if (!document.hidden) { poll(); } });
})();
