/* "Where do I sit?" on the event page: the search box works as a plain GET form (?find=);
 * with JavaScript the answers follow the typing (from two letters on, a quarter of a second
 * after the last key), from GET /api/events/N/seating/?name=...
 * (each answer is the API's own sentence, so the page and the API say the same thing). */
(function () {
  "use strict";
  // The page's language (Django's JavaScript catalog, /jsi18n/, loaded before this script);
  // English when the catalog is absent (the table page kept offline).
  var gettext = window.gettext || function (s) { return s; };
  var ngettext = window.ngettext || function (s, p, n) { return n === 1 ? s : p; };
  var interpolate = window.interpolate || function (f, o) {
    return f.replace(/%\((\w+)\)s/g, function (m, k) { return String(o[k]); });
  };
  var form = document.querySelector("form[data-find-seat]");
  if (!form || !window.fetch) { return; }
  var input = form.querySelector("input[name=find]");
  var list = document.getElementById("find-seat-answers");
  var api = form.getAttribute("data-api-url");
  var timer = null;
  var asked = 0;

  function show(items) {
    list.textContent = "";
    items.forEach(function (item) {
      var li = document.createElement("li");
      li.className = item.className;
      li.textContent = item.text;
      list.appendChild(li);
    });
  }

  function ask(submitted) {
    var name = input.value.trim();
    var mine = ++asked;
    if (!name || (name.length < 2 && !submitted)) { show([]); return; }
    fetch(api + "?name=" + encodeURIComponent(name),
          { headers: { Accept: "application/json" }, cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        return response.json().then(function (body) { return { ok: response.ok, body: body }; });
      })
      .then(function (answer) {
        if (mine !== asked) { return; }  // a later keystroke already asked again
        if (!answer.ok) {
          var errors = (answer.body && answer.body.errors) || [];
          show([{ className: "none error", text: errors.length ? errors[0].message : gettext("Try again.") }]);
          return;
        }
        var players = answer.body.players || [];
        if (!players.length) {
          show([{ className: "none", text: interpolate(gettext("Nobody called “%(name)s” is in this event."), { name: name }, true) }]);
          return;
        }
        show(players.map(function (p) { return { className: "state-" + p.state, text: p.answer }; }));
      })
      .catch(function () { /* offline: the form still submits */ });
  }

  input.addEventListener("input", function () {
    window.clearTimeout(timer);
    timer = window.setTimeout(function () { ask(false); }, 250);  // not a poll: typing settles first
  });
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    window.clearTimeout(timer);
    ask(true);
    if (window.history && window.history.replaceState) {
      var url = new URL(window.location.href);
      url.searchParams.set("find", input.value.trim());
      url.hash = "find-seat";
      window.history.replaceState(null, "", url.toString());
    }
  });
})();
