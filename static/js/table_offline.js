/* The table phone page when the Wi-Fi comes and goes (the queue itself: offline_queue.js).
 *
 * - Every hand the form saves goes into the table's queue first, then is sent; while the network
 *   is down the hands stay on the phone, listed under "Saved on this phone, not yet sent (N)",
 *   and the form moves on to the next hand (its number counts the queued ones).
 * - The queue is sent in order when the network comes back (the `online` event), every few
 *   seconds while hands wait, when the page opens (also after it was closed), and on "Send now".
 *   A conflict (409) or a refused hand (400, 403) stops it at that hand, which stays listed with
 *   the server's answer until it is corrected ("Correct it" puts it back in the form) or
 *   discarded; nothing typed is lost.
 * - After hands are stored the page redraws its score and hands from /t/<token>/live/ (no
 *   reload); only a game that ends, or a round that closes, reloads the page.
 * - A service worker (/t/sw.js) keeps a copy of the page and its files, so the page opens without
 *   a network (browsers allow service workers on HTTPS and on localhost only).
 *
 * - The keeper (who keeps score on this phone) is named first, with one tap: the hand form is
 *   shown once it is named. The tap is an item of the queue (sent before the hands; kept while
 *   the network is down, the form then shown at once) and the phone remembers the keeper of the
 *   game, so that a copy of the page opened offline shows the form too. A refused tap (the round
 *   closed, another keeper named since the first hand) says why in the keeper's card.
 *
 * window.TableEntry is what entry.js (the form) and table_live.js (another phone's hands) use.
 */
