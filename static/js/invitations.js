/* Invitation links: a button with data-copy="ID" copies the value of the input with that id
 * (the clipboard API where the page is secure, else the selected text), and says so. */
(function () {
  "use strict";
  // The page's language (Django's JavaScript catalog, /jsi18n/, loaded before this script);
  // English when the catalog is absent (the table page kept offline).
  var gettext = window.gettext || function (s) { return s; };
  var ngettext = window.ngettext || function (s, p, n) { return n === 1 ? s : p; };
  var interpolate = window.interpolate || function (f, o) {
    return f.replace(/%\((\w+)\)s/g, function (m, k) { return String(o[k]); });
  };
  function copied(button) {
    var label = button.textContent;
    button.textContent = gettext("Copied");
    window.setTimeout(function () { button.textContent = label; }, 1500);
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-copy]");
    if (!button) { return; }
    var input = document.getElementById(button.getAttribute("data-copy"));
    if (!input) { return; }
    event.preventDefault();
    input.focus();
    input.select();
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(input.value).then(function () { copied(button); },
        function () { if (document.execCommand("copy")) { copied(button); } });
    } else if (document.execCommand("copy")) {
      copied(button);
    }
  });
})();
