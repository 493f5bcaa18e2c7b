/* The event form: each format's settings show only when that format is chosen (without
 * JavaScript they are always shown and the server ignores the ones the format does not use).
 *  - Individual progressive: its group; "Rounds" reads "Qualifying games" and, while the
 *    director has not changed them, the default rounds and deals swap (club night and the pair
 *    formats 4 rounds of 8 deals, NPA 6 games of 4).
 *  - The pair formats: the "Pairs" group, and in it the settings the chosen format uses
 *    (data-pair-formats), the playoff's options for its kind of bracket (data-playoff-kinds),
 *    the pair tie-breaks instead of the individual ones, and "Rounds (not used)" for a round
 *    robin or a bracket, with a word on what the rounds mean for the chosen pair format. */
(function () {
  "use strict";
  var PROGRESSIVE = "individual_progressive";
  var PAIRS = ["swiss", "round_robin", "ab_movement", "winners_stay", "single_elimination",
               "double_elimination"];
  var CLUB = { rounds: "4", deals: "8" };
  var DEFAULTS = { club_night: CLUB, individual_progressive: { rounds: "6", deals: "4" } };
  PAIRS.forEach(function (name) { DEFAULTS[name] = CLUB; });
  var select = document.querySelector("[data-format-select]");
  var group = document.getElementById("progressive-settings");
  var pairGroup = document.getElementById("pair-settings");
  var playoffKind = document.getElementById("id_playoff_kind");
  var rounds = document.getElementById("id_rounds_planned");
  var roundsHelp = document.getElementById("rounds_planned-help");
  var deals = document.getElementById("id_deals_per_round");
  var roundsLabel = rounds && document.querySelector("label[for='id_rounds_planned']");
  var previous = select ? select.value || "club_night" : null;

  function listed(element, attribute, value) {
    return (element.getAttribute(attribute) || "").split(" ").indexOf(value) !== -1;
  }

  function showTieBreaks(kind) {
    var boxes = document.querySelectorAll("input[data-tie-break-for]");
    Array.prototype.forEach.call(boxes, function (box) {
      var used = listed(box, "data-tie-break-for", kind);
      var wrapper = box.closest("div") || box.parentNode;
      wrapper.hidden = !used;
      box.disabled = !used;  // a hidden box is not sent
      var text = box.getAttribute("data-label-" + kind);
      var label = box.closest("label");
      if (used && text && label && label.lastChild && label.lastChild.nodeType === 3) {
        label.lastChild.textContent = " " + text;
      }
    });
  }

  // format: the chosen one; null on an event's settings page (its format is fixed and the
  // page has only its fields), where only the playoff's options follow its kind.
  function showPairs(format) {
    if (!pairGroup) { return; }
    if (format !== null) {
      pairGroup.hidden = PAIRS.indexOf(format) === -1;
      var rows = pairGroup.querySelectorAll("[data-pair-formats]");
      Array.prototype.forEach.call(rows, function (row) {
        row.hidden = !listed(row, "data-pair-formats", format);
      });
    }
    var kind = playoffKind ? playoffKind.value : "";
    var options = pairGroup.querySelectorAll("[data-playoff-kinds]");
    Array.prototype.forEach.call(options, function (row) {
      row.hidden = !kind || !listed(row, "data-playoff-kinds", kind);
    });
  }

  function apply() {
    var format = select.value || "club_night";
    var progressive = format === PROGRESSIVE;
    var pairs = PAIRS.indexOf(format) !== -1;
    if (group) { group.hidden = !progressive; }
    showPairs(format);
    showTieBreaks(pairs ? "pairs" : "individual");
    if (roundsLabel) {
      var unused = listed(rounds, "data-unused-formats", format);
      roundsLabel.textContent = rounds.getAttribute(
        progressive ? "data-progressive-label" : unused ? "data-unused-label" : "data-label");
    }
    if (roundsHelp) {
      var help = {};
      try { help = JSON.parse(rounds.getAttribute("data-pair-help") || "{}"); } catch (e) { help = {}; }
      roundsHelp.hidden = !help[format];
      if (help[format]) { roundsHelp.textContent = help[format]; }
    }
    var before = DEFAULTS[previous], after = DEFAULTS[format];
    if (before && after && format !== previous) {
      if (rounds && rounds.value === before.rounds) { rounds.value = after.rounds; }
      if (deals && deals.value === before.deals) { deals.value = after.deals; }
    }
    previous = format;
  }

  if (playoffKind) {
    playoffKind.addEventListener("change", function () {
      showPairs(select ? select.value || "club_night" : null);
    });
  }
  if (!select) {
    showPairs(null);
    return;
  }
  select.addEventListener("change", apply);
  apply();
})();