(function () {
  "use strict";
  // The page's language (Django's JavaScript catalog, /jsi18n/, loaded before this script);
  // English when the catalog is absent (the table page kept offline).
  var gettext = window.gettext || function (s) { return s; };
  var ngettext = window.ngettext || function (s, p, n) { return n === 1 ? s : p; };
  var interpolate = window.interpolate || function (f, o) {
    return f.replace(/%\((\w+)\)s/g, function (m, k) { return String(o[k]); });
  };
  var root = document.querySelector("[data-entry-queue]");
  if (!root || !window.fetch || !window.EntryQueue || !window.DOMParser) { return; }

  var queue = window.EntryQueue.open(root.getAttribute("data-token"),
                                     root.getAttribute("data-submit-url"),
                                     root.getAttribute("data-scorer-url"));
  var game = root.getAttribute("data-game") || "";
  var pageUrl = root.getAttribute("data-page-url");
  var liveUrl = root.getAttribute("data-live-url");
  // the table's seats clockwise, as the page names them (the deal passes round them)
  var order = (root.getAttribute("data-dealer-order") || "").split(" ").filter(Boolean);
  var countEl = root.querySelector("[data-queue-count]");
  var statusEl = root.querySelector("[data-queue-status]");
  var listEl = root.querySelector("[data-queue-list]");
  var sendButton = root.querySelector("[data-queue-send]");
  var banner = document.querySelector("[data-saved-banner]");
  var offlineNote = document.querySelector("[data-offline-note]");
  var conflictBox = document.querySelector("[data-conflict-js]");
  var form = document.querySelector("form[data-hand-form][data-submit-url]");
  var keeperCard = document.querySelector("[data-keeper]");
  var keeperForm = keeperCard && keeperCard.querySelector("[data-keeper-form]");
  var handArea = document.querySelector("[data-hand-area]");

  function describe(values, item) {
    if (item && item.kind === "keeper") { return keeperLabel(values.position); }
    return window.EntryQueue.describe(values);
  }

  var busyCount = 0;       // a flush or a redraw is under way (table_live.js waits for it)
  var running = null;      // the flush under way
  var again = false;       // hands were added while it ran: flush again after it
  var pending = null;      // the hand the form is waiting on ({key, answer})
  var failures = 0;        // flushes in a row that found no network
  var retryTimer = null;
  var refreshing = null;
  var refreshAgain = false;  // asked again while a redraw was on its way: its answer may be old
  var queueConflict = false;  // the conflict box shows the queue's stopped hand

  function score() { return document.getElementById("table-score"); }
  function fromCache() { var s = score(); return !!s && s.getAttribute("data-copy") === "cache"; }
  function busy(delta) { busyCount = Math.max(0, busyCount + delta); }
  function emit(name, detail) { document.dispatchEvent(new CustomEvent(name, { detail: detail })); }

  /* The dealer of the hand after one dealt by `dealer`: clockwise, the same after a misdeal. */
  function after(dealer, outcome) {
    if (outcome === "misdeal") { return dealer; }
    var i = order.indexOf(dealer);
    return i < 0 ? dealer : order[(i + 1) % order.length];
  }

  /* The next hand to type: after the server's last hand (as last seen, or as confirmed since),
   * and after the hands waiting on this phone. */
  function next() {
    var s = score();
    var number = s ? parseInt(s.getAttribute("data-next-number"), 10) || 1 : 1;
    var dealer = (s && s.getAttribute("data-next-dealer")) || order[0];
    var known = queue.known();
    if (known && known.number >= number) {
      number = known.number + 1;
      dealer = after(known.dealer, known.outcome);
    }
    var items = queue.items();
    var last = items[items.length - 1];
    if (last && last.number >= number) {
      number = last.number + 1;
      dealer = after(last.dealer, last.values.outcome);
    }
    return { number: number, dealer: dealer };
  }

  // --- drawing the queue ------------------------------------------------------------------------
  function messages(item) {
    var body = (item.error && item.error.body) || {};
    return (body.errors || []).map(function (e) { return e.message; }).join(" ");
  }

  function actionButton(label, action, key) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "btn secondary";
    b.textContent = label;
    b.setAttribute("data-queue-action", action);
    b.setAttribute("data-key", key);
    return b;
  }

  function errorCodes(error) {
    var errors = (error.body && error.body.errors) || [];
    return errors.map(function (e) { return e && e.code; });
  }

  function statusText(items) {
    var head = items[0];
    var text;
    if (head && head.error && head.kind === "keeper") {
      text = gettext("Stopped at the keeper named on this phone: the server refused it (below). " +
                     "Discard it; the hands wait.");
    } else if (head && head.error && errorCodes(head.error).indexOf("game_over") >= 0) {
      // time was called (or the last deal is in) while this hand waited: nobody else's doing
      text = interpolate(gettext("Stopped at hand %(number)s: this game is over (time was " +
             "called, or its last deal was entered). Give these values to the director, or " +
             "discard them."), { number: head.number }, true);
    } else if (head && head.error) {
      text = interpolate(head.error.kind === "conflict"
        ? gettext("Stopped at hand %(number)s: another phone stored that hand first. Compare " +
                  "the values, then discard this copy (or correct the stored hand with its Fix link).")
        : head.error.kind === "closed"
          ? gettext("Stopped at hand %(number)s: this table no longer takes hands. Give these " +
                    "values to the director.")
          : gettext("Stopped at hand %(number)s: correct it (or discard it); the hands after " +
                    "it wait."), { number: head.number }, true);
    } else if (running) {
      text = gettext("Sending…");
    } else if (navigator.onLine === false) {
      text = gettext("No connection. They are sent in order as soon as the network is back.");
    } else {
      text = gettext("The server could not be reached; trying again in a few seconds.");
    }
    if (!queue.persistent()) {
      text += " " + gettext("This browser does not keep them when the page is closed: keep it open.");
    }
    return text;
  }

  function showConflict(items) {
    var head = items[0];
    if (!conflictBox) { return; }
    if (head && head.error && head.error.kind === "conflict") {
      var body = head.error.body || {};
      conflictBox.querySelector("[data-conflict-message]").textContent =
        (body.errors && body.errors[0] && body.errors[0].message) || gettext("This hand was already entered.");
      conflictBox.querySelector("[data-conflict-summary]").textContent = describe(body.current || {});
      conflictBox.hidden = false;
      queueConflict = true;
    } else if (queueConflict) {
      conflictBox.hidden = true;
      queueConflict = false;
    }
  }

  function showOffline() {
    if (!offlineNote) { return; }
    var text = "";
    if (fromCache()) {
      text = gettext("No connection: this is the copy of the page kept on this phone. Hands " +
                     "you save are kept here and sent when the network is back.");
    } else if (navigator.onLine === false) {
      text = gettext("No connection: hands you save are kept on this phone and sent when the " +
                     "network is back.");
    }
    offlineNote.textContent = text;
    offlineNote.hidden = !text;
  }

  function render() {
    // the hand the form is waiting on is not "not yet sent" until its first try has failed
    var items = queue.items().filter(function (x) { return !(pending && x.key === pending.key); });
    root.hidden = !items.length;
    countEl.textContent = String(items.length);
    listEl.textContent = "";
    items.forEach(function (item) {
      var li = document.createElement("li");
      li.className = "queue-item" + (item.error ? " stopped" : "");
      li.setAttribute("data-number", String(item.number));
      var head = document.createElement("strong");
      head.textContent = item.kind === "keeper" ? gettext("Keeper:") + " "
        : interpolate(gettext("Hand %(number)s:"), { number: item.number }, true) + " ";
      li.appendChild(head);
      li.appendChild(document.createTextNode(describe(item.values, item)));
      if (item.error) {
        var why = document.createElement("p");
        why.className = "field-error";
        why.setAttribute("role", "alert");
        why.textContent = (item.error.kind === "conflict" ? gettext("Not sent:") : gettext("Not stored:")) +
          " " + messages(item);
        li.appendChild(why);
        var actions = document.createElement("div");
        actions.className = "queue-actions";
        if (item.error.kind === "invalid" && form && item.kind !== "keeper") {
          actions.appendChild(actionButton(gettext("Correct it"), "edit", item.key));
        }
        actions.appendChild(actionButton("Discard", "discard", item.key));
        li.appendChild(actions);
      }
      listEl.appendChild(li);
    });
    statusEl.textContent = items.length ? statusText(items) : "";
    sendButton.hidden = !items.length || !!items[0].error || !!running;
    showConflict(items);
    showOffline();
  }

  function announce(sent) {
    if (!banner || !sent.length) { return; }
    var numbers = sent.map(function (b) { return b.number; });
    var text = numbers.length === 1
      ? interpolate(gettext("Hand %(number)s saved."), { number: numbers[0] }, true)
      : interpolate(gettext("Hands %(numbers)s and %(last)s saved."),
                    { numbers: numbers.slice(0, -1).join(", "), last: numbers[numbers.length - 1] }, true);
    banner.textContent = text;
    banner.hidden = false;
  }

  // --- the keeper ---------------------------------------------------------------------------------
  function serverKeeper() { var s = score(); return s ? s.getAttribute("data-scorer") || "" : ""; }
  function queuedKeeper() {
    return queue.items().filter(function (x) { return x.kind === "keeper"; })[0] || null;
  }
  function keeperLabel(position) {
    var button = keeperForm && keeperForm.querySelector('button[value="' + position + '"]');
    var name = button ? button.getAttribute("data-name") : "";
    return name ? name + " (" + position + ")" : position;
  }

  /* Show who keeps score: named (the form is offered; `pending`: not sent yet) or not (the
   * tiles). `keepForm`: a form holding a refused hand stays in view. */
  function showKeeper(position, pending, keepForm) {
    if (handArea) { handArea.hidden = !position && !keepForm; }
    if (!keeperCard) { return; }
    var ask = keeperCard.querySelector("[data-keeper-ask]");
    var note = keeperCard.querySelector("[data-keeper-pending]");
    var refusal = keeperCard.querySelector("[data-refusal]:not([hidden]), [data-keeper-error]:not([hidden])");
    if (keeperForm) { keeperForm.hidden = !!position; }
    if (ask) { ask.hidden = !!position; }
    if (note) {
      note.textContent = position && pending
        ? keeperLabel(position) + " keeps score. Saved on this phone; sent with the first hand " +
          "when the network is back."
        : "";
      note.hidden = !(position && pending);
    }
    keeperCard.hidden = !!position && !pending && !refusal;
  }

  function keeperRefused(body) {
    var error = keeperCard && keeperCard.querySelector("[data-keeper-error]");
    queue.remember(game, "");
    if (error) {
      error.textContent = (body && body.errors || []).map(function (e) { return e.message; }).join(" ") ||
        gettext("The keeper was not recorded.");
      error.hidden = false;
    }
    showKeeper(serverKeeper(), false, false);
    if (keeperCard) { keeperCard.scrollIntoView({ block: "center" }); }
  }

  function chooseKeeper(position) {
    var error = keeperCard && keeperCard.querySelector("[data-keeper-error]");
    if (error) { error.hidden = true; }
    queue.remember(game, position);
    submit({ key: window.EntryQueue.newKey(), kind: "keeper", number: 0,
             values: { position: position } }).then(function (res) {
      if (res.state === "stored") {
        showKeeper(position, false, false);
        refresh();  // "score kept by ..." under the score
      } else if (res.state === "queued") {
        showKeeper(position, true, false);
      } else {
        keeperRefused(res.body);
      }
    });
  }

  if (keeperForm) {
    keeperForm.addEventListener("click", function (event) {
      var button = event.target.closest && event.target.closest("button[name=position]");
      if (!button) { return; }
      event.preventDefault();
      chooseKeeper(button.value);
    });
  }
  // A hand refused for want of a keeper (the phone's keeper was discarded or refused): ask again.
  document.addEventListener("table:keeper-needed", function () {
    queue.remember(game, "");
    showKeeper("", false, true);
    if (keeperCard) { keeperCard.scrollIntoView({ block: "center" }); }
  });

  // --- redrawing the score and the hands ------------------------------------------------------
  /* Fetch /t/<token>/live/ and swap #table-score and #table-hands. A game that ended or a round
   * that closed meanwhile reloads the page (it then shows the confirmation or the final score). */
  function refresh() {
    if (refreshing) { refreshAgain = true; return refreshing; }
    busy(1);
    refreshing = fetch(liveUrl, { cache: "no-store", headers: { Accept: "text/html" } })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (!html) { return false; }
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.getElementById("table-score");
        var freshHands = doc.getElementById("table-hands");
        var shown = score();
        var shownHands = document.getElementById("table-hands");
        if (!fresh || !shown) { return false; }
        var cached = fresh.getAttribute("data-copy") === "cache";
        if (parseInt(fresh.getAttribute("data-version"), 10) < parseInt(shown.getAttribute("data-version"), 10)) {
          return false;  // an older copy kept by the service worker
        }
        var before = shown.getAttribute("data-status") + "/" + shown.getAttribute("data-can-enter");
        shown.replaceWith(document.importNode(fresh, true));
        if (freshHands && shownHands) { shownHands.replaceWith(document.importNode(freshHands, true)); }
        var now = score();
        if (!cached) {
          queue.forgetKnown();  // the server's own word from now on
          if (now.getAttribute("data-status") + "/" + now.getAttribute("data-can-enter") !== before) {
            window.location.assign(pageUrl);
            return true;
          }
        }
        emit("table:refreshed", { version: parseInt(now.getAttribute("data-version"), 10),
                                  status: now.getAttribute("data-status"), next: next() });
        return true;
      })
      .catch(function () { return false; })
      .then(function (done) {
        refreshing = null;
        busy(-1);
        render();
        if (refreshAgain) { refreshAgain = false; return refresh(); }
        return done;
      });
    return refreshing;
  }

  // --- sending ----------------------------------------------------------------------------------
  function schedule() {
    if (retryTimer) { clearTimeout(retryTimer); }
    var delay = failures <= 4 ? 1000 * Math.pow(2, Math.max(0, failures - 1)) : 15000;
    retryTimer = setTimeout(function () { retryTimer = null; flushNow(); }, delay);
  }

  /* The hand the form is waiting on is not kept when the server refuses it: the form still
   * shows it, with the messages next to the fields (as without the queue). */
  function takeOver(item, kind, body) {
    if (!pending || item.key !== pending.key) { return false; }
    queue.remove(item.key);
    pending.answer = { state: kind, body: body };
    return true;
  }

  function flushNow() {
    if (retryTimer) { clearTimeout(retryTimer); retryTimer = null; }
    if (running) { again = true; return running; }
    if (!queue.items().length) { return Promise.resolve(null); }
    busy(1);
    running = queue.flush({ stop: takeOver, progress: render }).then(function (result) {
      running = null;
      if (result.later) { failures += 1; schedule(); } else { failures = 0; }
      announce(result.sent);
      if (result.keeper && !(pending && pending.answer)) {
        queue.remember(game, result.keeper.scorer_position || "");
        if (keeperCard) { showKeeper(result.keeper.scorer_position || "", false, false); }
      }
      if (result.stopped && result.stopped.fresh && result.stopped.item.kind === "keeper" &&
          !(pending && pending.key === result.stopped.item.key)) {
        keeperRefused(result.stopped.body);
      }
      // hands stored, or another phone's hand met: the score and the hands are redrawn
      var conflict = result.stopped && result.stopped.fresh && result.stopped.kind === "conflict";
      var redraw = result.sent.length || conflict ? refresh() : Promise.resolve(false);
      return redraw.then(function () {
        busy(-1);
        render();
        if (again && !result.later && !result.stopped) { again = false; return flushNow(); }
        again = false;
        return result;
      });
    }, function () {
      running = null;
      busy(-1);
      failures += 1;
      schedule();
      render();
      return null;
    });
    render();
    return running;
  }

  /* The form saves a hand: queue it, then send it (after the hands already waiting). Resolves
   * with {state: "stored" | "queued" | "invalid" | "conflict" | "closed", body}. */
  function submit(item) {
    var waiting = queue.items().length > 0;
    queue.add(item);
    if (banner) { banner.hidden = true; }
    if (waiting || navigator.onLine === false) {
      failures = 0;
      render();
      flushNow();
      return Promise.resolve({ state: "queued" });
    }
    pending = { key: item.key, answer: null };
    return flushNow().then(function () {
      var mine = pending;
      pending = null;
      render();
      if (mine && mine.answer) { return mine.answer; }
      return { state: queue.get(item.key) ? "queued" : "stored" };
    });
  }

  // --- the service worker -----------------------------------------------------------------------
  function ready() { document.documentElement.setAttribute("data-offline-ready", ""); }

  function registerWorker() {
    var url = root.getAttribute("data-sw-url");
    if (!url || !("serviceWorker" in navigator) || !window.isSecureContext) { return; }
    var container = navigator.serviceWorker;
    var controlled = !!container.controller;
    container.addEventListener("message", function (event) {
      if (event.data && event.data.type === "cached") { ready(); }
    });
    container.register(url, { scope: url.replace(/[^/]*$/, "") })
      .then(function () { return container.ready; })
      .then(function (registration) {
        if (controlled) { ready(); return; }  // this page came through the worker: it is kept
        // First visit: the page loaded before the worker; ask it to keep the page and its files.
        var urls = [window.location.pathname];
        document.querySelectorAll("script[src], link[rel=stylesheet][href]").forEach(function (el) {
          urls.push(el.getAttribute("src") || el.getAttribute("href"));
        });
        registration.active.postMessage({ type: "cache", urls: urls });
      })
      .catch(function () { /* no worker: the queue still works, the page needs the network */ });
  }

  // --- wiring -----------------------------------------------------------------------------------
  listEl.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-queue-action]");
    if (!button) { return; }
    var item = queue.get(button.getAttribute("data-key"));
    if (!item) { render(); return; }
    if (button.getAttribute("data-queue-action") === "edit") {
      emit("table:edit", { item: item });
      return;
    }
    var question = item.kind === "keeper"
      ? interpolate(gettext("Discard the keeper %(keeper)s from this phone?"),
                    { keeper: describe(item.values, item) }, true)
      : interpolate(gettext("Discard hand %(number)s (%(values)s) from this phone?"),
                    { number: item.number, values: describe(item.values) }, true);
    if (window.confirm(question)) {
      queue.remove(item.key);
      if (item.kind === "keeper") {
        queue.remember(game, "");
        showKeeper(serverKeeper(), false, !!serverKeeper());
      }
      render();
      emit("table:refreshed", { next: next() });
      flushNow();
    }
  });
  sendButton.addEventListener("click", function () { failures = 0; flushNow(); });
  window.addEventListener("online", function () {
    failures = 0;
    render();
    flushNow();
    if (fromCache()) { refresh(); }
  });
  window.addEventListener("offline", render);
  window.addEventListener("storage", function (event) {
    if (event.key === queue.store.name) { render(); }
  });
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden && queue.items().length && !retryTimer) { flushNow(); }
  });
  window.setInterval(function () {
    if (queue.items().length && !running && !retryTimer) { flushNow(); }
  }, 15000);

  window.TableEntry = {
    submit: submit,
    /* A corrected queued hand: new values (and key) in its place, then send again (queued
     * anew should it have left the queue meanwhile, e.g. discarded in another tab). */
    replace: function (key, number, values) {
      if (queue.get(key)) { queue.replace(key, values); }
      else { queue.add({ key: window.EntryQueue.newKey(), number: number, values: values }); }
      failures = 0;
      render();
      return flushNow();
    },
    next: next,
    busy: function () { return busyCount > 0; },
    refresh: refresh,
    newKey: window.EntryQueue.newKey,
    describe: describe
  };

  // A refusal the server rendered with the page (a keeper, a confirmation) stays until dismissed.
  document.querySelectorAll("[data-refusal]").forEach(function (box) {
    var close = document.createElement("button");
    close.type = "button";
    close.className = "btn secondary dismiss";
    close.textContent = gettext("Dismiss this message");
    close.addEventListener("click", function () { box.hidden = true; });
    box.appendChild(close);
  });

  if (!fromCache()) { queue.forgetKnown(); }  // a page just rendered by the server knows best
  // The keeper: the server's word, else the one named on this phone (a copy of the page opened
  // offline, or a tap not sent yet).
  (function () {
    var named = serverKeeper();
    var waiting = queuedKeeper();
    if (named) { queue.remember(game, named); }
    else if (!fromCache() && !waiting) { queue.remember(game, ""); }
    var keeper = named || (waiting && waiting.values.position) || queue.keeper(game);
    if (keeperCard && keeper) { showKeeper(keeper, !!waiting, false); }
  })();
  render();
  if (queue.items().length) { flushNow(); }
  if (fromCache()) { refresh(); }
  registerWorker();
})();
