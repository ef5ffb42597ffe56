// A whistle stdio bot in JavaScript (node), standard library only.
//
// whistle writes one JSON object per line on stdin; each line whose "type"
// is "request" is answered with one line on stdout. The rule: play the
// highest card when a card is asked for, else the first legal action (a
// pass, the smallest bid). Other lines (welcome, event, fault, match_end)
// are ignored. See docs/stdio.md.
"use strict";
const readline = require("node:readline");

const RANKS = "23456789TJQKA";

// The rank of a card's text (AS, TC, BJ), or -1 for other actions.
function rank(text) {
  if (text === "BJ") return 20;
  if (text === "LJ") return 19;
  if (text.length === 2 && RANKS.includes(text[0]) && "CDHS".includes(text[1])) {
    return RANKS.indexOf(text[0]);
  }
  return -1;
}

function choose(legal) {
  let best = 0;
  let bestRank = -1;
  legal.forEach((action, i) => {
    const r = rank(action);
    if (r > bestRank) {
      best = i;
      bestRank = r;
    }
  });
  return best;
}

const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type !== "request") return;
  process.stdout.write(`${choose(message.legal)}\n`);
});
