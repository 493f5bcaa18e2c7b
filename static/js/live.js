/* Live regions: the one place a page keeps itself current.
 *
 * A page script says what its region is and how to check it (its own `check(by)`: ask a version,
 * fetch a fragment, swap it in); this helper does the rest, the same way on every page:
 *
 *   Live.watch({
 *     check: function (by) { ... },   // by: "poll" or "push"
 *     every: 5000,                    // poll this often without a push stream (ms)
 *     pushEvery: 60000,               // and this seldom while the stream is open (a safety net)
 *     pushUrl: "...",                 // the event's push stream (server-sent events), or null
 *     events: { wall: fn, ... },      // the stream's messages; a name with no function checks
 *     state: element,                 // gets data-push="open" | "connecting" | "closed"
 *   })  ->  { check(by), streaming(), listen(url), close() }
 *
 * - the poll runs on one timer whose period follows the stream: every `every` ms while there is
 *   no stream or it is down, every `pushEvery` ms while it is open;
 * - the stream: on open, a check ("push": what moved before it opened); each message named in
 *   `events` calls its function (or checks); "resync" always checks; on an error the browser
 *   opens it again by itself while the poll takes over, and a stream the server refused
 *   (readyState 2) stays closed;
 * - a hidden page does not poll; when it is shown again it checks at once;
 * - `Live.every(ms, fn, {whenHidden, onVisible, first})` is the plain repeating timer for a
 *   region with no stream (a table's phone, an import job): paused while the page is hidden
 *   (unless `whenHidden`), run at once when it is shown again (unless `onVisible: false`);
 *   `.stop()` ends it.
 * A failed request is the page's `check` to swallow: the region keeps what it shows and the next
 * tick tries again. Offline hand entry (offline_queue.js, table_offline.js, sw.js) is not a live
 * region and does not use this. */
(function () {
  "use strict";

  function every(ms, fn, options) {
    var opts = options || {};
    var period = typeof ms === "function" ? ms : function () { return ms; };
    var timer = null;
    var stopped = false;
    function run() {
      if (!document.hidden || opts.whenHidden) { fn(); }
      if (!stopped) { timer = window.setTimeout(run, period()); }
    }
    timer = window.setTimeout(run, opts.first === undefined ? period() : opts.first);
    if (opts.onVisible !== false) {
      document.addEventListener("visibilitychange", function () {
        if (!document.hidden && !stopped) { fn(); }
      });
    }
    return { stop: function () { stopped = true; window.clearTimeout(timer); } };
  }

  /* "12 watching" (standings.watchers): where the page shows the count, an anonymous id of
   * this tab (kept for a reload in sessionStorage), sent with the stream and the polls. */
  function watchTab() {
    if (!document.querySelector("[data-watching]")) { return null; }
    var tab = null;
    try { tab = window.sessionStorage.getItem("watch-tab"); } catch (e) { tab = null; }
    if (!tab) {
      tab = Math.random().toString(36).slice(2) + Date.now().toString(36);
      try { window.sessionStorage.setItem("watch-tab", tab); } catch (e) { /* not kept */ }
    }
    return tab;
  }

  function watch(opts) {
    var streaming = false;
    var source = null;
    var check = opts.check;
    var events = opts.events || {};
    function state(value) {
      var target = typeof opts.state === "function" ? opts.state() : opts.state;
      if (target) { target.setAttribute("data-push", value); }
    }
    every(function () { return streaming ? (opts.pushEvery || opts.every) : opts.every; },
          function () { check("poll"); }, { onVisible: false });
    document.addEventListener("visibilitychange", function () {
      if (!document.hidden) { (opts.onVisible || check)("poll"); }
    });

    function listen(url) {
      if (!url || !window.EventSource) { return null; }
      var tab = watchTab();
      source = new EventSource(tab ? url + "&tab=" + tab : url);
      var opened = source;
      source.addEventListener("open", function () {
        streaming = true;
        state("open");
        (opts.onOpen || check)("push");
      });
      Object.keys(events).forEach(function (name) {
        opened.addEventListener(name, function (event) {
          var handler = events[name];
          if (typeof handler === "function") { handler(event); } else { check("push"); }
        });
      });
      if (!events.resync) {
        source.addEventListener("resync", function () { check("push"); });
      }
      source.addEventListener("error", function () {
        streaming = false;
        state(opened.readyState === 2 ? "closed" : "connecting");
      });
      return source;
    }
    listen(opts.pushUrl);
    return {
      check: check,
      streaming: function () { return streaming; },
      listen: function (url) { if (source) { source.close(); } streaming = false; return listen(url); },
      close: function () { if (source) { source.close(); } streaming = false; }
    };
  }

  window.Live = { watch: watch, every: every, watchTab: watchTab };
}());
