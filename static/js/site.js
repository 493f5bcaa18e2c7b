/* Behaviour every page may use, without inline event handlers (the Content-Security-Policy
 * refuses those): a button with data-print prints the page; a form with data-confirm="question"
 * asks before it is sent; a search box with data-filter="CSS selector" hides the matching
 * elements whose text (or data-name) does not contain what is typed, ignoring case and accents.
 * A box that scrolls sideways (a wide table, a bracket's columns) can be reached and scrolled
 * from the keyboard. */
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-print]");
    if (button) { event.preventDefault(); window.print(); }
  });
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var question = form && form.getAttribute && form.getAttribute("data-confirm");
    if (question && !window.confirm(question)) { event.preventDefault(); }
  });
  function fold(text) {
    return (text || "").normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase().trim();
  }
  document.addEventListener("input", function (event) {
    var box = event.target;
    var selector = box && box.getAttribute && box.getAttribute("data-filter");
    if (!selector) { return; }
    var wanted = fold(box.value);
    var shown = 0;
    document.querySelectorAll(selector).forEach(function (item) {
      var match = !wanted || fold(item.getAttribute("data-name") || item.textContent).indexOf(wanted) !== -1;
      item.hidden = !match;
      if (match) { shown += 1; }
    });
    var counter = box.getAttribute("data-filter-count");
    var target = counter && document.getElementById(counter);
    if (target) { target.textContent = wanted ? shown + " shown" : ""; }
  });

  // A box that scrolls sideways takes the focus (the arrow keys then scroll it) and is named
  // after its table's caption or its section's heading; marked again when a live redraw
  // replaces it or the window changes size, unmarked when it no longer scrolls.
  var SCROLLERS = ".table-scroll, .bracket-scroll, .sheet, .scorecard";
  function scrollerName(box) {
    var caption = box.querySelector("caption");
    var section = box.closest("section, .card");
    var heading = caption || (section && section.querySelector("h2, h3"));
    var text = heading ? heading.textContent.replace(/\s+/g, " ").trim() : "";
    return (text ? text + ": " : "") + "scrolls sideways";
  }
  function markScrollers() {
    document.querySelectorAll(SCROLLERS).forEach(function (box) {
      var scrolls = box.scrollWidth > box.clientWidth;
      if (scrolls && !box.hasAttribute("tabindex")) {
        box.setAttribute("tabindex", "0");
        box.setAttribute("role", "region");
        box.setAttribute("aria-label", scrollerName(box));
        box.setAttribute("data-scroller", "");
      } else if (!scrolls && box.hasAttribute("data-scroller")) {
        ["tabindex", "role", "aria-label", "data-scroller"].forEach(function (name) {
          box.removeAttribute(name);
        });
      }
    });
  }
  var pending = false;
  function markSoon() {
    if (pending) { return; }
    pending = true;
    window.requestAnimationFrame(function () { pending = false; markScrollers(); });
  }
  markScrollers();
  window.addEventListener("load", markSoon);
  window.addEventListener("resize", markSoon);
  if (window.MutationObserver) {
    new MutationObserver(markSoon).observe(document.body, { childList: true, subtree: true });
  }
})();
