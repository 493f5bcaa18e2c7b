/* The event form: the individual progressive settings show only when that format is chosen
 * (without JavaScript they are always shown and ignored for other formats). Choosing the format
 * also relabels "Rounds" as "Qualifying games" and, while the director has not changed them,
 * swaps the default rounds and deals (club night 4 rounds of 8 deals, NPA 6 games of 4). */
(function () {
  "use strict";
  var PROGRESSIVE = "individual_progressive";
  var DEFAULTS = { club_night: { rounds: "4", deals: "8" }, individual_progressive: { rounds: "6", deals: "4" } };
  var select = document.querySelector("[data-format-select]");
  var group = document.getElementById("progressive-settings");
  if (!select || !group) { return; }
  var rounds = document.getElementById("id_rounds_planned");
  var deals = document.getElementById("id_deals_per_round");
  var roundsLabel = rounds && document.querySelector("label[for='id_rounds_planned']");
  var previous = select.value || "club_night";

  function apply() {
    var format = select.value || "club_night";
    var progressive = format === PROGRESSIVE;
    group.hidden = !progressive;
    if (roundsLabel) {
      roundsLabel.textContent = rounds.getAttribute(progressive ? "data-progressive-label" : "data-label");
    }
    var before = DEFAULTS[previous], after = DEFAULTS[format];
    if (before && after && format !== previous) {
      if (rounds && rounds.value === before.rounds) { rounds.value = after.rounds; }
      if (deals && deals.value === before.deals) { deals.value = after.deals; }
    }
    previous = format;
  }

  select.addEventListener("change", apply);
  apply();
})();
