// Live standings: poll the snapshot version; when it moves, fetch the fragment and swap it in.
// With a push stream (data-push-url: server-sent events) the version comes as soon as it moves,
// and the poll runs seldom, as a safety net; without one (or while it is down) it runs every
// few seconds. A browser that can inflate gzip (DecompressionStream) opens the stream for the
// view it shows (&view=phone, wall or page): a new snapshot's message then carries that region
// itself ("region": gzipped, base64) and the page redraws without a request. While the snapshot
// is behind the entered hands (worker busy or down) show the "updating…" note.
(function () {
  "use strict";
  var live = document.getElementById("standings-live");
  if (!live || !window.Live) { return; }
  var note = document.querySelector("[data-standings-updating]");
  var roundLine = document.querySelector("[data-round-status]");  // the wall's state of play
  var versionUrl = live.getAttribute("data-version-url");
  var fragmentUrl = live.getAttribute("data-fragment-url");
  // The page's language (its fragment URL's lang): a pushed region is in the room's language
  // (its status says which) and is used only when it is the page's.
  var pageLang = (/[?&]lang=([\w-]+)/.exec(fragmentUrl) || [null, "en"])[1];
  function sameLang(status) { return (status.lang || "en") === pageLang; }
  // A phone shows five columns (site.css): it asks for the "phone" fragment, without the
  // columns it would hide; turned sideways past 600px it asks for the full one again.
  var narrow = window.matchMedia ? window.matchMedia("(max-width: 600px)") : null;
  function fragmentFor() {
    if (!narrow || !narrow.matches || fragmentUrl.indexOf("view=page") < 0) { return fragmentUrl; }
    return fragmentUrl.replace("view=page", "view=phone");
  }
  var every = Math.max(1, parseInt(live.getAttribute("data-poll-seconds"), 10) || 3) * 1000;
  // With a push stream open (data-push-url) the page polls this seldom, as a safety net.
  var pushEvery = Math.max(1, parseInt(live.getAttribute("data-push-poll-seconds"), 10) || 30) * 1000;
  var pushUrl = live.getAttribute("data-push-url");
  var current = live.getAttribute("data-version");
  var busy = false;
  var pushed = null;  // the newest pushed status not yet shown

  function get(url, asJson) {
    // no-cache: the browser keeps the last answer and revalidates it (ETag, 304 when unchanged).
    var headers = { "X-Requested-With": "fetch" };
    var tab = window.Live.watchTab();
    if (tab) { headers["X-Watch-Tab"] = tab; }  // "12 watching" (standings.watchers)
    return fetch(url, { headers: headers, cache: "no-cache", credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) { throw new Error("HTTP " + response.status); }
        return asJson ? response.json().then(watching) : response.text();
      });
  }

  // The poll's count of who is watching, into the line that shows it (plural in the page's
  // language from the JavaScript catalog, English without it).
  function watching(data) {
    var line = document.getElementById("watching");
    if (line && data && typeof data.watching === "number") {
      var n = data.watching;
      var text = window.ngettext ? window.interpolate(
        window.ngettext("%s watching", "%s watching", n), [n]) : n + " watching";
      line.textContent = text;
      line.setAttribute("data-watching", String(n));
    }
    return data;
  }

  // The view of the region shown; none for a stage's standings (the push process has only
  // the whole event's regions).
  function viewShown() {
    var url = fragmentFor();
    if (url.indexOf("stage=") >= 0) { return null; }
    var view = /[?&]view=(\w+)/.exec(url);
    return view ? view[1] : "page";
  }

  // A pushed status with "fragment": the push process holds that version's region, so the
  // room's fetches after a push go there, not to the site.
  var pushFragment = pushUrl ? pushUrl.replace("/?token=", "/fragment/?token=") : null;
  function fromPush(status) {
    var view = viewShown();
    if (!pushFragment || !status.fragment || !view || !sameLang(status)) { return null; }
    return pushFragment + "&view=" + view + "&version=" + encodeURIComponent(status.version);
  }

  // A region sent along with a pushed status: base64 of the gzipped HTML.
  var inflating = typeof DecompressionStream === "function" && typeof Response === "function";
  var streamView = null;  // the view the open stream sends regions of
  function inflate(region) {
    var bytes = Uint8Array.from(window.atob(region), function (c) { return c.charCodeAt(0); });
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Response(stream).text();
  }
  // The region of the version wanted (&v=): a cache in front of the site never answers with
  // the region of an older version kept under the same address.
  function regionUrl(status) {
    return fragmentFor() + "&v=" + encodeURIComponent(status.version);
  }
  function fetchRegion(status, by) {
    var direct = by === "push" ? fromPush(status) : null;
    if (!direct) { return get(regionUrl(status), false); }
    return fetch(direct, { cache: "no-cache", mode: "cors", credentials: "omit" })
      .then(function (response) {
        if (!response.ok) { throw new Error("HTTP " + response.status); }
        return response.text();
      })
      .catch(function () { return get(regionUrl(status), false); });  // ask the site instead
  }

  function wait(ms) {
    return new Promise(function (done) { window.setTimeout(done, ms); });  // not a poll: a pause
  }

  // A status (the poll's answer or a pushed one): the note, and the fragment when it moved.
  // data-updated-by says which of the two brought the last redraw ("poll" or "push").
  function show(status, by) {
    if (note) { note.hidden = !status.behind; }
    if (roundLine && status.round !== undefined) {
      roundLine.textContent = status.round ? status.round.text : "";
    }
    if (String(status.version) === String(current)) { return Promise.resolve(null); }
    var body = status.region && streamView && streamView === viewShown() && sameLang(status)
      ? inflate(status.region).catch(function () { return fetchRegion(status, by); })
      : fetchRegion(status, by);
    return body.then(function (html) {
      live.innerHTML = html;
      current = String(status.version);
      live.setAttribute("data-version", current);
      live.setAttribute("data-updated-by", by);
      live.dispatchEvent(new CustomEvent("standings:updated", { detail: status }));
    });
  }

  function done() { busy = false; drain(); }

  function poll() {
    if (busy || document.hidden) { return; }
    busy = true;
    get(versionUrl, true).then(function (status) { return show(status, "poll"); }).catch(function () {
      // Network hiccup: keep the last standings on screen and try again on the next tick.
    }).then(done);
  }

  // A pushed status: shown at once when it carries the region, else after a short random
  // wait, so a room's phones do not all fetch the fragment in the same instant; a newer one
  // arriving meanwhile replaces it.
  function drain() {
    if (busy || !pushed || document.hidden) { return; }
    var status = pushed;
    pushed = null;
    busy = true;
    // (no wait for a region carried, nor for the version shown: nothing to fetch)
    var fetches = !status.region && String(status.version) !== String(current);
    wait(fetches ? Math.random() * 250 : 0).then(function () {
      // The wall also shows the state of play, which only its poll carries.
      if (!roundLine) { return show(status, "push"); }
      return get(versionUrl, true).then(function (now) {
        var same = String(now.version) === String(status.version);
        now.fragment = status.fragment && same;
        now.region = same ? status.region : null;
        return show(now, "push");
      });
    }).catch(function () {}).then(done);
  }

  // The poll, the push stream (opened for the view shown) and the return to a shown page:
  // live.js. A pushed status waits its turn (drain); the stream's opening polls for what
  // changed before it opened.
  var watcher = window.Live.watch({
    check: function () { poll(); }, every: every, pushEvery: pushEvery, state: live,
    events: {
      standings: function (event) {
        try { pushed = JSON.parse(event.data); } catch (err) { return; }
        drain();
      },
      resync: function () { poll(); }
    },
    onVisible: function () { if (pushed) { drain(); } else { poll(); } }
  });
  var listening = false;
  function listen() {
    streamView = inflating ? viewShown() : null;
    listening = !!watcher.listen(pushUrl + (streamView ? "&view=" + streamView : ""));
  }
  if (pushUrl && window.EventSource) { listen(); }
  if (narrow && narrow.addEventListener) {
    narrow.addEventListener("change", function () {
      current = null;
      if (listening && streamView && streamView !== viewShown()) {
        listen();  // the stream sends the other view's regions: open it for this one
      }
      poll();
    });
  }

  // Wall screen: the rows flow down columns of the screen's height (screens.css); when they
  // fill more columns than one screen shows, turn to the next screenful every few seconds and
  // say which ("page 2 of 7"), starting again from the first. A redraw keeps the page shown
  // (or the last one, if there are fewer now). A wall opened on a small screen has no paged
  // columns: it scrolls through the rows slowly instead.
  if (document.body.classList.contains("wall")) {
    var pageNote = document.querySelector("[data-wall-page]");
    var pageEvery = Math.max(2, parseInt(pageNote && pageNote.getAttribute("data-page-seconds"), 10) || 10) * 1000;
    var page = 0;
    var pageCount = function (flow, box) {
      var step = box.clientWidth + parseFloat(window.getComputedStyle(flow).columnGap || 0);
      var left = box.getBoundingClientRect().left + (flow.currentShift || 0);
      var last = 0;
      var items = flow.querySelectorAll("li, h2");
      for (var i = 0; i < items.length; i += 1) {
        var at = items[i].getBoundingClientRect().left - left;
        last = Math.max(last, Math.floor((at + 2) / step));
      }
      return { count: last + 1, step: step };
    };
    var turn = function (advance) {
      var flow = live.querySelector("[data-wall-flow]");
      var box = live.querySelector("[data-wall-pages]");
      if (!flow || !box || window.getComputedStyle(flow).columnFill !== "auto") {
        if (pageNote) { pageNote.hidden = true; }
        return false;
      }
      var pages = pageCount(flow, box);
      page = advance ? (page + 1) % pages.count : Math.min(page, pages.count - 1);
      flow.currentShift = -page * pages.step;
      flow.style.transform = page ? "translateX(" + flow.currentShift + "px)" : "";
      live.setAttribute("data-page", String(page + 1));
      live.setAttribute("data-pages", String(pages.count));
      if (pageNote) {
        pageNote.textContent = "page " + (page + 1) + " of " + pages.count;
        pageNote.hidden = pages.count < 2;
      }
      return true;
    };
    turn(false);
    live.addEventListener("standings:updated", function () { turn(false); });
    window.addEventListener("resize", function () { turn(false); });
    window.setInterval(function () {  // not a poll: the wall's page turner
      if (turn(true)) { return; }
      var bottom = window.scrollY + window.innerHeight;
      if (document.documentElement.scrollHeight <= window.innerHeight + 4) { return; }
      if (bottom >= document.documentElement.scrollHeight - 4) {
        window.scrollTo({ top: 0, behavior: "smooth" });
      } else {
        window.scrollBy({ top: Math.round(window.innerHeight * 0.8), behavior: "smooth" });
      }
    }, pageEvery);
  }
})();
