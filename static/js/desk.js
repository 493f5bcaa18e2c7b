/* The director's desk pages (games, check-in) and the players' self check-in page:
 * - a checkbox with data-check-all="selector" ticks or clears every enabled, visible box it
 *   names (the games page's "Select all finished", the check-in page's "Select everyone shown");
 * - an element with data-live-url="URL" is redrawn from that URL every few seconds while the
 *   page is visible (the check-in page's arrivals: players who checked themselves in); the
 *   answer is the element's new inner HTML. Without JavaScript the page shows what it had when
 *   it was loaded, and a reload shows the rest;
 * - a search box with data-live-search="URL" redraws the element data-live-target names from
 *   URL?name=... as the name is typed (from data-live-min letters, a quarter of a second after
 *   the last key): the self check-in page's names. Its form still works without JavaScript. */
(function () {
  "use strict";
  document.addEventListener("change", function (event) {
    var box = event.target;
    var selector = box && box.getAttribute && box.getAttribute("data-check-all");
    if (!selector) { return; }
    document.querySelectorAll(selector).forEach(function (item) {
      if (!item.disabled && !item.closest("[hidden]")) { item.checked = box.checked; }
    });
  });

  document.querySelectorAll("[data-live-search]").forEach(function (box) {
    var target = document.getElementById(box.getAttribute("data-live-target"));
    var min = parseInt(box.getAttribute("data-live-min") || "2", 10);
    var timer = null;
    var asked = 0;
    if (!target || !window.fetch) { return; }
    function ask() {
      var name = box.value.trim();
      var mine = ++asked;
      if (name.length < min) { target.innerHTML = ""; return; }
      fetch(box.getAttribute("data-live-search") + "?name=" + encodeURIComponent(name),
            { headers: { Accept: "text/html" }, cache: "no-store", credentials: "same-origin" })
        .then(function (response) {
          return response.text().then(function (html) { return { ok: response.ok, html: html }; });
        })
        .then(function (answer) {
          if (mine !== asked) { return; }  // a later keystroke asked again
          if (answer.ok) { target.innerHTML = answer.html; return; }
          var p = document.createElement("p");
          p.className = "self-state";
          p.textContent = answer.html;
          target.textContent = "";
          target.appendChild(p);
        })
        .catch(function () { /* offline: the form still submits */ });
    }
    box.addEventListener("input", function () {
      window.clearTimeout(timer);
      timer = window.setTimeout(ask, 250);  // not a poll: typing settles first
    });
  });

  var live = document.querySelectorAll("[data-live-url]");
  if (!live.length || !window.fetch || !window.Live) { return; }
  function refresh(region) {
    if (document.hidden) { return; }
    if (region.contains(document.activeElement) && document.activeElement !== document.body) {
      return;  // someone is about to press a button in it: do not pull it from under them
    }
    fetch(region.getAttribute("data-live-url"),
          { headers: { Accept: "text/html" }, cache: "no-store", credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (html !== null && html !== region.innerHTML) {
          region.innerHTML = html;
          // the page's headline counts who is here: it follows the self check-ins too
          var count = region.querySelector("[data-here-count]");
          var badge = document.getElementById("checked-in-count");
          if (count && badge) { badge.textContent = count.getAttribute("data-here-count") + " here"; }
        }
      })
      .catch(function () { /* offline: try again at the next tick */ });
  }
  live.forEach(function (region) {
    var every = parseInt(region.getAttribute("data-live-every") || "5", 10) * 1000;
    window.Live.every(every, function () { refresh(region); }, { onVisible: false });
  });
})();
