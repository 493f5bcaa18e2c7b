/* Screens that keep themselves current, without inline scripts (the Content-Security-Policy
 * refuses those):
 *   data-auto-refresh="25"  reloads the page every 25 seconds (the director's screen; the
 *                           walls redraw in place instead, seating_board.js), but never while someone is
 *                           typing in (or has changed) a form field of the page, nor while the
 *                           page is hidden (it reloads as soon as it is shown again);
 *   data-deadline="ms"      counts down to that moment (milliseconds since 1970) as m:ss, and
 *                           "Time" once it has passed; with data-now="ms", the server's clock at
 *                           render time, so a wall PC whose clock is off keeps the room's time;
 *   data-page-through       a wall screen whose rows ([data-page-flow], a list laid out in
 *                           columns of the screen's height) are more than one screen holds:
 *                           show one screenful of rows at a time and turn to the next every
 *                           data-page-seconds, back to the first after the last, saying which
 *                           ("page 2 of 5", [data-wall-page]); data-page / data-pages tell the
 *                           page shown. A due reload waits for the first page, so every row is
 *                           shown. On a small screen (no fixed-height columns) the document
 *                           scrolls down a screenful at a time instead. */
(function () {
  "use strict";
  // The page's language (Django's JavaScript catalog, /jsi18n/, loaded before this script);
  // English when the catalog is absent (the table page kept offline).
  var gettext = window.gettext || function (s) { return s; };
  var ngettext = window.ngettext || function (s, p, n) { return n === 1 ? s : p; };
  var interpolate = window.interpolate || function (f, o) {
    return f.replace(/%\((\w+)\)s/g, function (m, k) { return String(o[k]); });
  };

  var pager = document.querySelector("[data-page-through]");
  var due = false;
  var reload = null;
  var page = 0;
  var pages = 1;
  var atTop = function () { return !pager || (page === 0 && window.scrollY < 4); };

  // Which page each row is on: lay every row out, then read which screenful of columns it
  // fell in (a page is the list's own width, its columns run on to the right beyond it).
  var paginate = function () {
    var flow = pager.querySelector("[data-page-flow]");
    if (!flow) { pages = 1; page = 0; return null; }
    var rows = flow.children;
    for (var i = 0; i < rows.length; i += 1) { rows[i].classList.remove("off-page"); }
    var style = window.getComputedStyle(flow);
    if (style.columnFill !== "auto") { pages = 1; page = 0; return null; }
    var step = flow.clientWidth + (parseFloat(style.columnGap) || 0);
    var left = flow.getBoundingClientRect().left;
    var last = 0;
    for (var j = 0; j < rows.length; j += 1) {
      var at = Math.max(0, Math.floor((rows[j].getBoundingClientRect().left - left + 2) / step));
      rows[j].setAttribute("data-on-page", String(at + 1));
      last = Math.max(last, at);
    }
    pages = last + 1;
    page = Math.min(page, pages - 1);
    return flow;
  };

  var show = function (flow) {
    if (flow) {
      var rows = flow.children;
      for (var i = 0; i < rows.length; i += 1) {
        rows[i].classList.toggle("off-page", rows[i].getAttribute("data-on-page") !== String(page + 1));
      }
    }
    pager.setAttribute("data-page", String(page + 1));
    pager.setAttribute("data-pages", String(pages));
    var note = pager.querySelector("[data-wall-page]");
    if (note) {
      note.textContent = "page " + (page + 1) + " of " + pages;
      note.hidden = pages < 2;
    }
  };

  if (pager) {
    var layout = function () { show(paginate()); };
    var seconds = Math.max(2, parseInt(pager.getAttribute("data-page-seconds"), 10) || 10);
    layout();
    pager.addEventListener("wall:updated", layout);
    window.addEventListener("resize", layout);
    if (document.fonts && document.fonts.ready) { document.fonts.ready.then(layout); }
    window.setInterval(function () {
      var flow = pager.querySelector("[data-page-flow]");
      if (flow && window.getComputedStyle(flow).columnFill === "auto") {
        if (pages < 2) { return; }
        page = (page + 1) % pages;
        show(flow);
        if (page === 0 && due && reload) { due = false; reload(); }
        return;
      }
      var height = document.documentElement.scrollHeight;
      if (height <= window.innerHeight + 4) { return; }
      if (window.scrollY + window.innerHeight >= height - 4) {
        window.scrollTo({ top: 0 });
        if (due && reload) { due = false; reload(); }
      } else {
        window.scrollBy({ top: Math.round(window.innerHeight * 0.8), behavior: "smooth" });
      }
    }, seconds * 1000);
  }

  var refresher = document.querySelector("[data-auto-refresh]");
  if (refresher) {
    var every = Math.max(10, parseInt(refresher.getAttribute("data-auto-refresh"), 10) || 30);
    var dirty = false;
    document.addEventListener("input", function () { dirty = true; });
    document.addEventListener("change", function (event) {
      if (event.target && event.target.form) { dirty = true; }
    });
    document.addEventListener("submit", function () { dirty = true; });  // leaving anyway
    var busy = function () {
      var active = document.activeElement;
      var tag = active && active.tagName;
      return dirty || tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA";
    };
    reload = function () {
      if (document.hidden || !atTop()) { due = true; return; }
      if (!busy()) { window.location.reload(); }
    };
    window.setInterval(reload, every * 1000);
    document.addEventListener("visibilitychange", function () {
      if (!document.hidden && due) { due = false; reload(); }
    });
  }

  // Looked up on every tick: a wall that redraws itself in place (seating_board.js) brings in
  // a new clock when a new game is seated.
  if (document.querySelector("[data-deadline]") || document.querySelector("[data-live-wall]")) {
    var tick = function () {
      var clocks = document.querySelectorAll("[data-deadline]");
      for (var i = 0; i < clocks.length; i += 1) {
        var clock = clocks[i];
        var deadline = parseInt(clock.getAttribute("data-deadline"), 10);
        var serverNow = parseInt(clock.getAttribute("data-now") || "", 10);
        if (isNaN(deadline)) { continue; }
        if (clock.skew === undefined) {
          clock.skew = isNaN(serverNow) ? 0 : serverNow - Date.now();
        }
        var left = Math.floor((deadline - (Date.now() + clock.skew)) / 1000);
        var out = clock.querySelector("[data-countdown]") || clock;
        if (left <= 0) {
          out.textContent = gettext("Time");
          clock.classList.add("expired");
        } else {
          var minutes = Math.floor(left / 60);
          var seconds = left % 60;
          out.textContent = minutes + ":" + (seconds < 10 ? "0" : "") + seconds;
          clock.classList.toggle("closing", left <= 300);
        }
      }
    };
    tick();
    window.setInterval(tick, 1000);
  }
})();
