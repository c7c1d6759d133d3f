#!/usr/bin/env node
// A Sixty-six engine in JavaScript (Node), for the line protocol of docs/protocol.md:
//   sixtysix arena engine:"node examples/simple_engine.js" random
// It reads the view line (JSON) for the trump and the card led, and plays simply:
// declare 66 once it has 66, lead a marriage when it has one, win the opponent's
// lead with its highest winning card, otherwise give its cheapest card.
const POINTS = { 9: 0, J: 2, Q: 3, K: 4, T: 10, A: 11 };
const rank = (card) => card[0];
const suit = (card) => card[1];
let view = null;

function beats(card, led, trump) {
  if (suit(card) === suit(led)) return POINTS[rank(card)] > POINTS[rank(led)];
  return suit(card) === trump;
}

function choose(legal) {
  if (legal.includes("66") && view.scores[view.seat] >= 66) return "66";
  const marriage = legal.find((a) => a.endsWith("+") && !a.startsWith("66"));
  if (marriage) return marriage;
  const cards = legal.filter((a) => a.length === 2 && a !== "66");
  if (cards.length === 0) return legal.includes("D") ? "D" : legal[0];
  const cheap = (a, b) => POINTS[rank(a)] - POINTS[rank(b)] || (suit(a) === view.trump) - (suit(b) === view.trump);
  cards.sort(cheap);
  if (view && view.lead && view.lead[0] !== view.seat) {
    const winners = cards.filter((c) => beats(c, view.lead[1], view.trump));
    if (winners.length) return winners[winners.length - 1];
  }
  return cards[0];
}

const reply = (line) => process.stdout.write(line + "\n");
require("readline").createInterface({ input: process.stdin }).on("line", (line) => {
  const [command, ...words] = line.trim().split(/\s+/);
  if (command === "sixtysix") ["id name simple-js", "id version 1", "ready"].forEach(reply);
  else if (command === "isready") reply("readyok");
  else if (command === "view") view = JSON.parse(line.slice(line.indexOf(" ") + 1));
  else if (command === "go") reply("action " + choose(words.slice(words.indexOf("legal") + 1)));
  else if (command === "quit") process.exit(0);
});
