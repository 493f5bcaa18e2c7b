// The bracket page stays live: every few seconds fetch the drawn bracket and swap it in when
// it changed (a result arrived, a match was seated).
(function () {
  "use strict";
  var live = document.getElementById("bracket-live");
  if (!live) { return; }
  var url = live.getAttribute("data-fragment-url");
  var busy = false;

  function refresh() {
    if (busy || document.hidden) { return; }
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
        }
      })
      .catch(function () { /* keep the last bracket on screen; try again on the next tick */ })
      .then(function () { busy = false; });
  }

  window.setInterval(refresh, 4000);
}());
