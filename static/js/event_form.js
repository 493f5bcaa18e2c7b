/* The event form: each format's settings show only when that format is chosen (without
 * JavaScript they are always shown and the server ignores the ones the format does not use).
 * What each format is comes from the page (#format-data, written from the format registry):
 * whether it takes pairs, what its planned rounds are called and their defaults.
 *  - The individual formats' settings (data-individual-formats) and the pair formats' ("Pairs"
 *    group, data-pair-formats) show for the formats each row names; the playoff's options for
 *    its kind of bracket (data-playoff-kinds); the pair tie-breaks instead of the individual
 *    ones for a pair format; "Rounds" takes the chosen format's label and, while the director
 *    has not changed them, its default rounds and deals. */
(function () {
  "use strict";
  var data = document.getElementById("format-data");
  var FORMATS = data ? JSON.parse(data.textContent) : {};
  var select = document.querySelector("[data-format-select]");
  var group = document.getElementById("progressive-settings");
  var pairGroup = document.getElementById("pair-settings");
  var playoffKind = document.getElementById("id_playoff_kind");
  var rounds = document.getElementById("id_rounds_planned");
  var roundsHelp = document.getElementById("rounds_planned-help");
  var deals = document.getElementById("id_deals_per_round");
  var roundsLabel = rounds && document.querySelector("label[for='id_rounds_planned']");
  var first = Object.keys(FORMATS)[0] || "";
  var previous = select ? select.value || first : null;

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

  function showRows(container, attribute, format) {
    var rows = container.querySelectorAll("[" + attribute + "]");
    var any = false;
    Array.prototype.forEach.call(rows, function (row) {
      row.hidden = !listed(row, attribute, format);
      any = any || !row.hidden;
    });
    return any;
  }

  // format: the chosen one; null on an event's settings page (its format is fixed and the
  // page has only its fields), where only the playoff's options follow its kind.
  function showPairs(format) {
    if (!pairGroup) { return; }
    if (format !== null) {
      pairGroup.hidden = !(FORMATS[format] || {}).pairs;
      showRows(pairGroup, "data-pair-formats", format);
    }
    var kind = playoffKind ? playoffKind.value : "";
    var options = pairGroup.querySelectorAll("[data-playoff-kinds]");
    Array.prototype.forEach.call(options, function (row) {
      row.hidden = !kind || !listed(row, "data-playoff-kinds", kind);
    });
  }

  function apply() {
    var format = select.value || first;
    var spec = FORMATS[format] || {};
    if (group) { group.hidden = !showRows(group, "data-individual-formats", format); }
    showPairs(format);
    showTieBreaks(spec.pairs ? "pairs" : "individual");
    if (roundsLabel && spec.rounds_label) { roundsLabel.textContent = spec.rounds_label; }
    var formatHelp = document.getElementById("format-help");
    if (formatHelp && spec.summary) { formatHelp.textContent = spec.summary; }
    if (roundsHelp) {
      roundsHelp.hidden = !spec.rounds_help;
      if (spec.rounds_help) { roundsHelp.textContent = spec.rounds_help; }
    }
    var before = FORMATS[previous], after = spec;
    if (before && after.rounds && format !== previous) {
      if (rounds && rounds.value === before.rounds) { rounds.value = after.rounds; }
      if (deals && deals.value === before.deals) { deals.value = after.deals; }
    }
    previous = format;
  }

  if (playoffKind) {
    playoffKind.addEventListener("change", function () {
      showPairs(select ? select.value || first : null);
    });
  }
  if (!select) {
    showPairs(null);
    return;
  }
  select.addEventListener("change", apply);
  apply();
})();
