/* Score entry: validate as you type, fill the other side's counters, show only the fields of the
 * chosen outcome, and (on the table's phone) save through the table's queue (table_offline.js,
 * offline_queue.js): each hand with its own idempotency key, sent at once or kept on the phone
 * until the network is back, the page redrawn in place. Without this script (or without the
 * queue's scripts) the form posts normally and the server answers with the same field-level
 * messages.
 *
 * Two kinds of messages: the *live* ones (the check of what is typed, redrawn after every pause
 * in the typing: computed here by hand_preview.js from the ruleset in the form's data-rules,
 * exactly as the check endpoint would answer; the endpoint is asked only for a hand that script
 * cannot decide) and the *server's refusals* (a save, a correction refused with 400, 403 or 409,
 * as rendered with the page or answered to the script). A refusal stays next to its field until
 * that field is edited, or (a refusal of the whole hand: a closed round, a confirmed game) until
 * the player dismisses it; while one stands, the preview says "Not saved", never the score. */
(function () {
  "use strict";
  // The page's language (Django's JavaScript catalog, /jsi18n/, loaded before this script);
  // English when the catalog is absent (the table page kept offline).
  var gettext = window.gettext || function (s) { return s; };
  var ngettext = window.ngettext || function (s, p, n) { return n === 1 ? s : p; };
  var interpolate = window.interpolate || function (f, o) {
    return f.replace(/%\((\w+)\)s/g, function (m, k) { return String(o[k]); });
  };
  var form = document.querySelector("form[data-hand-form]");
  if (!form || !window.fetch) return;

  var sides = (form.dataset.sides || "").split(" ").filter(Boolean);
  // the table's seats clockwise (a fourth player at a three-handed table sits out as dealer)
  var tableSeats = (form.dataset.seats || "").split(" ").filter(Boolean);
  var total = parseInt(form.dataset.countersTotal || "0", 10);
  var outcomeFields = JSON.parse(form.dataset.outcomeFields || "{}");
  var rules = null;  // the ruleset as hand_preview.js reads it (none: every check asks the server)
  try { rules = JSON.parse(form.dataset.rules || "null"); } catch (e) { rules = null; }
  var preview = form.querySelector("[data-preview]");
  var actions = form.querySelector(".entry-actions");
  var server = {};  // slot key -> the server's refusal shown there (kept until the player acts)
  var live = {};    // slot key -> the live check's message
  var lastPreview = { text: "", cls: "" };
  var touched = {};
  var typedCounters = {};
  var timer = null;
  var seq = 0;

  function field(name) { return form.elements[name]; }
  function val(name) { var f = field(name); return f ? (f.value || "") : ""; }
  function num(text) { return /^\d+$/.test(text) ? parseInt(text, 10) : text; }
  function key(name) { return (!name || name === "__all__") ? "general" : String(name).replace(/\./g, "_"); }

  // meld and counters per side, and the tricks each side took where the ruleset needs them
  var groups = ["meld", "counters"].concat(sides.length && field("tricks_" + sides[0]) ? ["tricks"] : []);

  function values() {
    var outcome = val("outcome") || "played";
    var wanted = outcomeFields[outcome] || [];
    var v = { dealer: val("dealer"), outcome: outcome };
    ["bidder", "bid", "trump", "renege_seat", "partner", "misdeal_seat"].forEach(function (name) {
      if (wanted.indexOf(name) >= 0 && val(name) !== "") v[name] = name === "bid" ? num(val(name)) : val(name);
    });
    if (wanted.indexOf("widow_seen") >= 0 && val("widow_seen") === "no") v.widow_seen = false;
    if (wanted.indexOf("check_melds") >= 0) {
      // check pinochle: the ticked melds per player, a double marriage as often as counted
      var checks = {};
      form.querySelectorAll("[data-checks-for]").forEach(function (box) {
        var side = box.getAttribute("data-checks-for"), names = [];
        box.querySelectorAll("input[type=checkbox]:checked").forEach(function (c) { names.push(c.value); });
        var n = parseInt(val("double_marriages_" + side), 10) || 0;
        for (var i = 0; i < n && i < 4; i++) names.push("double_marriage");
        if (names.length) checks[side] = names;
      });
      v.check_melds = checks;
    }
    groups.forEach(function (group) {
      if (wanted.indexOf(group) < 0) return;
      var d = {};
      sides.forEach(function (s) { var x = val(group + "_" + s).trim(); if (x !== "") d[s] = num(x); });
      v[group] = d;
    });
    return v;
  }

  function slotKey(k) {
    return form.querySelector('[data-error-for="' + k + '"]') ? k : "general";
  }

  function join(a, b) { return !a ? (b || "") : (!b || a === b ? a : a + " " + b); }

  // Draw both kinds of messages in their slots (the server's first).
  function paint() {
    form.querySelectorAll("[data-error-for]").forEach(function (slot) {
      var k = slot.getAttribute("data-error-for");
      var text = join(server[k], live[k]);
      slot.textContent = text;
      if (server[k]) { slot.setAttribute("data-server", ""); } else { slot.removeAttribute("data-server"); }
      var box = slot.closest(".fld, .num-field");
      if (box) { box.classList.toggle("has-error", !!text); }
    });
    var dismiss = form.querySelector("[data-dismiss-refusal]");
    if (server.general && !dismiss) {
      dismiss = document.createElement("button");
      dismiss.type = "button";
      dismiss.className = "btn secondary dismiss";
      dismiss.setAttribute("data-dismiss-refusal", "");
      dismiss.textContent = gettext("Dismiss this message");
      var general = form.querySelector('[data-error-for="general"]');
      if (general) { general.insertAdjacentElement("afterend", dismiss); }
    }
    if (dismiss) { dismiss.hidden = !server.general; }
    showPreview();
  }

  function refused() { return Object.keys(server).length > 0; }

  // The preview next to the save button: the score of what is typed, unless the server refused
  // the hand and its message still stands (then it says so, never "made").
  function showPreview() {
    if (!preview) return;
    var text = lastPreview.text, cls = lastPreview.cls;
    if (refused()) {
      text = server.general ? gettext("Not saved: see the message above.")
        : gettext("Not saved: fix the fields marked in red.");
      cls = "bad";
    }
    preview.textContent = text;
    preview.className = "preview" + (cls ? " " + cls : "");
  }

  function clearErrors() { live = {}; paint(); }
  function clearRefusals() { server = {}; paint(); }

  function isTouched(k) {
    if (touched[k]) return true;
    return Object.keys(touched).some(function (t) { return t.indexOf(k + "_") === 0; });
  }

  // The live check's messages; while typing, only for fields already touched. Returns how many.
  function showErrors(errors, all) {
    live = {};
    var shown = 0;
    errors.forEach(function (e) {
      var k = key(e.field);
      if (!all && !isTouched(k)) return;
      var slot = slotKey(k);
      live[slot] = join(live[slot], e.message);
      shown += 1;
    });
    paint();
    return shown;
  }

  // The server refused the hand: its messages stay until the player acts.
  function showRefusal(errors) {
    server = {};
    (errors || []).forEach(function (e) {
      var slot = slotKey(key(e.field));
      server[slot] = join(server[slot], e.message);
    });
    if (!errors || !errors.length) { server.general = gettext("The server refused this hand."); }
    live = {};
    paint();
  }

  // Editing a field answers its refusal (and its group's: meld_NS answers "meld").
  function acted(name) {
    var k = key(name);
    var changed = false;
    [k, k.split("_")[0]].forEach(function (x) {
      if (x !== "general" && server[x]) { delete server[x]; changed = true; }
    });
    if (changed) { paint(); }
  }

  function setPreview(text, cls) {
    lastPreview = { text: text, cls: cls };
    showPreview();
  }

  // The messages the server rendered with the page are refusals too.
  form.querySelectorAll("[data-error-for]").forEach(function (slot) {
    var text = slot.textContent.trim();
    if (text) { server[slot.getAttribute("data-error-for")] = text; }
  });
  form.addEventListener("click", function (ev) {
    if (ev.target.closest && ev.target.closest("[data-dismiss-refusal]")) {
      delete server.general;
      paint();
    }
  });

  // The check endpoint's answer for what is typed: computed here when hand_preview.js can
  // decide the hand (every hand the form produces but a rare one), else asked of the server.
  function answer(body) {
    var local = null;
    try { local = window.HandPreview && rules ? window.HandPreview.check(rules, body, tableSeats.length ? tableSeats : undefined) : null; } catch (e) { local = null; }
    if (local) return Promise.resolve(local);
    return fetch(form.dataset.checkUrl, {
      method: "POST", headers: { "Content-Type": "application/json", "Accept": "application/json" },
      body: JSON.stringify(body)
    }).then(function (r) {
      return r.json().then(function (json) { return { status: r.status, body: json }; });
    });
  }

  function check() {
    var mine = ++seq;
    answer(values()).then(function (res) {
      if (mine !== seq) return;  // an older answer arriving late
      if (res.status === 200) {
        clearErrors();  // the live messages only: the server's refusals stay
        var pts = Object.keys(res.body.points).map(function (s) {
          var p = res.body.points[s]; return s + " " + (p >= 0 ? "+" : "") + p;
        }).join(" · ");
        setPreview(pts + " — " + res.body.result.replace("_", " "), "ok");
      } else if (res.body && res.body.errors) {
        var n = showErrors(res.body.errors, false);
        var left = res.body.errors.length - n;
        setPreview(left > 0 ? interpolate(ngettext("Still to fill in: %(count)s item",
                                                   "Still to fill in: %(count)s items", left),
                                          { count: left }, true) : "", n ? "bad" : "");
      }
    }).catch(function () { /* offline: the server checks again on save */ });
  }

  function schedule() { clearTimeout(timer); timer = setTimeout(check, 250); }

  // At a three-handed table of four the dealer sits the hand out: the dealer's number fields
  // are hidden and emptied (nothing is entered for them), the others shown.
  function applySitOut() {
    if (form.dataset.sitOut !== "dealer") return;
    var dealer = val("dealer");
    sides.forEach(function (s) {
      groups.forEach(function (g) {
        var f = field(g + "_" + s);
        if (!f) return;
        var box = f.closest(".num-field") || f.parentNode;
        var out = s === dealer;
        if (out) f.value = "";
        box.hidden = out;
      });
    });
  }

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

  // Counters shown with the page (a correction's stored values) were not typed here: typing one
  // side fills the other.
  sides.forEach(function (s) { typedCounters[s] = false; });

  form.addEventListener("input", function (ev) {
    var name = ev.target.name;
    if (!name) return;
    touched[key(name)] = true;
    acted(name);
    if (name.indexOf("counters_") === 0) { acted("counters"); }
    if (name.indexOf("counters_") === 0) fillCounters(name);
    if (name === "outcome") applyOutcome();
    if (name === "dealer") applySitOut();
    schedule();
  });
  form.addEventListener("change", function (ev) {
    if (ev.target.name === "outcome") applyOutcome();
    if (ev.target.name === "dealer") applySitOut();
    if (ev.target.name) { touched[key(ev.target.name)] = true; acted(ev.target.name); schedule(); }
  });

  // The sticky save bar never hides the field being typed in: the page scrolls it above the bar
  // (the on-screen keyboard shrinks the visual viewport; the bar sits on top of it).
  function barHeight() { return actions ? actions.getBoundingClientRect().height : 0; }
  function keepVisible(target) {
    if (!actions || !target || actions.contains(target)) return;
    var box = target.closest(".num-field, .fld, fieldset") || target;
    var rect = box.getBoundingClientRect();
    var view = window.visualViewport ? window.visualViewport.height : window.innerHeight;
    var limit = view - barHeight() - 8;
    if (rect.bottom > limit) {
      window.scrollBy(0, Math.min(rect.bottom - limit, Math.max(0, rect.top - 8)));
    }
  }
  if (actions && window.getComputedStyle(actions).position === "sticky") {
    document.documentElement.style.scrollPaddingBottom = Math.ceil(barHeight() + 12) + "px";
    form.addEventListener("focusin", function (ev) {
      // after the browser's own scrolling (and the keyboard's opening) for this focus
      setTimeout(function () { keepVisible(ev.target); }, 50);  // not a poll: after the browser scrolls
    });
    if (window.visualViewport) {
      window.visualViewport.addEventListener("resize", function () {
        if (form.contains(document.activeElement)) { keepVisible(document.activeElement); }
      });
    }
  }

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
    var banner = document.querySelector("[data-saved-banner]");
    var pristine = !form.querySelector(".has-error") && !refused();
    var editing = null;  // the key of the queued hand shown in the form for a correction

    var setLabel = function (number, correcting) {
      if (title) {
        title.textContent = interpolate(correcting ? gettext("Correct hand %(number)s (not sent yet)")
          : gettext("Hand %(number)s"), { number: number }, true);
      }
      if (button) { button.textContent = interpolate(gettext("Save hand %(number)s"), { number: number }, true); }
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
        groups.forEach(function (g) {
          var f = field(g + "_" + s);
          var x = v[g] && v[g][s];
          if (f) { f.value = x === undefined || x === null ? "" : String(x); }
        });
      });
      touched = {};
      typedCounters = {};
      sides.forEach(function (s) { typedCounters[s] = false; });
      server = {};
      live = {};
      setPreview("", "");
      paint();
      applyOutcome();
      applySitOut();
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
        (body && body.errors && body.errors[0] && body.errors[0].message) || gettext("This hand was already entered.");
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
      if (!pristine && !window.confirm(interpolate(gettext("Put hand %(number)s in the form? What is " +
                                                           "typed now is cleared."), { number: item.number }, true))) { return; }
      fill(item.number, item.values);
      editing = item.key;
      pristine = false;
      setLabel(item.number, true);
      showRefusal((item.error && item.error.body && item.error.body.errors) || []);
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
      if (button) { button.disabled = true; button.textContent = gettext("Saving…"); }
      if (conflictBox) { conflictBox.hidden = true; }
      entry.submit(item).then(function (res) {
        busy = false;
        if (button) { button.disabled = false; button.textContent = label; }
        if (res.state === "stored" || res.state === "queued") {
          reset(entry.next());
          window.scrollTo(0, 0);
          return;
        }
        // Refused: nothing may look saved (no "saved" line, no score in the preview).
        if (banner) { banner.hidden = true; }
        if (res.state === "conflict") {
          server = { general: gettext("Another phone entered this hand first: compare the stored values above.") };
          paint();
          showConflict(res.body);
          entry.refresh();  // the stored hand appears in the list; the typed one stays in the form
          return;
        }
        var errors = (res.body && res.body.errors) || [];
        showRefusal(errors);
        if (errors.some(function (e) { return e.field === "scorer"; })) {
          document.dispatchEvent(new CustomEvent("table:keeper-needed", { detail: res.body }));
        }
        var bad = server.general ? form.querySelector('[data-error-for="general"]')
          : form.querySelector(".has-error input, .has-error");
        if (bad && bad.scrollIntoView) { bad.scrollIntoView({ block: "center" }); }
      });
    });

    // A page from the server or from the phone's copy: the next hand counts the queued ones and
    // gets a key of its own (a copy of the page must never reuse one).
    if (pristine) { reset(entry.next()); } else { field("idempotency_key").value = entry.newKey(); }
  }

  applyOutcome();
  applySitOut();
  paint();
  if (refused()) {
    // The server rejected the last try: keep its messages, check again once the user types.
  } else if (val("bid") !== "") {
    check();
  }
})();
