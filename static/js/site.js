/* Behaviour every page may use, without inline event handlers (the Content-Security-Policy
 * refuses those): a button with data-print prints the page; a form with data-confirm="question"
 * asks before it is sent. */
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
})();
