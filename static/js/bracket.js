/* The bracket page stays live and draws the lines between its rounds.
 *
 * Live: with the event's push stream (data-push-url: server-sent events) a "wall" message (a
 * match seated or confirmed) or a "standings" one (a result entered) makes it fetch the drawn
 * bracket at once, and it polls only seldom (data-push-poll-seconds) as a safety net; without
 * one, or while it is down, it polls every data-poll-seconds. The drawing is swapped in when
 * its digest changed; data-updated-by says whether a push or a poll brought the last redraw.
 *
 * Lines: in each bracket's columns, an elbow from every match to the match its winner goes on
 * to (data-winner-to), drawn in an SVG laid over the columns; drawn again when the bracket is
 * redrawn or the window changes size.
 *
 * Wall (data-wall-pages, ?wall=1): the type is sized to the screen, as large as fits (names
 * between 20 and 44 px). A bracket that does not fit at a readable size is shown in panels:
 * the brackets one after another (as many together as fit at PACK px or more; a third-place
 * match with the bracket before it), the places on their own; a panel that still does not fit
 * at the smallest size is shown a screenful at a time ("pages" of the panel, overlapping so
 * that every match is whole on one of them). The wall turns to the next view every
 * data-page-seconds and starts again after the last; data-view / data-views say which is shown
 * and [data-wall-page] says it in words. */
