/* An archive import's status page: while the job runs, fetch its fragment every 2 seconds and
 * put it in place of the old one; the fragment of a finished job has no data-poll-url, which
 * stops the polling. Without JavaScript the page's Refresh link does the same. */
(function () {
  "use strict";
  if (!window.Live) { return; }
  var failed = false;  // a failed request waits a tick more
  var timer = window.Live.every(2000, function () {
    var region = document.getElementById("import-job");
    var url = region && region.getAttribute("data-poll-url");
    if (!url) { timer.stop(); return; }
    if (failed) { failed = false; return; }
    fetch(url, { credentials: "same-origin", headers: { "Accept": "text/html" } })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (html) {
          var holder = document.createElement("div");
          holder.innerHTML = html.trim();
          var fresh = holder.firstElementChild;
          if (fresh) { region.replaceWith(fresh); }
        }
      })
      .catch(function () { failed = true; });
  }, { whenHidden: true, onVisible: false });
}());
