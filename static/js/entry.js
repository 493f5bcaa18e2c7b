/* Score entry: validate as you type, fill the other side's counters, show only the fields of the
 * chosen outcome, and (on the table's phone) save through the table's queue (table_offline.js,
 * offline_queue.js): each hand with its own idempotency key, sent at once or kept on the phone
 * until the network is back, the page redrawn in place. Without this script (or without the
 * queue's scripts) the form posts normally and the server answers with the same field-level
 * messages. */
(function () {
  "use strict";
  var form = document.querySelector("form[data-hand-form]");
  if (!form || !window.fetch) return;

  var sides = (form.dataset.sides || "").split(" ").filter(Boolean);
  var total = parseInt(form.dataset.countersTotal || "0", 10);
  var outcomeFields = JSON.parse(form.dataset.outcomeFields || "{}");
  var preview = form.querySelector("[data-preview]");
  var touched = {};
  var typedCounters = {};
  var timer = null;
  var seq = 0;

  function field(name) { return form.elements[name]; }
  function val(name) { var f = field(name); return f ? (f.value || "") : ""; }
  function num(text) { return /^\d+$/.test(text) ? parseInt(text, 10) : text; }
  function key(name) { return (!name || name === "__all__") ? "general" : String(name).replace(/\./g, "_"); }

  function values() {
    var outcome = val("outcome") || "played";
    var wanted = outcomeFields[outcome] || [];
    var v = { dealer: val("dealer"), outcome: outcome };
    ["bidder", "bid", "trump", "renege_seat"].forEach(function (name) {
      if (wanted.indexOf(name) >= 0 && val(name) !== "") v[name] = name === "bid" ? num(val(name)) : val(name);
    });
    ["meld", "counters"].forEach(function (group) {
      if (wanted.indexOf(group) < 0) return;
      var d = {};
      sides.forEach(function (s) { var x = val(group + "_" + s).trim(); if (x !== "") d[s] = num(x); });
      v[group] = d;
    });
    return v;
  }

  function clearErrors() {
    form.querySelectorAll("[data-error-for]").forEach(function (el) { el.textContent = ""; });
    form.querySelectorAll(".has-error").forEach(function (el) { el.classList.remove("has-error"); });
  }

  function isTouched(k) {
    if (touched[k]) return true;
    return Object.keys(touched).some(function (t) { return t.indexOf(k + "_") === 0; });
  }

  // Show messages next to their fields; while typing, only for fields already touched.
  function showErrors(errors, all) {
    clearErrors();
    var shown = 0;
    errors.forEach(function (e) {
      var k = key(e.field);
      if (!all && !isTouched(k)) return;
      var slot = form.querySelector('[data-error-for="' + k + '"]') || form.querySelector('[data-error-for="general"]');
      if (!slot) return;
      slot.textContent = (slot.textContent ? slot.textContent + " " : "") + e.message;
      var box = slot.closest(".fld, .num-field");
      if (box) box.classList.add("has-error");
      shown += 1;
    });
    return shown;
  }

  function setPreview(text, cls) {
    if (!preview) return;
    preview.textContent = text;
    preview.className = "preview" + (cls ? " " + cls : "");
  }

  function check() {
    var mine = ++seq;
    fetch(form.dataset.checkUrl, {
      method: "POST", headers: { "Content-Type": "application/json", "Accept": "application/json" },
      body: JSON.stringify(values())
    }).then(function (r) {
      return r.json().then(function (body) { return { status: r.status, body: body }; });
    }).then(function (res) {
      if (mine !== seq) return;  // an older answer arriving late
      if (res.status === 200) {
        clearErrors();
        var pts = Object.keys(res.body.points).map(function (s) {
          var p = res.body.points[s]; return s + " " + (p >= 0 ? "+" : "") + p;
        }).join(" · ");
        setPreview(pts + " — " + res.body.result.replace("_", " "), "ok");
      } else if (res.body && res.body.errors) {
        var n = showErrors(res.body.errors, false);
        var left = res.body.errors.length - n;
        setPreview(left > 0 ? "Still to fill in: " + left + " item" + (left > 1 ? "s" : "") : "", n ? "bad" : "");
      }
    }).catch(function () { /* offline: the server checks again on save */ });
  }

  function schedule() { clearTimeout(timer); timer = setTimeout(check, 250); }

  function applyOutcome() {
    var outcome = val("outcome") || "played";
    form.querySelectorAll("[data-show-for]").forEach(function (el) {
      el.hidden = el.dataset.showFor.split(" ").indexOf(outcome) < 0;
    });
  }

  function fillCounters(name) {
    if (sides.length !== 2 || !total) return;
    var side = name.slice("counters_".length);
    var other = sides[0] === side ? sides[1] : sides[0];
    var x = val(name).trim();
    typedCounters[side] = x !== "";
    if (typedCounters[other]) return;  // the other side was typed by hand: leave it alone
    var n = /^\d+$/.test(x) ? parseInt(x, 10) : NaN;
    field("counters_" + other).value = (!isNaN(n) && n <= total) ? String(total - n) : "";
  }

  sides.forEach(function (s) {
    typedCounters[s] = val("counters_" + s).trim() !== "" && !form.dataset.submitUrl;
  });

  form.addEventListener("input", function (ev) {
    var name = ev.target.name;
    if (!name) return;
    touched[key(name)] = true;
    if (name.indexOf("counters_") === 0) fillCounters(name);
    if (name === "outcome") applyOutcome();
    schedule();
  });
  form.addEventListener("change", function (ev) {
    if (ev.target.name === "outcome") applyOutcome();
    if (ev.target.name) { touched[key(ev.target.name)] = true; schedule(); }
  });

  // Desktop: Enter saves from any field, selects included.
  if (form.hasAttribute("data-desk")) {
    form.addEventListener("keydown", function (ev) {
      if (ev.key === "Enter" && ev.target.tagName === "SELECT") {
        ev.preventDefault();
        if (form.requestSubmit) form.requestSubmit(); else form.submit();
      }
    });
    var first = field("outcome");
    if (first && first.focus && !document.querySelector(".has-error")) first.focus();
  }

  // Table phone: every hand goes through the table's queue (table_offline.js): sent at once
  // when the network is there, kept on the phone and sent later when it is not. The page is
  // redrawn in place; the form moves on to the next hand with a fresh idempotency key.
  var submitUrl = form.dataset.submitUrl;
  var entry = window.TableEntry;
  if (submitUrl && entry) {
    var button = form.querySelector("[data-save]");
    var title = form.querySelector(".form-title");
    var conflictBox = document.querySelector("[data-conflict-js]");
    var busy = false;
    var pristine = !form.querySelector(".has-error");
    var editing = null;  // the key of the queued hand shown in the form for a correction

    var setLabel = function (number, correcting) {
      if (title) { title.textContent = correcting ? "Correct hand " + number + " (not sent yet)" : "Hand " + number; }
      if (button) { button.textContent = "Save hand " + number; }
    };

    var tick = function (name, value) {
      form.querySelectorAll('input[type=radio][name="' + name + '"]').forEach(function (r) {
        r.checked = value !== undefined && value !== null && r.value === String(value);
      });
    };

    // Fill the form with a hand's values (none: an empty form for the next hand).
    var fill = function (number, v) {
      v = v || {};
      clearTimeout(timer);  // a check of what was typed before is no longer wanted ...
      seq += 1;             // ... nor its answer, should it still arrive
      field("number").value = String(number);
      field("idempotency_key").value = entry.newKey();
      tick("outcome", v.outcome || "played");
      tick("dealer", v.dealer);
      ["bidder", "trump", "renege_seat"].forEach(function (name) { tick(name, v[name]); });
      if (field("bid")) { field("bid").value = v.bid === undefined || v.bid === null ? "" : String(v.bid); }
      sides.forEach(function (s) {
        ["meld", "counters"].forEach(function (g) {
          var f = field(g + "_" + s);
          var x = v[g] && v[g][s];
          if (f) { f.value = x === undefined || x === null ? "" : String(x); }
        });
      });
      touched = {};
      typedCounters = {};
      sides.forEach(function (s) { typedCounters[s] = !!(v.counters && v.counters[s] !== undefined); });
      clearErrors();
      setPreview("", "");
      applyOutcome();
    };

    var reset = function (next) {
      editing = null;
      fill(next.number, { dealer: next.dealer });
      setLabel(next.number, false);
      pristine = true;
      document.dispatchEvent(new CustomEvent("table:form-reset", { detail: next }));
    };

    var showConflict = function (body) {
      if (!conflictBox) { return; }
      conflictBox.querySelector("[data-conflict-message]").textContent =
        (body && body.errors && body.errors[0] && body.errors[0].message) || "This hand was already entered.";
      conflictBox.querySelector("[data-conflict-summary]").textContent = entry.describe((body && body.current) || {});
      conflictBox.hidden = false;
      conflictBox.scrollIntoView({ behavior: "smooth" });
    };

    form.addEventListener("input", function () { pristine = false; });
    form.addEventListener("change", function () { pristine = false; });

    // The server moved on (hands stored here or by another phone): an untouched form follows.
    var follow = function (event) {
      if (pristine && !editing && !busy && event.detail && event.detail.next) { reset(event.detail.next); }
    };
    document.addEventListener("table:refreshed", follow);
    document.addEventListener("table:next", follow);

    // "Correct it" on a queued hand the server refused: its values come back into the form.
    document.addEventListener("table:edit", function (event) {
      var item = event.detail.item;
      if (!pristine && !window.confirm("Put hand " + item.number + " in the form? What is typed now is cleared.")) { return; }
      fill(item.number, item.values);
      editing = item.key;
      pristine = false;
      setLabel(item.number, true);
      showErrors((item.error && item.error.body && item.error.body.errors) || [], true);
      form.scrollIntoView({ behavior: "smooth" });
    });

    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      if (busy) { return; }
      var body = values();
      if (editing) {
        entry.replace(editing, parseInt(val("number"), 10), body);
        reset(entry.next());
        return;
      }
      var item = { key: val("idempotency_key") || entry.newKey(), number: parseInt(val("number"), 10), values: body };
      var label = button ? button.textContent : "";
      busy = true;
      if (button) { button.disabled = true; button.textContent = "Saving…"; }
      if (conflictBox) { conflictBox.hidden = true; }
      entry.submit(item).then(function (res) {
        busy = false;
        if (button) { button.disabled = false; button.textContent = label; }
        if (res.state === "stored" || res.state === "queued") {
          reset(entry.next());
          window.scrollTo(0, 0);
          return;
        }
        if (res.state === "conflict") {
          showConflict(res.body);
          entry.refresh();  // the stored hand appears in the list; the typed one stays in the form
          return;
        }
        showErrors((res.body && res.body.errors) || [], true);
        setPreview("Not saved: fix the fields marked in red.", "bad");
        var bad = form.querySelector(".has-error input, .has-error");
        if (bad && bad.scrollIntoView) { bad.scrollIntoView({ block: "center" }); }
      });
    });

    // A page from the server or from the phone's copy: the next hand counts the queued ones and
    // gets a key of its own (a copy of the page must never reuse one).
    if (pristine) { reset(entry.next()); } else { field("idempotency_key").value = entry.newKey(); }
  }

  applyOutcome();
  if (form.querySelector(".has-error")) {
    // The server rejected the last try: keep its messages, check again once the user types.
  } else if (val("bid") !== "") {
    check();
  }
})();