(function () {
  "use strict";
  var live = document.getElementById("bracket-live");
  if (!live) { return; }
  var url = live.getAttribute("data-fragment-url");
  var every = Math.max(2, parseInt(live.getAttribute("data-poll-seconds"), 10) || 4) * 1000;
  var pushEvery = Math.max(2, parseInt(live.getAttribute("data-push-poll-seconds"), 10) || 60) * 1000;
  var pushUrl = live.getAttribute("data-push-url");
  var busy = false;
  var again = null;
  var SVG = "http://www.w3.org/2000/svg";

  function drawLines() {
    var boards = live.querySelectorAll("[data-bracket-lines]");
    for (var b = 0; b < boards.length; b += 1) {
      var board = boards[b];
      var old = board.querySelector(":scope > svg.bracket-lines");
      if (old) { old.remove(); }
      var box = board.getBoundingClientRect();
      var svg = document.createElementNS(SVG, "svg");
      svg.setAttribute("class", "bracket-lines");
      svg.setAttribute("aria-hidden", "true");
      svg.setAttribute("width", String(board.scrollWidth));
      svg.setAttribute("height", String(board.scrollHeight));
      var matches = board.querySelectorAll("[data-winner-to]");
      for (var i = 0; i < matches.length; i += 1) {
        var from = matches[i];
        var to = board.querySelector("[data-match='" + from.getAttribute("data-winner-to") + "']");
        if (!to) { continue; }  // it goes on to another bracket (the final): no line
        var a = from.getBoundingClientRect();
        var c = to.getBoundingClientRect();
        if (c.left <= a.right) { continue; }
        var x1 = a.right - box.left, y1 = a.top + a.height / 2 - box.top;
        var x2 = c.left - box.left, y2 = c.top + c.height / 2 - box.top;
        var xm = Math.round((x1 + x2) / 2);
        var path = document.createElementNS(SVG, "path");
        path.setAttribute("d", "M" + x1 + " " + y1 + "H" + xm + "V" + y2 + "H" + x2);
        if (from.getAttribute("data-status") === "finished") { path.setAttribute("class", "done"); }
        svg.appendChild(path);
      }
      board.insertBefore(svg, board.firstChild);
    }
  }

  // --- the wall: panels and pages --------------------------------------------------------------
  var MIN = 20, PACK = 26, MAX = 44;
  var walled = live.hasAttribute("data-wall-pages");
  var views = [];
  var view = 0;

  function board() { return live.querySelector(".bracket-board"); }
  function win() { return live.querySelector(".bracket-window"); }
  function items() {
    var out = [].slice.call(live.querySelectorAll(".bracket-part"));
    var places = live.querySelector(".bracket-places");
    if (places) { out.push(places); }
    return out;
  }
  function showItems(shown) {
    var all = items();
    var places = "none";
    for (var i = 0; i < all.length; i += 1) {
      var on = shown.indexOf(all[i]) >= 0;
      all[i].classList.toggle("off-panel", !on);
      if (on && all[i].classList.contains("bracket-places")) { places = "with"; }
    }
    if (places === "with" && shown.length === 1) { places = "alone"; }
    board().setAttribute("data-places", places);
  }
  function setSize(px) { live.style.setProperty("--name-size", px + "px"); }
  function fits() {
    var b = board(), w = win();
    b.style.transform = "";
    return b.offsetHeight <= w.clientHeight + 1 && b.scrollWidth <= w.clientWidth + 1;
  }
  // The largest size in [low, MAX] at which the items shown fit, or 0.
  function largest(low) {
    setSize(low);
    if (!fits()) { return 0; }
    var lo = low, hi = MAX;
    while (lo < hi) {
      var mid = Math.ceil((lo + hi) / 2);
      setSize(mid);
      if (fits()) { lo = mid; } else { hi = mid - 1; }
    }
    return lo;
  }
  // Where the screenfuls of a panel too big for the screen start along one axis: each one
  // starts at the first piece the one before did not show whole.
  function starts(pieces, axis, size, total) {
    var out = [0];
    var at = 0;
    while (at + size < total - 1) {
      var next = null;
      for (var i = 0; i < pieces.length; i += 1) {
        var p = pieces[i];
        if (p[1] > at + size + 0.5 && p[0] > at + 0.5 && (next === null || p[0] < next)) { next = p[0]; }
      }
      at = next === null ? Math.min(at + size, total - size) : Math.min(next, total - size);
      if (at <= out[out.length - 1]) { break; }
      out.push(at);
    }
    return out;
  }
  function pagesOf(panel, size) {
    var b = board(), w = win();
    var origin = b.getBoundingClientRect();
    var rows = [], cols = [];
    var pieces = b.querySelectorAll(".bracket-match, .bracket-places tr, .bracket-part > h2, .bracket-places h2, .bracket-places h3");
    for (var i = 0; i < pieces.length; i += 1) {
      var r = pieces[i].getBoundingClientRect();
      if (!r.width) { continue; }
      rows.push([r.top - origin.top, r.bottom - origin.top]);
    }
    var columns = b.querySelectorAll(".bracket-column, .bracket-places");
    for (var j = 0; j < columns.length; j += 1) {
      var c = columns[j].getBoundingClientRect();
      if (!c.width) { continue; }
      cols.push([c.left - origin.left, c.right - origin.left]);
    }
    var ys = starts(rows, "y", w.clientHeight, b.offsetHeight);
    var xs = starts(cols, "x", w.clientWidth, b.scrollWidth);
    var out = [];
    for (var x = 0; x < xs.length; x += 1) {
      for (var y = 0; y < ys.length; y += 1) { out.push({ panel: panel, size: size, x: xs[x], y: ys[y] }); }
    }
    return out;
  }
  function show() {
    var v = views[view];
    if (!v) { return; }
    showItems(v.panel);
    setSize(v.size);
    board().style.transform = (v.x || v.y) ? "translate(" + (-v.x) + "px, " + (-v.y) + "px)" : "";
    drawLines();
    live.setAttribute("data-view", String(view + 1));
    live.setAttribute("data-views", String(views.length));
    var note = document.querySelector("[data-wall-page]");
    if (note) {
      note.textContent = "page " + (view + 1) + " of " + views.length;
      note.hidden = views.length < 2;
    }
  }
  function layout() {
    if (!walled || !board() || !win()) { return; }
    var all = items();
    var panels = [], current = [];
    for (var i = 0; i < all.length; i += 1) {
      var item = all[i];
      if (current.length && item.getAttribute("data-bracket") === "third_place") { current.push(item); continue; }
      var trial = current.concat([item]);
      showItems(trial);
      if (!current.length || largest(PACK)) { current = trial; } else { panels.push(current); current = [item]; }
    }
    if (current.length) { panels.push(current); }
    views = [];
    for (var p = 0; p < panels.length; p += 1) {
      showItems(panels[p]);
      var size = largest(MIN);
      if (size) {
        views.push({ panel: panels[p], size: size, x: 0, y: 0 });
      } else {
        setSize(MIN);
        drawLines();
        views = views.concat(pagesOf(panels[p], MIN));
      }
    }
    view = Math.min(view, Math.max(0, views.length - 1));
    show();
  }
  if (walled) {
    var seconds = Math.max(2, parseInt(live.getAttribute("data-page-seconds"), 10) || 12);
    window.setInterval(function () {  // not a poll: the wall turns its views
      if (views.length < 2) { return; }
      view = (view + 1) % views.length;
      show();
    }, seconds * 1000);
  }
  function redrawAll() { if (walled) { layout(); } else { drawLines(); } }

  function refresh(by) {
    if (document.hidden) { return; }
    if (busy) { again = by; return; }
    busy = true;
    // a push asks past any cache in front of the site (which keeps a poll's answer a second)
    var address = by === "push" ? url + "&fresh=" + Date.now() : url;
    fetch(address, { headers: { "X-Requested-With": "fetch" }, cache: "no-store",
                 credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) { throw new Error("HTTP " + response.status); }
        return response.text();
      })
      .then(function (html) {
        var holder = document.createElement("div");
        holder.innerHTML = html;
        var summary = holder.querySelector("[data-digest]");
        var digest = summary ? summary.getAttribute("data-digest") : "";
        if (digest && digest !== live.getAttribute("data-digest")) {
          live.innerHTML = html;
          live.setAttribute("data-digest", digest);
          live.setAttribute("data-updated-by", by);
          redrawAll();
        }
      })
      .catch(function () { /* keep the last bracket on screen; try again on the next tick */ })
      .then(function () {
        busy = false;
        if (again) { var next = again; again = null; refresh(next); }
      });
  }

  // the poll, the push stream and the return to a shown page: live.js
  if (window.Live) {
    window.Live.watch({ check: refresh, every: every, pushEvery: pushEvery, pushUrl: pushUrl,
                        events: { wall: null, standings: null }, state: live });
  }

  redrawAll();
  var redraw = null;
  window.addEventListener("resize", function () {
    window.clearTimeout(redraw);
    redraw = window.setTimeout(redrawAll, 150);  // not a poll: a resize settles first
  });
  if (document.fonts && document.fonts.ready) { document.fonts.ready.then(redrawAll); }
}());
