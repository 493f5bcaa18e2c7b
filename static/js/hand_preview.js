/* The live check of a typed hand, in the browser: what the table's check endpoint
 * (POST /api/tables/<token>/check/) answers, computed from the ruleset the page carries
 * (rules_engine.preview.browser_rules, in the form's data-rules) without asking the server.
 *
 * HandPreview.check(rules, values, seats) takes the values the entry form sends (dealer, outcome,
 * bidder, bid, trump, renege_seat, meld, counters and tricks per side; the form's fields
 * meld_<side>, counters_<side>, tricks_<side> gathered per group) and the table's seats (default
 * the ruleset's own; at a table of one more, rules.sit_out "dealer", the dealer sits the hand out
 * and the values name the three playing seats), and returns
 *   {status: 200, body: {points, declaring_side, made, result, reason}}  (the hand scores; at a
 *     table with a sitter-out points cover every seat, the sitter-out 0, and sitting_out names it), or
 *   {status: 400, body: {errors: [{field, code, message}, ...]}}        (what is wrong), or
 *   null when it cannot decide (a value the port does not read: text in a number field, a number
 *   over the form's limit, a field it does not know): the caller then asks the server.
 * A port of rules_engine.hands.parse_hand and rules_engine.scoring.score_hand for those fields,
 * message for message; tests/e2e/test_hand_preview.py runs generated hands of every preset
 * through this and the engine and asserts the same answers. The save is always checked again on
 * the server. No DOM here. */
