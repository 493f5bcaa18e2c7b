/* The day card's page while no game is seated at its table (events/table_card_idle.html): every
 * data-card-check seconds it asks the card's address again and, as soon as that answers with a
 * table's score entry (a redirect), opens it. The page itself never reloads on a timer, so
 * nobody reading it is interrupted; without JavaScript a <noscript> refresh does the asking. */
(function () {
  "use strict";
  var holder = document.querySelector("[data-card-check]");
  if (!holder || !window.fetch || !window.Live) { return; }
  var every = Math.max(10, parseInt(holder.getAttribute("data-card-check"), 10) || 30) * 1000;
  function check() {
    if (document.hidden) { return; }
    fetch(window.location.href, { credentials: "same-origin", cache: "no-store" })
      .then(function (response) {
        if (response.ok && response.redirected && response.url !== window.location.href) {
          window.location.assign(response.url);
        }
      })
      .catch(function () { /* offline: ask again next time */ });
  }
  window.Live.every(every, check);  // live.js: the timer, and at once when shown again
})();
