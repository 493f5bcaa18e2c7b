/* Score entry: validate as you type, fill the other side's counters, show only the fields of the
 * chosen outcome, and (on the table's phone) save through the API with retries that reuse the
 * form's idempotency key. Without this script the form posts normally and the server answers
 * with the same field-level messages. */
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

  // Table phone: save through the API; network failures are retried with the same key.
  var submitUrl = form.dataset.submitUrl;
  if (submitUrl) {
    var button = form.querySelector("[data-save]");
    var busy = false;
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      if (busy) return;
      busy = true;
      var body = values();
      body.number = parseInt(val("number"), 10);
      var idem = val("idempotency_key");
      var label = button ? button.textContent : "";
      if (button) { button.disabled = true; button.textContent = "Saving…"; }
      var attempt = 0;
      function done() { busy = false; if (button) { button.disabled = false; button.textContent = label; } }
      function send() {
        attempt += 1;
        fetch(submitUrl, {
          method: "POST",
          headers: { "Content-Type": "application/json", "Accept": "application/json", "Idempotency-Key": idem },
          body: JSON.stringify(body)
        }).then(function (r) {
          if (r.status >= 500) throw new Error("server " + r.status);
          return r.json().then(function (b) { return { status: r.status, body: b }; });
        }).then(function (res) {
          if (res.status === 200 || res.status === 201) {
            window.location.assign(form.dataset.pageUrl + "?saved=" + res.body.number);
            return;
          }
          done();
          if (res.status === 409) {
            var box = document.querySelector("[data-conflict-js]");
            if (box) {
              box.querySelector("[data-conflict-message]").textContent = res.body.errors[0].message;
              var cur = res.body.current || {};
              box.querySelector("[data-conflict-summary]").textContent = describe(cur);
              box.hidden = false;
              box.scrollIntoView({ behavior: "smooth" });
            }
            return;
          }
          showErrors((res.body && res.body.errors) || [], true);
          setPreview("Not saved: fix the fields marked in red.", "bad");
          var bad = form.querySelector(".has-error input, .has-error");
          if (bad && bad.scrollIntoView) bad.scrollIntoView({ block: "center" });
        }).catch(function () {
          if (attempt < 5) {
            if (button) button.textContent = "No connection – retrying…";
            setTimeout(send, Math.min(8000, 1000 * Math.pow(2, attempt - 1)));
          } else {
            done();
            setPreview("Could not reach the server. Tap save again: the hand will not be stored twice.", "bad");
          }
        });
      }
      send();
    });
  }

  function describe(v) {
    var parts = ["Dealer " + (v.dealer || "?")];
    if (v.outcome === "misdeal") return parts.concat(["misdeal"]).join(" · ");
    parts.push((v.bidder || "?") + " bid " + (v.bid || "?") + (v.trump ? " in " + ({ S: "♠", H: "♥", D: "♦", C: "♣" })[v.trump] : ""));
    if (v.outcome && v.outcome !== "played") parts.push(v.outcome.replace("_", " ") + (v.renege_seat ? " by " + v.renege_seat : ""));
    ["meld", "counters"].forEach(function (g) {
      if (v[g]) parts.push(g + " " + Object.keys(v[g]).sort().reverse().map(function (s) { return s + " " + v[g][s]; }).join(" / "));
    });
    return parts.join(" · ");
  }

  applyOutcome();
  if (form.querySelector(".has-error")) {
    // The server rejected the last try: keep its messages, check again once the user types.
  } else if (val("bid") !== "") {
    check();
  }
})();