(function (root) {
  "use strict";

  var SUITS = ["S", "H", "D", "C"];
  var OUTCOMES = ["played", "no_marriage", "surrender", "renege", "misdeal"];
  var KEYS = ["dealer", "outcome", "bidder", "bid", "trump", "renege_seat", "meld", "counters", "tricks"];
  var LIMIT = 10000;      // the form's and the API's largest number
  var MAX_ERRORS = 20;    // rules_engine.errors.MAX_ERRORS

  function has(list, x) { return list.indexOf(x) >= 0; }
  function isInt(v) { return typeof v === "number" && Math.floor(v) === v && isFinite(v); }
  function own(o, k) { return Object.prototype.hasOwnProperty.call(o, k); }

  // --- meld totals: bitsets in hexadecimal, bit n set when n can be shown ----------------------
  function topBit(hex) {
    var first = parseInt(hex.charAt(0), 16);
    if (!first) return -1;
    return (hex.length - 1) * 4 + Math.floor(Math.log(first) / Math.LN2);
  }
  function bitSet(hex, n) {
    var i = hex.length - 1 - (n >> 2);
    if (n < 0 || i < 0) return false;
    return ((parseInt(hex.charAt(i), 16) >> (n & 3)) & 1) === 1;
  }

  // --- the API's serializer: the values it lets through, as _clean_values leaves them ----------
  // Returns the engine's input (blank values dropped), or null where the server would answer
  // something this port does not write (its own serializer messages) or could not be sure of.
  function clean(values, SEATS) {
    if (!values || typeof values !== "object") return null;
    var out = {};
    for (var k in values) {
      if (!own(values, k)) continue;
      if (!has(KEYS, k)) return null;
    }
    if (!has(SEATS, values.dealer)) return null;
    out.dealer = values.dealer;
    var outcome = values.outcome === undefined || values.outcome === null ? "played" : values.outcome;
    if (!has(OUTCOMES, outcome)) return null;
    out.outcome = outcome;
    var choices = { bidder: SEATS, trump: SUITS, renege_seat: SEATS };
    for (var name in choices) {
      var v = values[name];
      if (v === undefined || v === null || v === "") continue;
      if (!has(choices[name], v)) return null;
      out[name] = v;
    }
    if (values.bid !== undefined && values.bid !== null) {
      if (!isInt(values.bid) || values.bid < 0 || values.bid > LIMIT) return null;
      out.bid = values.bid;
    }
    var groups = ["meld", "counters", "tricks"];
    for (var g = 0; g < groups.length; g++) {
      var d = values[groups[g]];
      if (d === undefined || d === null) continue;
      if (typeof d !== "object" || Array.isArray(d)) return null;
      var kept = {}, any = false;
      for (var side in d) {
        if (!own(d, side)) continue;
        var x = d[side];
        if (x === null || x === undefined) continue;
        if (!isInt(x) || x < 0 || x > LIMIT) return null;
        kept[side] = x;
        any = true;
      }
      if (any) out[groups[g]] = kept;
    }
    return out;
  }

  // --- rules_engine.hands.parse_hand, for the fields the form sends ------------------------------
  function err(field, code, message) { return { field: field, code: code, message: message }; }
  function example(sides) {
    return "{" + sides.map(function (s) { return '"' + s + '": 0'; }).join(", ") + "}";
  }

  function stepAt(rs, bid) {
    var start = rs.min_bid, step = rs.bid_step;
    rs.bid_steps.forEach(function (p) { if (bid >= p[0]) { start = p[0]; step = p[1]; } });
    return [start, step];
  }

  // check_bid: null for a bid on the ladder, else [code, sentence]
  function checkBid(rs, bid) {
    if (bid > rs.min_bid && bid > rs.max_bid) {
      return ["too_high", "bid " + bid + " can never be made here: meld and counters together come to at most " + rs.max_bid];
    }
    if (bid < rs.min_bid) {
      return ["below_minimum", "bid " + bid + " is below the opening minimum of " + rs.min_bid];
    }
    var at = stepAt(rs, bid), start = at[0], step = at[1];
    if ((bid - start) % step) {
      var lower = bid - (bid - start) % step;
      return ["wrong_step", "bid " + bid + " is not allowed: from " + start + " bids go up in steps of " + step +
        " (" + lower + " or " + (lower + step) + ")"];
    }
    return null;
  }

  function seat(rs, given, name, errors, required, seats) {
    var choices = seats || rs.seats;
    if (!own(given, name)) {
      if (required) {
        var why = seats && seats.length > rs.players
          ? "at a table of " + seats.length + " the dealer sits the hand out, so give the dealer" : "give a seat";
        errors.push(err(name, "required", name + " is missing: " + why + " (" + choices.join(", ") + ")"));
      }
      return null;
    }
    var raw = given[name];
    if (rs.absent && raw === rs.absent) { errors.push(sittingOut(name, rs)); return null; }
    if (!has(choices, raw)) {
      errors.push(err(name, "bad_seat", "'" + raw + "' is not a seat at this table; use " + choices.join(", ")));
      return null;
    }
    return raw;
  }

  function sittingOut(fld, rs) {
    return err(fld, "sitting_out", rs.absent + " dealt this hand and sits it out; the hand is played by " + rs.seats.join(", "));
  }

  function meldProblem(rs, declaring) {
    return function (value, fld, side) {
      var cards = null, bits = rs.meld_side;
      if (rs.widow && declaring !== null && side !== declaring) { cards = rs.hand_size; bits = rs.meld_defender; }
      var top = topBit(bits);
      if (value > top) {
        var who = cards !== null ? "a player holding " + cards + " cards" : "a side";
        return err(fld, "too_high", "meld " + value + " is more than " + who + " can hold (at most " + top + ")");
      }
      if (!bitSet(bits, value)) {
        var below = 0, above = top, n;
        for (n = value - 1; n >= 0; n--) { if (bitSet(bits, n)) { below = n; break; } }
        for (n = value + 1; n <= top; n++) { if (bitSet(bits, n)) { above = n; break; } }
        return err(fld, "not_achievable", "no combination of melds adds up to " + value + "; did you mean " + below + " or " + above + "?");
      }
      return null;
    };
  }

  function counterProblem(rs) {
    var total = rs.counters_total, unit = rs.counter_unit;
    return function (value, fld) {
      if (value > total) return err(fld, "too_high", value + " is more counters than a hand holds (" + total + ")");
      if (unit > 1 && value % unit) {
        return err(fld, "not_multiple", value + " counters cannot be taken here: every card and the last trick count in multiples of " +
          unit + ", so counters are a multiple of " + unit);
      }
      return null;
    };
  }

  // _per_side for side keys (the form's): undefined when a key is not a side (the caller asks
  // the server), null when a value is wrong or a side is missing
  function perSide(rs, given, name, errors, required, problem) {
    if (!own(given, name)) {
      if (required) errors.push(err(name, "required", name + " is missing: give it per side, e.g. " + example(rs.sides)));
      return null;
    }
    var raw = given[name], bySide = {}, ok = true;
    for (var k in raw) {
      if (!own(raw, k)) continue;
      if (rs.absent && k === rs.absent) { errors.push(sittingOut(name + "." + k, rs)); ok = false; continue; }
      if (!has(rs.sides, k)) return undefined;
      var p = problem(raw[k], name + "." + k, k);
      if (p) { errors.push(p); ok = false; continue; }
      bySide[k] = raw[k];
    }
    if (!ok) return null;
    var out = {};
    rs.sides.forEach(function (s) {
      if (own(bySide, s)) { out[s] = bySide[s]; } else {
        errors.push(err(name + "." + s, "required", name + " for " + s + " is missing"));
        ok = false;
      }
    });
    return ok ? out : null;
  }

  function sum(d) { var t = 0; for (var k in d) { if (own(d, k)) t += d[k]; } return t; }

  // The hand, or {errors}; undefined where the port cannot decide.
  function parse(rs, given, table) {
    var errors = [];
    var outcome = given.outcome;
    var contract = outcome !== "misdeal";
    var played = outcome === "played" || outcome === "renege";
    // the form sends only what the outcome carries; anything else is the server's to judge
    for (var k in given) {
      if (own(given, k) && k !== "outcome" && !has(rs.fields[outcome], k)) return undefined;
    }
    var sitOut = table.length > rs.players;
    var dealer = seat(rs, given, "dealer", errors, sitOut, table);
    var lastToBid = dealer;
    if (sitOut) {
      if (dealer === null) return errors.length > MAX_ERRORS ? undefined : { errors: errors };
      rs = handView(rs, table, dealer);
      lastToBid = table[(table.indexOf(dealer) + table.length - 1) % table.length];
    }
    var bidder = seat(rs, given, "bidder", errors, contract);
    var bid = null;
    if (!own(given, "bid")) {
      if (contract) errors.push(err("bid", "required", "bid is missing"));
    } else {
      var b = given.bid, lowest = rs.dealer_lowest_bid;
      if (lowest !== null && b === lowest) {
        if (lastToBid !== null && bidder === lastToBid) { bid = b; } else {
          errors.push(err("bid", "bad_bid", "bid " + b + " is below the opening minimum of " + rs.min_bid +
            "; only the dealer may open at " + b + (dealer !== null ? "" : ": give the dealer")));
        }
      } else {
        var problem = checkBid(rs, b);
        if (problem) { errors.push(err("bid", problem[0] === "too_high" ? "too_high" : "bad_bid", problem[1])); } else { bid = b; }
      }
    }
    var trump = null;
    if (own(given, "trump")) { trump = given.trump; } else if (played) {
      errors.push(err("trump", "required", "trump is missing: give S, H, D or C"));
    }
    var declaring = bidder !== null ? rs.side_of[bidder] : null;
    var meld = perSide(rs, given, "meld", errors, played, meldProblem(rs, declaring));
    if (meld === undefined) return undefined;
    var renegeSeat = seat(rs, given, "renege_seat", errors, outcome === "renege");
    var needsCounters = outcome === "played" || (outcome === "renege" && renegeSeat !== null && bidder !== null &&
      rs.side_of[renegeSeat] === rs.side_of[bidder] && rs.renege_declarer === "set");
    var counters = perSide(rs, given, "counters", errors, needsCounters, counterProblem(rs));
    if (counters === undefined) return undefined;
    if (counters !== null && sum(counters) !== rs.counters_total) {
      errors.push(err("counters", "bad_sum", "counters must add up to " + rs.counters_total + ", got " + sum(counters)));
    }
    if (outcome === "played" && rs.needs_tricks && !own(given, "tricks")) {
      var why = rs.meld_needs_trick ? "a player must take a trick to save meld" : "taking every trick counts here";
      errors.push(err("tricks", "required", "tricks is missing: " + why + ", so give the tricks each side took (they add up to " +
        rs.hand_size + "), e.g. " + example(rs.sides)));
    }
    var tricks = perSide(rs, given, "tricks", errors, false, function (value, fld) {
      if (value > rs.hand_size) return err(fld, "too_high", value + " is more tricks than a deal has (" + rs.hand_size + ")");
      return null;
    });
    if (tricks === undefined) return undefined;
    if (tricks !== null && sum(tricks) !== rs.hand_size) {
      errors.push(err("tricks", "bad_sum", "tricks must add up to " + rs.hand_size + ", got " + sum(tricks)));
    }
    if (counters !== null && sum(counters) === rs.counters_total && tricks !== null && sum(tricks) === rs.hand_size &&
        bidder !== null) {
      counterFit(rs, counters, tricks, rs.side_of[bidder], errors);
    }
    if (outcome === "no_marriage" && !rs.trump_marriage_required) {
      errors.push(err("outcome", "not_in_ruleset", "this ruleset does not require a marriage in trump, so a hand " +
        "cannot be board set for the lack of one"));
    }
    if (errors.length > MAX_ERRORS) return undefined;
    if (errors.length) return { errors: errors };
    if (meld === null) {
      meld = {};
      if (outcome !== "misdeal") rs.sides.forEach(function (s) { meld[s] = 0; });
    }
    return { rs: rs, hand: { dealer: dealer, bidder: bidder, bid: bid, trump: trump, meld: meld, counters: counters,
      outcome: outcome, renege_seat: renegeSeat, tricks: tricks } };
  }

  // _counters_fit_tricks: counters a side could hold with the tricks it took
  function counterFit(rs, counters, tricks, declaring, errors) {
    var best = rs.top_counters;
    rs.sides.forEach(function (side) {
      var took = tricks[side], discards = side === declaring ? rs.widow : 0;
      var cap = best[Math.min(took * rs.players + discards, best.length - 1)];
      if (took) cap += rs.last_trick;
      cap = Math.min(cap, rs.counters_total);
      if (counters[side] <= cap) return;
      var why;
      if (!took && discards) {
        why = side + " took no trick, so only the " + discards + " discarded cards count for " + side + ": at most " + cap;
      } else if (!took) {
        why = side + " took no trick, so " + side + " holds no counters";
      } else {
        why = side + " took " + took + " trick" + (took !== 1 ? "s" : "") +
          (discards ? " and discarded " + discards + " cards" : "") + ": at most " + cap + " counters";
      }
      errors.push(err("counters." + side, "impossible", counters[side] + " counters for " + side + " cannot be: " + why +
        " (check counters and tricks)"));
    });
  }

  // Ruleset.for_hand: the rules as a hand dealt by `dealer` at a table of one more sees them
  function handView(rules, table, dealer) {
    var view = {}, k;
    for (k in rules) { if (own(rules, k)) view[k] = rules[k]; }
    var playing = table.filter(function (s) { return s !== dealer; });
    view.seats = playing;
    view.sides = playing;
    view.side_of = {};
    playing.forEach(function (s) { view.side_of[s] = s; });
    view.absent = dealer;
    return view;
  }

  // --- rules_engine.scoring.score_hand ---------------------------------------------------------
  function score(points, d, made, result, reason) {
    return { points: points, declaring_side: d, made: made, result: result, reason: reason };
  }

  function bySides(rs, f) { var o = {}; rs.sides.forEach(function (s) { o[s] = f(s); }); return o; }

  var SET = {
    subtract_bid: function (points, d, bid) { points[d] = -bid; return d + " lose " + bid; },
    opponents_gain_bid: function (points, d, bid) {
      points[d] = 0;
      for (var s in points) { if (own(points, s) && s !== d) points[s] += bid; }
      return "the opponents gain " + bid;
    },
    subtract_bid_and_meld: function (points, d, bid, meldD) {
      points[d] = -(bid + meldD);
      return d + " lose their bid and meld, " + (bid + meldD);
    },
    double_bid: function (points, d, bid) { points[d] = -2 * bid; return d + " lose twice the bid, " + (2 * bid); }
  };
  function setCost(rs, points, d, bid, meldD) { return SET[rs.set_policy](points, d, bid, meldD); }

  function concede(hand, rs, d, eff, why) {
    var policy = rs.surrender_policy;
    var bonus = policy === "meld_plus_bonus" ? rs.surrender_bonus : 0;
    var points = bySides(rs, function (s) { return policy !== "nothing" && s !== d ? eff[s] + bonus : 0; });
    var how = setCost(rs, points, d, hand.bid, hand.meld[d]);
    return score(points, d, false, "surrendered", why + ": " + how);
  }

  function scorePlayed(hand, rs, d, eff) {
    var bid = hand.bid, meld = hand.meld, mm = rs.min_meld, points, how;
    if (mm && rs.short_meld === "set" && meld[d] < mm) {
      points = bySides(rs, function (s) { return s === d ? 0 : eff[s]; });
      how = setCost(rs, points, d, bid, meld[d]);
      return score(points, d, false, "board_set", d + " melded " + meld[d] + ", under the minimum of " + mm + ": set without play, " + how);
    }
    if (rs.forced_concession && rs.all_tricks !== "wins_game" && eff[d] + rs.counters_total < bid) {
      return concede(hand, rs, d, eff, d + " could not reach " + bid + " with " + eff[d] + " meld and every counter, so had to concede");
    }
    var tricks = hand.tricks;
    if (rs.meld_needs_trick) {
      var saved = {};
      for (var s in eff) { if (own(eff, s)) saved[s] = tricks[s] > 0 ? eff[s] : 0; }
      eff = saved;
    }
    var counters = hand.counters, mc = rs.min_counters;
    points = bySides(rs, function (s) { return s !== d && counters[s] >= mc ? eff[s] + counters[s] : 0; });
    var cd = counters[d], got = eff[d] + cd;
    if (cd >= mc && got >= bid) {
      points[d] = got;
      return allTricks(hand, rs, score(points, d, true, "made", d + " bid " + bid + " and made " + got + " (" + eff[d] + " meld + " + cd + " counters)"));
    }
    how = setCost(rs, points, d, bid, meld[d]);
    if (rs.set_keeps_meld && cd >= mc && eff[d]) {
      points[d] += eff[d];
      how += "; " + d + " keep their meld, " + eff[d];
    }
    var why = cd < mc ? d + " took only " + cd + " counters, " + mc + " needed"
      : d + " bid " + bid + " but made only " + got + " (" + eff[d] + " meld + " + cd + " counters)";
    return allTricks(hand, rs, score(points, d, false, "set", why + ": set, " + how));
  }

  // _all_tricks: a side that took every trick is named (wins_game) or scores the bonus
  function allTricks(hand, rs, sc) {
    var tricks = hand.tricks;
    if (rs.all_tricks === "nothing" || !tricks) return sc;
    var side = null;
    rs.sides.forEach(function (s) { if (side === null && tricks[s] === rs.hand_size) side = s; });
    if (side === null) return sc;
    if (rs.all_tricks === "bonus") {
      sc.points[side] += rs.all_tricks_bonus;
      sc.reason += "; " + side + " took every trick: +" + rs.all_tricks_bonus;
    } else {
      sc.reason += "; " + side + " took every trick and wins the game";
    }
    return sc;
  }

  function scoreNoMarriage(hand, rs, d, eff) {
    var opponentsMeld = rs.board_set_opponents === "meld";
    var points = bySides(rs, function (s) { return opponentsMeld && s !== d ? eff[s] : 0; });
    var how = setCost(rs, points, d, hand.bid, hand.meld[d]);
    var gets = opponentsMeld ? "the opponents score their meld" : "nobody scores meld";
    return score(points, d, false, "board_set", hand.bidder + " has no marriage in trump: board set, " + how + "; " + gets);
  }

  function declarerReneged(hand, d, points, how) {
    return score(points, d, false, "renege", hand.renege_seat + " (" + d + ", declaring) reneged: set, " + how);
  }

  var RENEGE_DECLARER = {
    set: function (hand, rs, d, eff) {
      var counters = hand.counters || {};
      var points = bySides(rs, function (s) {
        var c = own(counters, s) ? counters[s] : 0;
        return s !== d && c >= rs.min_counters ? eff[s] + c : 0;
      });
      return declarerReneged(hand, d, points, setCost(rs, points, d, hand.bid, hand.meld[d]));
    },
    set_bonus: function (hand, rs, d, eff) {
      var points = bySides(rs, function (s) { return s === d ? 0 : eff[s] + rs.renege_bonus; });
      var how = setCost(rs, points, d, hand.bid, hand.meld[d]);
      return declarerReneged(hand, d, points, how + "; the opponents score meld + " + rs.renege_bonus);
    },
    double_set: function (hand, rs, d, eff) {
      var points = bySides(rs, function (s) { return s === d ? -2 * hand.bid : eff[s]; });
      return declarerReneged(hand, d, points, d + " lose twice the bid, " + (2 * hand.bid) + "; the opponents score their meld");
    }
  };

  function renegeDefender(hand, rs, d, eff) {
    var bid = hand.bid, seat = hand.renege_seat, offender = rs.side_of[seat];
    var withMeld = rs.renege_defender === "bid_and_meld";
    var points = bySides(rs, function (s) {
      if (s === d) return bid + (withMeld ? eff[s] : 0);
      if (s === offender) return -bid;
      return eff[s];
    });
    return score(points, d, true, "renege", seat + " (" + offender + ") reneged: " + d + " score their bid" +
      (withMeld ? " and meld" : "") + ", " + offender + " lose their meld and " + bid);
  }

  function scoreRenege(hand, rs, d, eff) {
    var seat = hand.renege_seat, bid = hand.bid;
    if (rs.forced_concession && rs.all_tricks !== "wins_game" && eff[d] + rs.counters_total < bid) {
      return concede(hand, rs, d, eff, d + " could not reach " + bid + " with " + eff[d] + " meld and every counter, so had to " +
        "concede before play; the renege by " + seat + " in a hand that should not have been played does not count");
    }
    if (rs.side_of[seat] === d) return RENEGE_DECLARER[rs.renege_declarer](hand, rs, d, eff);
    return renegeDefender(hand, rs, d, eff);
  }

  var SCORERS = {
    played: scorePlayed,
    no_marriage: scoreNoMarriage,
    surrender: function (hand, rs, d, eff) { return concede(hand, rs, d, eff, d + " threw in the hand"); },
    renege: scoreRenege
  };

  function scoreHand(hand, rs) {
    var d = hand.bidder !== null ? rs.side_of[hand.bidder] : null;
    var scorer = SCORERS[hand.outcome];
    if (!scorer || d === null || hand.bid === null) {
      return score(bySides(rs, function () { return 0; }), d, null, "misdeal", "misdeal: the deal is void and redealt, nobody scores");
    }
    var eff = {}, mm = rs.min_meld;
    for (var s in hand.meld) { if (own(hand.meld, s)) eff[s] = hand.meld[s] >= mm ? hand.meld[s] : 0; }
    return scorer(hand, rs, d, eff);
  }

  // --- the check endpoint's answer --------------------------------------------------------------
  function check(rules, values, seats) {
    if (!rules || !rules.fields) return null;
    if (rules.preview === false || rules.called_partner) return null;  // sides change with each hand's partner: the server's
    var table = seats || rules.seats;
    var shape = rules.seats_by_size && rules.seats_by_size[String(table.length)];
    if (!shape || shape.join() !== table.join()) return null;  // not a table of this ruleset: the server's to say
    var given = clean(values, rules.seat_letters || []);
    if (!given) return null;
    var parsed = parse(rules, given, table);
    if (parsed === undefined) return null;
    if (parsed.errors) return { status: 400, body: { errors: parsed.errors } };
    var body = scoreHand(parsed.hand, parsed.rs);
    if (body === undefined) return null;
    if (parsed.rs.absent) {
      // every seat of the table, the one sitting out with 0
      var points = {};
      table.forEach(function (s) { points[s] = own(body.points, s) ? body.points[s] : 0; });
      body.points = points;
      body.sitting_out = parsed.rs.absent;
    }
    return { status: 200, body: body };
  }

  root.HandPreview = { check: check };
})(typeof window !== "undefined" ? window : this);
