/* Behaviour every page may use, without inline event handlers (the Content-Security-Policy
 * refuses those): a button with data-print prints the page; a form with data-confirm="question"
 * asks before it is sent; a search box with data-filter="CSS selector" hides the matching
 * elements whose text (or data-name) does not contain what is typed, ignoring case and accents. */
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
})();
