// The hand viewer: draws one seat's view of one step of one hand from the
// data the page carries (#match-data). Plain DOM, no library; text only
// through textContent, so nothing in a log (bot names, fault details) can
// become markup.
"use strict";
(async function () {
  // The page carries its data gzip-compressed in base64.
  const packed = document.getElementById("match-data").textContent.trim();
  const bytes = Uint8Array.from(atob(packed), function (c) { return c.charCodeAt(0); });
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  const data = JSON.parse(await new Response(stream).text());
  // A step's view carries only the fields that changed since the same
  // seat's view at the step before (of `players`, only the fields of
  // the seats' entries that changed), and the lengths of the history and of
  // the completed tricks (taken from the hand's end view): merge them back
  // into whole observations.
  data.hands.forEach(function (h) {
    h.end.forEach(function (end, seat) {
      let before = {};
      h.steps.forEach(function (s) {
        const v = s.views[seat];
        const o = Object.assign({}, before, v.observation);
        // Of `players`, only the fields of a seat's entry that changed are
        // written; an entry without any is null, as at the step before.
        if (v.observation.players && before.players) {
          o.players = v.observation.players.map(function (p, i) {
            return p === null ? before.players[i] : Object.assign({}, before.players[i], p);
          });
        }
        o.history = end.observation.history.slice(0, v.history_len);
        o.tricks = end.observation.tricks.slice(0, v.tricks_len);
        v.observation = o;
        before = o;
      });
    });
  });
  const SUITS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
  const RED = { H: true, D: true };
  const state = { hand: 0, step: 0, seat: 0 };

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // A card as the log writes it (`AS`, `TD`, `LJ`, `BJ`) drawn face up.
  function card(code) {
    const c = el("span", "card");
    c.dataset.card = code;
    if (code === "LJ" || code === "BJ") {
      c.classList.add("joker");
      c.textContent = code === "BJ" ? "Big \u2605" : "Little \u2606";
      return c;
    }
    const rank = code.slice(0, -1) === "T" ? "10" : code.slice(0, -1);
    const suit = code.slice(-1);
    if (RED[suit]) c.classList.add("red");
    c.textContent = rank + SUITS[suit];
    return c;
  }

  function back() {
    const b = el("span", "card back", "\u00a0");
    b.setAttribute("aria-label", "a face-down card");
    return b;
  }

  function name(seat) {
    return "seat " + seat + " (" + (data.seats[seat] || "?") + ")";
  }

  function player(p) {
    return p === "dummy" ? "dummy" : name(p);
  }

  function steps() {
    const h = data.hands[state.hand];
    return h.steps.length + 1; // every decision, then the hand's end
  }

  function current() {
    const h = data.hands[state.hand];
    if (state.step < h.steps.length) {
      const s = h.steps[state.step];
      return { view: s.views[state.seat], step: s, faults: s.faults };
    }
    return { view: h.end[state.seat], step: null, faults: h.faults };
  }

  function describeEvent(e) {
    switch (e.type) {
      case "hand-start": return "hand " + e.deal + " starts, dealer " + name(e.dealer);
      case "dealt": return name(e.seat) + " is dealt " + e.cards.length + " cards";
      case "turn-up": return "turned up: " + e.card;
      case "action": return name(e.seat) + ": " + e.action;
      case "hidden": return name(e.seat) + " decides face down (" + e.kind + ")";
      case "dummy-play": return "dummy plays " + e.card;
      case "trick-won": return "trick " + (e.index + 1) + " to " + player(e.winner);
      case "take": return name(e.seat) + " takes " + (e.card || "a card") + " from " +
        (typeof e.from === "string" ? e.from : name(e.from.seat));
      case "reveal": return name(e.seat) + " shows " + e.cards.join(" ");
      case "misdeal": return "misdeal";
      case "hand-end": return "hand " + e.deal + " ends";
      default: return e.type;
    }
  }

  function render() {
    const h = data.hands[state.hand];
    const { view, step, faults } = current();
    const o = view.observation;

    history.replaceState(null, "", "#hand=" + state.hand + "&step=" + state.step + "&seat=" + state.seat);
    document.getElementById("step-label").textContent =
      step ? "step " + state.step + " of " + h.steps.length : "end of hand";
    const slider = document.getElementById("step");
    slider.max = String(steps() - 1);
    slider.value = String(state.step);

    // The seats around the table: the viewing seat at the bottom, the
    // others clockwise (left, top, right; more share the sides).
    const table = document.getElementById("seats");
    table.replaceChildren();
    const n = o.players.length;
    const AREAS = {
      1: ["s"], 2: ["s", "n"], 3: ["s", "w", "e"], 4: ["s", "w", "n", "e"],
      5: ["s", "w", "nw", "ne", "e"], 6: ["s", "sw", "nw", "n", "ne", "se"],
    };
    o.players.forEach(function (p) {
      const box = el("section", "seat");
      box.dataset.seat = String(p.seat);
      const areas = AREAS[n];
      if (areas) box.style.gridArea = areas[(p.seat - state.seat + n) % n];
      if (p.seat === state.seat) box.classList.add("viewer");
      if (o.to_act.indexOf(p.seat) >= 0) box.classList.add("to-act");
      if (!p.active) box.classList.add("out");
      box.appendChild(el("h3", null, name(p.seat)));
      const facts = [];
      if (p.bid) facts.push("bid " + p.bid.replace(/^bid /, ""));
      facts.push("tricks " + p.tricks);
      facts.push("total " + p.total);
      box.appendChild(el("p", "facts", facts.join(" \u00b7 ")));
      const cards = el("div", "cards");
      const known = p.seat === state.seat ? o.hand : p.known;
      known.forEach(function (c) { cards.appendChild(card(c)); });
      for (let i = known.length; i < p.held; i++) cards.appendChild(back());
      box.appendChild(cards);
      table.appendChild(box);
    });

    // The middle of the table: trump, contract, face-up cards, the trick.
    const mid = document.getElementById("middle");
    mid.replaceChildren();
    // At the end of a hand the game has moved on: show the hand's last
    // trump and contract, not the next hand's "undecided".
    let shown = o;
    if (!step && h.steps.length && o.trump === "undecided") {
      shown = h.steps[h.steps.length - 1].views[state.seat].observation;
    }
    const trump = shown.trump === "undecided" ? "trump undecided" :
      (typeof shown.trump === "object" ? "trump " + shown.trump.suit : shown.trump);
    mid.appendChild(el("p", "trump", trump + (shown.contract ? "; contract " + shown.contract[1] + " by " + name(shown.contract[0]) : "")));
    if (o.table.length) {
      const t = el("div", "cards face-up");
      o.table.forEach(function (tc) {
        const c = card(tc.card);
        c.title = tc.label;
        t.appendChild(c);
      });
      mid.appendChild(el("p", "label", "on the table"));
      mid.appendChild(t);
    }
    const trick = el("div", "cards trick");
    trick.id = "trick";
    o.trick.cards.forEach(function (pc) {
      // Each card of the trick with who played it.
      const c = card(pc[1]);
      c.title = player(pc[0]);
      const played = el("figure", "played");
      played.appendChild(c);
      played.appendChild(el("figcaption", null, player(pc[0])));
      trick.appendChild(played);
    });
    const over = !step;
    mid.appendChild(el("p", "label", over ? "hand over: " + o.tricks.length + " tricks played" :
      "trick " + (o.tricks.length + 1)));
    if (!over || o.trick.cards.length) mid.appendChild(trick);
    if (o.piles.length) {
      mid.appendChild(el("p", "piles", o.piles.map(function (p) { return p[0] + ": " + p[1]; }).join(", ")));
    }

    // What happened at this step.
    const act = document.getElementById("action");
    act.replaceChildren();
    if (step && step.refused) {
      act.appendChild(el("p", "refused", name(step.seat) + " " + step.action +
        " — REFUSED by the rules: " + step.refused + ". Play stops here."));
    } else if (step) {
      const line = el("p", step.fallback ? "fallback" : null,
        name(step.seat) + " " + step.action + (step.fallback ? " (fallback played by the referee)" : ""));
      act.appendChild(line);
    } else {
      act.appendChild(el("p", null, h.summary));
    }
    faults.forEach(function (f) {
      act.appendChild(el("p", "fault", "fault: " + name(f.seat) + " " + f.kind + " \u2014 " + f.detail + (f.forfeited ? " (forfeit)" : "")));
    });

    const legal = document.getElementById("legal");
    legal.replaceChildren();
    if (view.legal.length) {
      legal.appendChild(el("p", "label", "legal for " + name(state.seat) + ":"));
      legal.appendChild(el("p", "legal-list", view.legal.join("  ")));
    }

    const hist = document.getElementById("history");
    hist.replaceChildren();
    o.history.forEach(function (e) { hist.appendChild(el("li", null, describeEvent(e))); });
    // The newest event in sight.
    hist.scrollTop = hist.scrollHeight;

    const notes = document.getElementById("notes");
    notes.replaceChildren();
    o.notes.forEach(function (n) {
      const row = el("tr");
      row.appendChild(el("td", null, n[0]));
      row.appendChild(el("td", null, n[1]));
      notes.appendChild(row);
    });
  }

  function setup() {
    document.getElementById("title").textContent =
      data.title + " \u2014 " + data.tournament + " match " + data.match_index;
    if (data.back) {
      const back = el("a", "back", "\u2190 the league's standings");
      back.href = data.back;
      document.querySelector("header").prepend(back);
    }
    if (data.live) {
      // A table being played: fetch what is newly public every 10 s (the
      // address keeps the hand, step and seat).
      setTimeout(function () { location.reload(); }, 10000);
    }
    const verdict = document.getElementById("verdict");
    if (data.verified) {
      verdict.textContent = "verified: the log agrees with the rules";
      verdict.className = "ok";
    } else {
      verdict.textContent = "NOT verified: " + data.problems.length + " problem(s)";
      verdict.className = "bad";
      const list = document.getElementById("problems");
      data.problems.forEach(function (p) { list.appendChild(el("li", null, p)); });
    }
    const handSel = document.getElementById("hand");
    data.hands.forEach(function (h, i) {
      const opt = el("option", null, "hand " + h.deal);
      opt.value = String(i);
      handSel.appendChild(opt);
    });
    const seatSel = document.getElementById("seat");
    data.seats.forEach(function (_, i) {
      const opt = el("option", null, name(i));
      opt.value = String(i);
      seatSel.appendChild(opt);
    });
    // The address may name a hand, a step and a seat: #hand=2&step=5&seat=1.
    const q = new URLSearchParams(location.hash.slice(1));
    const pick = function (k, max) {
      const v = parseInt(q.get(k) || "0", 10);
      return isNaN(v) ? 0 : Math.max(0, Math.min(v, max));
    };
    state.hand = pick("hand", data.hands.length - 1);
    state.seat = pick("seat", data.seats.length - 1);
    state.step = pick("step", steps() - 1);
    handSel.value = String(state.hand);
    seatSel.value = String(state.seat);
    handSel.onchange = function () { state.hand = +handSel.value; state.step = 0; render(); };
    seatSel.onchange = function () { state.seat = +seatSel.value; render(); };
    document.getElementById("step").oninput = function (e) { state.step = +e.target.value; render(); };
    document.getElementById("prev").onclick = function () { if (state.step > 0) { state.step--; render(); } };
    document.getElementById("next").onclick = function () { if (state.step < steps() - 1) { state.step++; render(); } };
    document.addEventListener("keydown", function (e) {
      if (e.key === "ArrowRight") document.getElementById("next").click();
      if (e.key === "ArrowLeft") document.getElementById("prev").click();
    });
    render();
  }

  if (data.hands.length === 0) {
    document.getElementById("title").textContent = "no hand in this log";
  } else {
    setup();
  }
})();
