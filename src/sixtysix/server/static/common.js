// Shared by the pages: card pictures, names of suits and results, small helpers.
"use strict";

const SUIT_SIGNS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
const SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
const RANK_NAMES = { "9": "9", T: "10", J: "J", Q: "Q", K: "K", A: "A" };
const RANK_ORDER = "9JQKTA"; // R1.2: ascending trick-taking order
const SUIT_ORDER = "CDHS";
const REASONS = {
  declared: "declared 66",
  false_declaration: "the opponent declared 66 falsely",
  closed_failed: "the closer did not make 66",
  closed_succeeded: "closed the stock and made 66",
  played_out: "all cards were played",
  tie: "a tie",
  revoke: "the opponent did not follow suit (revoke)",
  forfeit: "the opponent's program failed (forfeit)",
};

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

function cardName(card) {
  return RANK_NAMES[card[0]] + SUIT_SIGNS[card[1]];
}

function cardImage(card, extraClass) {
  const name = card ? `${RANK_NAMES[card[0]]} of ${SUIT_NAMES[card[1]]}` : "card back";
  return el("img", { src: `/cards/${card || "back"}.svg`, alt: name, class: "card-img " + (extraClass || ""),
                     draggable: "false" });
}

// A hand as the terminal game shows it too: trumps first, then clubs, diamonds, hearts,
// spades, each suit from the Ace down (sixtysix.console.sorted_cards).
function sortCards(cards, trump) {
  const suitKey = (s) => (s === trump ? -1 : SUIT_ORDER.indexOf(s));
  return [...cards].sort((a, b) => suitKey(a[1]) - suitKey(b[1]) || RANK_ORDER.indexOf(b[0]) - RANK_ORDER.indexOf(a[0]));
}

// The trump a player offered the exchange holds for it: the nine (R4.1), or the jack
// in the 20-card pack, which has no nines (Schnapsen, S4.1).
function exchangeCard(view) {
  return [`9${view.trump}`, `J${view.trump}`].find((card) => view.hand.includes(card)) || null;
}

// An action in words; given the seat's view, the exchange names the cards it swaps.
function describeAction(action, view) {
  if (action === "X") {
    const mine = view ? exchangeCard(view) : null;
    if (mine && view.trump_card) return `Exchange your ${cardName(mine)} for the turned-up ${cardName(view.trump_card)}`;
    return "Exchange for the turned-up trump";
  }
  if (action === "C") return "Close the stock";
  if (action === "D") return "Draw";
  if (action === "66") return "Declare 66";
  if (action.startsWith("66+")) return `Show the ${SUIT_NAMES[action[3]]} marriage and declare 66`;
  if (action.endsWith("+")) return `Marriage: ${cardName(action)} and lead it`;
  return `Play ${cardName(action)}`;
}

function resultSentence(result, names) {
  if (result.winner === null || result.winner === undefined) {
    return `Tied hand (${result.points[0]}\u2013${result.points[1]}): nobody scores.`;
  }
  const gp = result.game_points + (result.bonus || 0);
  const why = REASONS[result.reason] || result.reason;
  return `${names[result.winner]} wins ${gp} game point${gp === 1 ? "" : "s"}: ${why}.`;
}

function showToast(text) {
  const toast = document.getElementById("toast");
  if (!toast) return;
  toast.textContent = text;
  toast.hidden = false;
  clearTimeout(showToast.timer);
  showToast.timer = setTimeout(() => { toast.hidden = true; }, 5000);
}

async function api(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  let data = null;
  try { data = await response.json(); } catch (e) { data = null; }
  if (!response.ok) {
    let reason = (data && (data.error || data.detail)) || response.statusText;
    if (Array.isArray(reason)) reason = reason.map((d) => d.msg).join("; ");
    throw new Error(reason);
  }
  return data;
}

// The middle of the table, the same for players, spectators and replays.
function renderMiddle(view, names, seatBottom) {
  const stock = document.getElementById("stock");
  stock.replaceChildren();
  if (view.trump_card) stock.append(cardImage(view.trump_card, "trump-card"));
  if (view.stock_size > 0) stock.append(cardImage(null, "stock-card"));
  let stockText = view.stock_size ? `Stock: ${view.stock_size}` : "Stock empty";
  if (view.closed_by !== null) stockText = `Closed by ${names[view.closed_by]}`;
  document.getElementById("stock-label").textContent = stockText;
  document.getElementById("trump-label").textContent =
    `Trump: ${SUIT_SIGNS[view.trump]} ${SUIT_NAMES[view.trump]}`;
  const marriages = document.getElementById("marriages");
  marriages.replaceChildren(...view.marriages.map(([seat, suit, value]) =>
    el("li", { text: `${names[seat]}: ${SUIT_SIGNS[suit]} marriage (${value})` })));
  const trick = document.getElementById("trick");
  const played = (seat, card, extra) => el("figure", { class: `played ${extra || ""}`, "data-card": card },
    cardImage(card), el("figcaption", { text: names[seat] }));
  const row = el("div", { class: "trick-cards" });
  let label = "";
  if (view.lead) {
    row.append(played(view.lead[0], view.lead[1]));
    label = "Current trick";
  } else if (view.tricks.length) {
    const [leader, lead, follow, winner] = view.tricks[view.tricks.length - 1];
    row.append(played(leader, lead, "last"), played(1 - leader, follow, "last"));
    label = `Last trick: ${winner === null ? "nobody" : names[winner]}`;
  }
  trick.replaceChildren(row, el("div", { class: "trick-label", text: label }));
}

// Installable as an app: the service worker keeps the page's files (sw.js).
if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});
