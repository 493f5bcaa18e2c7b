/* A wall screen that redraws itself in place: the seating board ("where do I sit") and the
 * movement board. The element with data-live-wall names the region it redraws (data-region:
 * the id of the element that carries data-version) and where to ask the region's version
 * (data-version-url). With the event's push stream (data-push-url: server-sent events) each
 * "wall" message (a round seated, started or closed, seats handed over, the event finished)
 * makes it ask the version at once, and it polls only seldom (data-push-poll-seconds) as a
 * safety net; without one, or while it is down, it polls every data-poll-seconds. When the
 * version moved it fetches the page again and swaps the region, so the screen never goes
 * blank and nobody has to touch it; data-updated-by says whether a push or a poll brought the
 * last redraw. A network hiccup keeps the last board and tries again on the next tick. */
(function () {
  "use strict";
  var wall = document.querySelector("[data-live-wall]");
  if (!wall || !window.fetch || !window.DOMParser || !window.Live) { return; }
  var url = wall.getAttribute("data-version-url");
  var regionId = wall.getAttribute("data-region");
  var every = Math.max(2, parseInt(wall.getAttribute("data-poll-seconds"), 10) || 5) * 1000;
  var pushEvery = Math.max(2, parseInt(wall.getAttribute("data-push-poll-seconds"), 10) || 60) * 1000;
  var pushUrl = wall.getAttribute("data-push-url");
  var busy = false;
  var again = null;  // a check asked for while one was running: who asked

  function region() { return document.getElementById(regionId); }

  function get(address, asJson) {
    return fetch(address, { headers: { "X-Requested-With": "fetch" }, cache: "no-store",
                            credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) { throw new Error("HTTP " + response.status); }
        return asJson ? response.json() : response.text();
      });
  }

  // A parameter added to an address: a cache in front of the site (a few seconds for what
  // anyone may read) keeps each value apart. A push asks past it ("fresh"), a poll need not;
  // the page of a new version is asked by that version ("v"), which no cache holds older.
  function withParam(address, name, value) {
    return address + (address.indexOf("?") < 0 ? "?" : "&") + name + "=" + encodeURIComponent(value);
  }

  function check(by) {
    var shown = region();
    if (!shown || document.hidden) { return; }
    if (busy) { again = by; return; }
    busy = true;
    get(by === "push" ? withParam(url, "fresh", Date.now()) : url, true).then(function (answer) {
      if (!answer || String(answer.version) === region().getAttribute("data-version")) { return null; }
      return get(withParam(window.location.href.split("#")[0], "v", answer.version), false).then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById(regionId);
        if (fresh) {
          region().replaceWith(document.importNode(fresh, true));
          wall.setAttribute("data-updated-by", by);
          wall.dispatchEvent(new CustomEvent("wall:updated", { detail: answer }));
          wall.dispatchEvent(new CustomEvent("seating:updated", { detail: answer }));
        }
      });
    }).catch(function () {
      // offline for a moment: keep the board on screen, try again on the next tick
    }).then(function () {
      busy = false;
      if (again) { var next = again; again = null; check(next); }
    });
  }

  // the poll, the push stream and the return to a shown page: live.js
  window.Live.watch({ check: check, every: every, pushEvery: pushEvery, pushUrl: pushUrl,
                      events: { wall: null }, state: wall });
  // the follow page's service worker received a push (static/js/follow.js): check at once
  wall.addEventListener("follow:push", function () { check("push"); });
})();
