/* The director's desk pages (games, check-in) and the players' self check-in page:
 * - a checkbox with data-check-all="selector" ticks or clears every enabled, visible box it
 *   names (the games page's "Select all finished", the check-in page's "Select everyone shown");
 * - an element with data-live-url="URL" is redrawn from that URL every few seconds while the
 *   page is visible (the check-in page's arrivals: players who checked themselves in); the
 *   answer is the element's new inner HTML. Without JavaScript the page shows what it had when
 *   it was loaded, and a reload shows the rest. */
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

  var live = document.querySelectorAll("[data-live-url]");
  if (!live.length || !window.fetch) { return; }
  function refresh(region) {
    if (document.hidden) { return; }
    if (region.contains(document.activeElement) && document.activeElement !== document.body) {
      return;  // someone is about to press a button in it: do not pull it from under them
    }
    fetch(region.getAttribute("data-live-url"),
          { headers: { Accept: "text/html" }, cache: "no-store", credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (html !== null && html !== region.innerHTML) { region.innerHTML = html; }
      })
      .catch(function () { /* offline: try again at the next tick */ });
  }
  live.forEach(function (region) {
    var every = parseInt(region.getAttribute("data-live-every") || "5", 10) * 1000;
    window.setInterval(function () { refresh(region); }, every);
  });
})();
