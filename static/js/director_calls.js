/* The calls for a director on a director's screen or phone (#calls-live, events.calls): the
 * region redraws in place when a call is raised, taken or closed. With the event's push stream
 * (data-push-url: server-sent events) each "calls" message makes it ask the site for the region
 * at once (a director's request: the stream itself says nothing about the calls), and it polls
 * only seldom (data-push-poll-seconds); without one it polls every data-poll-seconds.
 * A call whose ruling is being typed keeps its form (and the typing) while the rest redraws.
 * On the director screen the calling tables' tiles are marked too (.dtile.called).
 * The waiting times tick ([data-since-ms], against the server's clock: data-now-ms); a new call
 * is announced to screen readers, counted in the tab's title and, on a phone, buzzes it.
 * data-push says whether the stream is open, data-updated-by whether a push or a poll brought
 * the last redraw. */
(function () {
  "use strict";
  // The page's language (Django's JavaScript catalog, /jsi18n/, loaded before this script);
  // English when the catalog is absent (the table page kept offline).
  var gettext = window.gettext || function (s) { return s; };
  var ngettext = window.ngettext || function (s, p, n) { return n === 1 ? s : p; };
  var interpolate = window.interpolate || function (f, o) {
    return f.replace(/%\((\w+)\)s/g, function (m, k) { return String(o[k]); });
  };
  var first = document.querySelector("[data-calls-live]");
  if (!first || !window.fetch || !window.DOMParser) return;
  var url = first.getAttribute("data-url");
  var pushUrl = first.getAttribute("data-push-url");
  var every = Math.max(2, parseInt(first.getAttribute("data-poll-seconds"), 10) || 8) * 1000;
  var pushEvery = Math.max(2, parseInt(first.getAttribute("data-push-poll-seconds"), 10) || 60) * 1000;
  var watcher = null;  // live.js: the poll and the push stream
  var busy = false;
  var again = null;
  var title = document.title;
  var skew = null;

  function region() { return document.querySelector("[data-calls-live]"); }

  function ids(node, state) {
    var found = {};
    var items = node.querySelectorAll("li[data-call]" + (state ? "[data-state='" + state + "']" : ""));
    for (var i = 0; i < items.length; i += 1) { found[items[i].getAttribute("data-call")] = true; }
    return found;
  }

  function since(ms) {
    var mins = Math.floor(Math.max(0, ms) / 60000);
    return mins < 1 ? "under a minute" : mins === 1 ? "1 min" : mins + " min";
  }

  function tick() {
    var shown = region();
    if (!shown) return;
    if (skew === null) {
      var serverNow = parseInt(shown.getAttribute("data-now-ms") || "", 10);
      skew = isNaN(serverNow) ? 0 : serverNow - Date.now();
    }
    var clocks = shown.querySelectorAll("[data-since-ms]");
    for (var i = 0; i < clocks.length; i += 1) {
      var at = parseInt(clocks[i].getAttribute("data-since-ms"), 10);
      if (!isNaN(at)) { clocks[i].textContent = since(Date.now() + skew - at); }
    }
    var waiting = parseInt(shown.getAttribute("data-waiting") || "0", 10);
    document.title = waiting ? "(" + waiting + ") " + title : title;
  }

  // A call's form being used (focus inside, or a ruling typed): that item stays as it is.
  function inUse(item) {
    if (item.contains(document.activeElement)) return true;
    var note = item.querySelector("input[name=note]");
    return !!(note && note.value);
  }

  function redraw(fresh, by) {
    var shown = region();
    var before = ids(shown, "waiting");
    var kept = shown.querySelectorAll("li[data-call]");
    for (var i = 0; i < kept.length; i += 1) {
      var old = kept[i];
      if (!inUse(old)) continue;
      var twin = fresh.querySelector("li[data-call='" + old.getAttribute("data-call") + "']");
      if (twin && twin.getAttribute("data-state") === old.getAttribute("data-state")) {
        twin.replaceWith(old);
      }
    }
    var focused = document.activeElement;
    shown.replaceWith(fresh);
    if (focused && fresh.contains(focused) && focused.focus) { focused.focus(); }
    fresh.setAttribute("data-updated-by", by);
    fresh.setAttribute("data-push", watcher && watcher.streaming() ? "open" : (shown.getAttribute("data-push") || "off"));
    markTiles(fresh);
    var arrived = [];
    var now = fresh.querySelectorAll("li[data-call][data-state='waiting']");
    for (var j = 0; j < now.length; j += 1) {
      if (!before[now[j].getAttribute("data-call")]) { arrived.push(now[j].getAttribute("data-table")); }
    }
    if (arrived.length) {
      var say = fresh.querySelector("[data-calls-announce]");
      if (say) {
        say.textContent = interpolate(ngettext("New call from table %(tables)s.", "New calls from tables %(tables)s.",
                                               arrived.length), { tables: arrived.join(", ") }, true);
      }
      if (navigator.vibrate) { try { navigator.vibrate(200); } catch (e) { /* not allowed */ } }
    }
    tick();
  }

  // The director screen's tiles of the round shown: a calling table's tile is marked.
  function markTiles(shown) {
    var tiles = document.querySelector(".ds-tiles[data-round]");
    if (!tiles) return;
    var round = tiles.getAttribute("data-round");
    var items = tiles.querySelectorAll(".dtile[data-table]");
    for (var i = 0; i < items.length; i += 1) {
      var call = shown.querySelector("li[data-call][data-round='" + round + "'][data-table='" +
                                     items[i].getAttribute("data-table") + "']");
      items[i].classList.toggle("called", !!call);
    }
  }

  function check(by) {
    if (document.hidden && by === "poll") return;
    if (busy) { again = by; return; }
    busy = true;
    fetch(url, { headers: { "X-Requested-With": "fetch" }, cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) { throw new Error("HTTP " + response.status); }
        return response.text();
      })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html").querySelector("[data-calls-live]");
        if (fresh) { redraw(document.importNode(fresh, true), by); }
      })
      .catch(function () { /* offline for a moment: keep the list, ask again on the next tick */ })
      .then(function () {
        busy = false;
        if (again) { var next = again; again = null; check(next); }
      });
  }

  // the poll, the push stream and the return to a shown page: live.js
  watcher = window.Live.watch({ check: check, every: every, pushEvery: pushEvery, pushUrl: pushUrl,
                                events: { calls: null }, state: function () { return region(); } });
  tick();
  window.Live.every(15000, tick, { onVisible: false, whenHidden: true });  // the clocks

})();
