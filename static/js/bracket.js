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
 * redrawn or the window changes size. */
(function () {
  "use strict";
  var live = document.getElementById("bracket-live");
  if (!live) { return; }
  var url = live.getAttribute("data-fragment-url");
  var every = Math.max(2, parseInt(live.getAttribute("data-poll-seconds"), 10) || 4) * 1000;
  var pushEvery = Math.max(2, parseInt(live.getAttribute("data-push-poll-seconds"), 10) || 60) * 1000;
  var pushUrl = live.getAttribute("data-push-url");
  var streaming = false;
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

  function refresh(by) {
    if (document.hidden) { return; }
    if (busy) { again = by; return; }
    busy = true;
    fetch(url, { headers: { "X-Requested-With": "fetch" }, cache: "no-store",
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
          drawLines();
        }
      })
      .catch(function () { /* keep the last bracket on screen; try again on the next tick */ })
      .then(function () {
        busy = false;
        if (again) { var next = again; again = null; refresh(next); }
      });
  }

  function tick() {
    refresh("poll");
    window.setTimeout(tick, streaming ? pushEvery : every);
  }
  window.setTimeout(tick, every);

  if (pushUrl && window.EventSource) {
    var source = new EventSource(pushUrl);
    var state = function (value) { live.setAttribute("data-push", value); };
    source.addEventListener("open", function () { streaming = true; state("open"); refresh("push"); });
    source.addEventListener("wall", function () { refresh("push"); });
    source.addEventListener("standings", function () { refresh("push"); });
    source.addEventListener("resync", function () { refresh("push"); });
    source.addEventListener("error", function () {
      streaming = false;
      state(source.readyState === 2 ? "closed" : "connecting");
    });
  }

  drawLines();
  var redraw = null;
  window.addEventListener("resize", function () {
    window.clearTimeout(redraw);
    redraw = window.setTimeout(drawLines, 150);
  });
  if (document.fonts && document.fonts.ready) { document.fonts.ready.then(drawLines); }
  document.addEventListener("visibilitychange", function () { if (!document.hidden) { refresh("poll"); } });
}());
