/* Screens that keep themselves current, without inline scripts (the Content-Security-Policy
 * refuses those):
 *   data-auto-refresh="25"  reloads the page every 25 seconds (the director's screen; the
 *                           walls redraw in place instead, seating_board.js), but never while someone is
 *                           typing in (or has changed) a form field of the page, nor while the
 *                           page is hidden (it reloads as soon as it is shown again);
 *   data-deadline="ms"      counts down to that moment (milliseconds since 1970) as m:ss, and
 *                           "Time" once it has passed; with data-now="ms", the server's clock at
 *                           render time, so a wall PC whose clock is off keeps the room's time;
 *   data-page-through       on a wall screen taller than the window: scroll down a screenful
 *                           every few seconds and back to the top (a due reload waits for the
 *                           top, so every row is shown). */
(function () {
  "use strict";

  var pager = document.querySelector("[data-page-through]");
  var due = false;
  var reload = null;
  var atTop = function () { return !pager || window.scrollY < 4; };
  if (pager) {
    window.setInterval(function () {
      var page = document.documentElement.scrollHeight;
      if (page <= window.innerHeight + 4) { return; }
      if (window.scrollY + window.innerHeight >= page - 4) {
        window.scrollTo({ top: 0 });
        if (due && reload) { due = false; reload(); }
      } else {
        window.scrollBy({ top: Math.round(window.innerHeight * 0.8), behavior: "smooth" });
      }
    }, 8000);
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
          out.textContent = "Time";
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
