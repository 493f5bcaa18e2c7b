/* The table phone's outbox: hands saved on this phone and not yet stored by the server.
 *
 * Words: an *item* is one hand as the phone saved it ({key, number, dealer, values, error?}):
 * `key` is its own idempotency key, `number` the hand it is in the game, `values` what the
 * rules engine reads. The *queue* is the table's items in hand order, kept in the browser's
 * localStorage under the table's token, so closing the page or losing the Wi-Fi loses nothing.
 * *Flushing* sends the items in order through POST /api/tables/<token>/hands/ with the item's
 * key in the Idempotency-Key header: the server never stores one key twice and answers a key it
 * already stored with that hand (200), so an item leaves the queue only once the server has
 * answered 200 or 201 for it. A 409 (the number was taken by another phone), a 400 (the values
 * are refused) or a 403/404 (the round is closed, the table is gone) stops the queue at that
 * item, which keeps its values and the server's answer (`error`) until the phone corrects or
 * discards it. A network failure, a time-out, a 429 or a 5xx stops the flush and leaves the
 * item as it is, to be sent again later. `known` remembers the last hand the server confirmed
 * (until a fresh copy of the page says more). No DOM here: static/js/table_offline.js draws it.
 *
 * The game's keeper (who keeps score on the phone) is named before the first hand: a tap made
 * while the network is down is an item too ({kind: "keeper", number: 0, values: {position}}),
 * queued before every hand and sent first (POST /api/tables/<token>/scorer/); refused, it stops
 * the queue like a refused hand. `Queue.keeper()` / `remember()` keep the keeper of a game on
 * this phone (localStorage, by table token and game), so a page opened from the phone's copy
 * knows it too.
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

  var PREFIX = "pinochle.table.";
  var TIMEOUT = 15000;  // a request on a dead Wi-Fi can hang for minutes: give up and retry later
  var SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };

  function newKey() {
    var bytes = new Uint8Array(18);
    if (window.crypto && window.crypto.getRandomValues) {
      window.crypto.getRandomValues(bytes);
    } else {
      for (var i = 0; i < bytes.length; i++) { bytes[i] = Math.floor(Math.random() * 256); }
    }
    return "q" + Array.prototype.map.call(bytes, function (b) {
      return ("0" + b.toString(16)).slice(-2);
    }).join("");
  }

  /* One line for people: "Dealer S · N bid 51 in ♥ · meld NS 24 / EW 32 · counters ...". */
  function describe(v) {
    v = v || {};
    var parts = [interpolate(gettext("Dealer %(seat)s"), { seat: v.dealer || "?" }, true)];
    if (v.outcome === "misdeal") { return parts.concat([gettext("misdeal")]).join(" · "); }
    var bid = v.bid === undefined || v.bid === null || v.bid === "" ? "?" : v.bid;
    parts.push(v.trump
      ? interpolate(gettext("%(seat)s bid %(bid)s in %(trump)s"),
                    { seat: v.bidder || "?", bid: bid, trump: SUITS[v.trump] || v.trump }, true)
      : interpolate(gettext("%(seat)s bid %(bid)s"), { seat: v.bidder || "?", bid: bid }, true));
    if (v.outcome && v.outcome !== "played") {
      parts.push(v.outcome.replace("_", " ") + (v.renege_seat ? " by " + v.renege_seat : ""));
    }
    ["meld", "counters", "tricks"].forEach(function (g) {
      if (v[g] && Object.keys(v[g]).length) {
        parts.push(g + " " + Object.keys(v[g]).sort().reverse().map(function (s) {
          return s + " " + v[g][s];
        }).join(" / "));
      }
    });
    return parts.join(" · ");
  }

  /* The storage of one table: localStorage when the browser lets us, else this page's memory. */
  function Store(token) {
    var name = PREFIX + token;
    var memory = null;  // used once localStorage fails (private mode, full): this page keeps it
    function empty() { return { items: [], known: null }; }
    this.read = function () {
      if (memory === null) {
        try {
          var raw = window.localStorage.getItem(name);
          var data = raw ? JSON.parse(raw) : null;
          return data && Array.isArray(data.items) ? data : empty();
        } catch (e) {
          memory = JSON.stringify(empty());
        }
      }
      return JSON.parse(memory);
    };
    this.write = function (data) {
      var text = JSON.stringify(data);
      if (memory === null) {
        try {
          if (!data.items.length && !data.known) { window.localStorage.removeItem(name); }
          else { window.localStorage.setItem(name, text); }
          return;
        } catch (e) { /* fall through: keep it in this page */ }
      }
      memory = text;
    };
    this.persistent = function () { return memory === null; };
    this.name = name;
  }

  function Queue(token, submitUrl, scorerUrl) {
    this.token = token;
    this.submitUrl = submitUrl;
    this.scorerUrl = scorerUrl;
    this.store = new Store(token);
    this.flushing = null;
  }

  /* The keeper this phone named for `game` (a seat), or "". */
  Queue.prototype.keeper = function (game) {
    try { return window.localStorage.getItem(PREFIX + "keeper." + this.token + "." + game) || ""; }
    catch (e) { return ""; }
  };
  Queue.prototype.remember = function (game, position) {
    try {
      var name = PREFIX + "keeper." + this.token + "." + game;
      if (position) { window.localStorage.setItem(name, position); }
      else { window.localStorage.removeItem(name); }
    } catch (e) { /* private mode: the page still knows it until it is closed */ }
  };

  Queue.prototype.items = function () { return this.store.read().items; };
  Queue.prototype.known = function () { return this.store.read().known; };
  Queue.prototype.persistent = function () { return this.store.persistent(); };

  Queue.prototype._change = function (fn) {
    var data = this.store.read();
    fn(data);
    data.items.sort(function (a, b) { return a.number - b.number; });
    this.store.write(data);
    return data;
  };

  Queue.prototype.add = function (item) {
    this._change(function (data) {
      data.items = data.items.filter(function (x) {
        return x.key !== item.key && !(item.kind === "keeper" && x.kind === "keeper");
      });
      var fresh = { key: item.key, number: item.number, dealer: item.values.dealer,
                    values: item.values, savedAt: Date.now() };
      if (item.kind) { fresh.kind = item.kind; }
      data.items.push(fresh);
    });
  };

  Queue.prototype.get = function (key) {
    return this.items().filter(function (x) { return x.key === key; })[0] || null;
  };

  /* Correct a queued item: new values under a new key (the old one was refused, so the server
   * never stored it), the error cleared. */
  Queue.prototype.replace = function (key, values) {
    var fresh = newKey();
    this._change(function (data) {
      data.items.forEach(function (x) {
        if (x.key === key) { x.key = fresh; x.values = values; x.dealer = values.dealer; delete x.error; }
      });
    });
    return fresh;
  };

  Queue.prototype.remove = function (key) {
    this._change(function (data) {
      data.items = data.items.filter(function (x) { return x.key !== key; });
    });
  };

  Queue.prototype.forgetKnown = function () {
    this._change(function (data) { data.known = null; });
  };

  Queue.prototype._stored = function (item, body) {
    this._change(function (data) {
      data.items = data.items.filter(function (x) { return x.key !== item.key; });
      if (item.kind === "keeper") { return; }
      var number = body && body.number ? body.number : item.number;
      if (!data.known || data.known.number < number) {
        var values = (body && body.values) || item.values;
        data.known = { number: number, dealer: values.dealer, outcome: values.outcome };
      }
    });
  };

  Queue.prototype._mark = function (item, error) {
    this._change(function (data) {
      data.items.forEach(function (x) { if (x.key === item.key) { x.error = error; } });
    });
  };

  /* Send one item; resolves with {status, body} or {status: 0} when the network failed. */
  Queue.prototype.send = function (item) {
    var body = {};
    Object.keys(item.values).forEach(function (k) { body[k] = item.values[k]; });
    var keeper = item.kind === "keeper";
    if (!keeper) { body.number = item.number; }
    var controller = window.AbortController ? new AbortController() : null;
    var timer = controller ? setTimeout(function () { controller.abort(); }, TIMEOUT) : null;
    return fetch(keeper ? this.scorerUrl : this.submitUrl, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Accept": "application/json",
                 "Idempotency-Key": item.key },
      body: JSON.stringify(body),
      cache: "no-store",
      signal: controller ? controller.signal : undefined
    }).then(function (r) {
      return r.json().then(function (b) { return { status: r.status, body: b }; },
                           function () { return { status: r.status, body: null }; });
    }, function () {
      return { status: 0, body: null };
    }).then(function (res) {
      if (timer) { clearTimeout(timer); }
      return res;
    });
  };

  /* What an answer means for the queue. */
  function verdict(status) {
    if (status === 200 || status === 201) { return "stored"; }
    if (status === 409) { return "conflict"; }
    if (status === 400 || status === 422) { return "invalid"; }
    if (status === 403 || status === 404) { return "closed"; }
    return "later";  // 0 (no network), 408, 429, 5xx: send it again later
  }

  /* Send the queued items in order until the queue is empty or something stops it.
   * `options.stop(item, kind, body)` may take over a stopping item (return true), e.g. the item
   * the form has just saved; otherwise the item keeps the answer as its `error`.
   * Resolves with {sent: [bodies], stopped: {item, kind, body, fresh} | null, later: bool}
   * (`fresh`: the server has just answered so; else the item was stopped already). One flush at
   * a time per page (and per phone when the browser has Web Locks). */
  Queue.prototype.flush = function (options) {
    var self = this;
    options = options || {};
    if (self.flushing) { return self.flushing; }
    var result = { sent: [], stopped: null, later: false, keeper: null };

    function step() {
      var item = self.items()[0];
      if (!item) { return Promise.resolve(result); }
      if (item.error) { result.stopped = { item: item, kind: item.error.kind, body: item.error.body }; return Promise.resolve(result); }
      return self.send(item).then(function (res) {
        var kind = verdict(res.status);
        if (kind === "stored" && item.kind === "keeper") {
          self._stored(item, res.body);
          result.keeper = res.body || { scorer_position: item.values.position };
          if (options.progress) { options.progress(result); }
          return step();
        }
        if (kind === "stored") {
          self._stored(item, res.body);
          result.sent.push(res.body || { number: item.number, values: item.values });
          if (options.progress) { options.progress(result); }
          return step();
        }
        if (kind === "later") { result.later = true; return result; }
        var body = res.body || { errors: [{ field: "general", code: "error", message: interpolate(gettext("The server refused this hand (%(status)s)."), { status: res.status }, true) }] };
        result.stopped = { item: item, kind: kind, body: body, fresh: true };
        if (!(options.stop && options.stop(item, kind, body))) {
          self._mark(item, { kind: kind, body: body, status: res.status });
        }
        return result;
      });
    }

    // navigator.onLine is only a hint (some phones say offline when they are not): always try.
    function run() { return step(); }

    var locked = navigator.locks && navigator.locks.request
      ? navigator.locks.request(self.store.name, { ifAvailable: true }, function (lock) {
          if (!lock) { result.later = true; return result; }  // another tab is sending them
          return run();
        })
      : run();
    self.flushing = Promise.resolve(locked).then(function (r) {
      self.flushing = null;
      return r;
    }, function (e) {
      self.flushing = null;
      throw e;
    });
    return self.flushing;
  };

  window.EntryQueue = {
    open: function (token, submitUrl, scorerUrl) { return new Queue(token, submitUrl, scorerUrl); },
    newKey: newKey,
    describe: describe
  };
})();
