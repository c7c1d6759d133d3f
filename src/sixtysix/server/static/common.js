// Shared by the pages: card pictures, names of suits and results, small helpers.
"use strict";

// Languages (sixtysix.i18n): the page's words come from the server's catalogs, the same
// ones the terminal game reads. English is the text as written in the code:
// t("Hand {n}", { n: 3 }); nt("{n} trick", "{n} tricks", n); pt("suit", "hearts").
const i18n = { lang: "en", messages: {}, languages: { en: "English" } };

function fillIn(text, values) {
  return values ? text.replace(/\{(\w+)\}/g, (whole, key) => (key in values ? String(values[key]) : whole)) : text;
}

function t(text, values) {
  const found = i18n.messages[text];
  return fillIn(typeof found === "string" && found ? found : text, values);
}

// Every catalog we carry has two forms, the first for n = 1 (the tests check its plural rule).
function nt(one, many, n, values) {
  const found = i18n.messages[one];
  const form = n === 1 ? 0 : 1;
  const text = Array.isArray(found) && found[form] ? found[form] : form ? many : one;
  return fillIn(text, Object.assign({ n }, values));
}

function pt(context, text, values) {
  const found = i18n.messages[`${context}\u0004${text}`];
  return fillIn(typeof found === "string" && found ? found : text, values);
}

// The language asked for: the player's choice (the switch), else the browser's languages.
function wantedLanguages() {
  const chosen = localStorage.getItem("sixtysix-lang");
  return chosen ? [chosen] : (navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || "en"]);
}

async function loadLanguage() {
  try {
    const wanted = wantedLanguages().map(encodeURIComponent).join(",");
    const response = await fetch(`/i18n/${wanted || "en"}.json`);
    if (response.ok) Object.assign(i18n, await response.json());
  } catch (e) {
    /* offline without the catalog: English */
  }
  document.documentElement.lang = i18n.lang;
  translatePage(document);
  languageSwitch();
}

// The static text of a page: every element marked data-i18n holds a message (its English
// text, kept in data-i18n-text); data-i18n-attr names attributes that are messages too.
function translatePage(root) {
  for (const node of root.querySelectorAll("[data-i18n]")) {
    if (!("i18nText" in node.dataset)) node.dataset.i18nText = node.textContent.replace(/\s+/g, " ").trim();
    // data-cards="lead=KS trump=9H": placeholders that name cards, written as on the card.
    const cards = {};
    for (const pair of (node.dataset.cards || "").split(/\s+/).filter((p) => p)) {
      const [name, code] = pair.split("=");
      cards[name] = cardName(code);
    }
    node.textContent = t(node.dataset.i18nText, cards);
  }
  for (const node of root.querySelectorAll("[data-i18n-attr]")) {
    for (const name of node.dataset.i18nAttr.split(/\s+/)) {
      const key = `i18nAttr${name.replace(/-./g, (m) => m[1].toUpperCase())}`;
      if (!(key in node.dataset)) node.dataset[key] = node.getAttribute(name) || "";
      if (node.dataset[key]) node.setAttribute(name, t(node.dataset[key]));
    }
  }
}

// The switch in the header: each language named in itself; a choice reloads the page in it.
function languageSwitch() {
  const select = document.getElementById("language");
  if (!select) return;
  select.replaceChildren(...Object.entries(i18n.languages).map(([code, name]) =>
    el("option", { value: code, text: name, selected: code === i18n.lang, lang: code })));
  select.onchange = () => {
    localStorage.setItem("sixtysix-lang", select.value);
    location.reload();
  };
}

const SUIT_SIGNS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
const RANK_ORDER = "9JQKTA"; // R1.2: ascending trick-taking order
const SUIT_ORDER = "CDHS";

function suitName(suit) {
  if (suit === "C") return pt("suit", "clubs");
  if (suit === "D") return pt("suit", "diamonds");
  if (suit === "H") return pt("suit", "hearts");
  return pt("suit", "spades");
}

function rankName(rank) {
  if (rank === "9") return pt("rank", "nine");
  if (rank === "T") return pt("rank", "ten");
  if (rank === "J") return pt("rank", "jack");
  if (rank === "Q") return pt("rank", "queen");
  if (rank === "K") return pt("rank", "king");
  return pt("rank", "ace");
}

// The rank as printed on the card in the page's language (a German queen shows D).
function rankLetter(rank) {
  if (rank === "9") return "9";
  if (rank === "T") return "10";
  if (rank === "J") return pt("card rank", "J");
  if (rank === "Q") return pt("card rank", "Q");
  if (rank === "K") return pt("card rank", "K");
  return pt("card rank", "A");
}

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

// A card as a person reads it, written as on the card: 10♦, D♥ in German.
function cardName(card) {
  return rankLetter(card[0]) + SUIT_SIGNS[card[1]];
}

// A card in words, for screen readers: "queen of hearts", "Herz-Dame".
function cardWords(card) {
  return t("{rank} of {suit}", { rank: rankName(card[0]), suit: suitName(card[1]) });
}

// The player's card options (Settings), kept by the browser: four colours, large cards.
const cardLook = {
  get fourColours() { return localStorage.getItem("sixtysix-deck") === "four"; },
  get large() { return localStorage.getItem("sixtysix-large-cards") === "on"; },
};

function cardImage(card, extraClass) {
  const query = `?lang=${i18n.lang}${cardLook.fourColours ? "&deck=four" : ""}`;
  return el("img", { src: `/cards/${card || "back"}.svg${query}`, alt: card ? cardWords(card) : t("card back"),
                     class: "card-img " + (extraClass || ""), draggable: "false" });
}

// A hand as the terminal game shows it too: trumps first, then clubs, diamonds, hearts,
// spades, each suit from the Ace down (sixtysix.console.sorted_cards).
function sortCards(cards, trump) {
  const suitKey = (s) => (s === trump ? -1 : SUIT_ORDER.indexOf(s));
  return [...cards].sort((a, b) => suitKey(a[1]) - suitKey(b[1]) || RANK_ORDER.indexOf(b[0]) - RANK_ORDER.indexOf(a[0]));
}

// An action in words; given the seat's view, the exchange names the cards it swaps (the
// server sends the trump the seat would give, exchange_card: the page picks no card itself).
function describeAction(action, view) {
  if (action === "X") {
    const mine = view ? view.exchange_card : null;
    if (mine && view.trump_card) {
      return t("Exchange your {card} for the turned-up {trump}", { card: cardName(mine), trump: cardName(view.trump_card) });
    }
    return t("Exchange for the turned-up trump");
  }
  if (action === "C") return t("Close the stock");
  if (action === "D") return t("Draw");
  if (action === "66") return t("Declare 66");
  if (action.startsWith("66+")) return t("Show the {suit} marriage and declare 66", { suit: suitName(action[3]) });
  if (action.endsWith("+")) return t("Marriage: {card} and lead it", { card: cardName(action) });
  return t("Play {card}", { card: cardName(action) });
}

// Why a hand scored what it did (sixtysix.explain: ``why``), in a sentence: who did what,
// then the rule that set the game points. ``names`` are as the reader calls the seats.
function explainResult(why, names) {
  if (why.winner === null) return t("Tied hand: all cards are played and the totals are equal. Nobody scores.");
  const winner = names[why.winner];
  const loser = names[1 - why.winner];
  const closer = why.closer === null ? loser : names[why.closer];
  let what;
  switch (why.reason) {
    case "declared":
      what = why.declarer === null ? t("{winner} reached 66.", { winner }) : t("{winner} declared 66 correctly.", { winner });
      break;
    case "played_out":
      what = t("All cards are played and {winner} has the higher total.", { winner });
      break;
    case "closed_succeeded":
      what = t("{winner} closed the stock and made 66.", { winner });
      break;
    case "closed_failed":
      if (why.declarer === why.winner) what = t("{winner} reached 66 after {closer} closed the stock.", { winner, closer });
      else if (why.declarer !== null) what = t("{loser} closed the stock and declared 66 falsely.", { loser });
      else what = t("{loser} closed the stock but did not make 66.", { loser });
      break;
    case "false_declaration":
      what = t("{loser} declared 66 with only {points}.", { loser, points: why.loser_points });
      break;
    case "revoke":
      what = t("{loser} did not follow suit when the rules required it (revoke).", { loser });
      break;
    default:
      what = t("{loser} forfeited: the program failed.", { loser });
  }
  let scale = "";
  switch (why.scale) {
    case "no_trick": scale = why.at_close ? t("{loser} had taken no trick when the stock was closed.", { loser })
      : t("{loser} took no trick.", { loser }); break;
    case "under_33": scale = why.at_close
      ? t("{loser} had {points}, under {threshold}, when the stock was closed.", { loser, points: why.loser_points, threshold: why.threshold })
      : t("{loser} has {points}, under {threshold}.", { loser, points: why.loser_points, threshold: why.threshold }); break;
    case "33_or_more": scale = t("{loser} has {points}, {threshold} or more.", { loser, points: why.loser_points, threshold: why.threshold }); break;
    case "no_trick_at_close": scale = t("{winner} had taken no trick when {closer} closed the stock.", { winner, closer }); break;
    case "trick_at_close": scale = t("{winner} had taken a trick when {closer} closed the stock.", { winner, closer }); break;
    case "no_trick_false": scale = t("{winner} had taken no trick.", { winner }); break;
    default: scale = "";
  }
  const gp = why.game_points;
  let score = nt("{winner} wins {n} game point.", "{winner} wins {n} game points.", gp, { winner });
  if (why.bonus) score += " " + nt("Plus {n} for the tied hand before.", "Plus {n} for the tied hands before.", why.bonus);
  return [what, scale, score].filter((part) => part).join(" ");
}

// A hand's result without its explanation (the replay page): who won and how many.
function resultSentence(result, names) {
  if (result.winner === null || result.winner === undefined) {
    return t("Tied hand ({points}): nobody scores.", { points: `${result.points[0]}\u2013${result.points[1]}` });
  }
  const gp = result.game_points + (result.bonus || 0);
  return nt("{winner} wins {n} game point.", "{winner} wins {n} game points.", gp, { winner: names[result.winner] });
}

function showToast(text) {
  const toast = document.getElementById("toast");
  if (!toast) return;
  toast.textContent = text;
  toast.hidden = false;
  clearTimeout(showToast.timer);
  showToast.timer = setTimeout(() => { toast.hidden = true; }, 5000);
}

// The player's account, if logged in (the session itself is an HttpOnly cookie): its
// name, and the CSRF token every request that changes something must carry.
const account = { name: null, csrf: null };

async function loadAccount() {
  try {
    const me = await api("GET", "/api/account");
    account.name = me.name || null;
    account.csrf = me.csrf || null;
  } catch (e) {
    /* offline: a guest */
  }
  return account;
}

async function api(method, path, body, signal, extraHeaders) {
  const headers = Object.assign(body ? { "Content-Type": "application/json" } : {}, extraHeaders || {});
  if (method !== "GET" && account.csrf) headers["X-CSRF-Token"] = account.csrf;
  const response = await fetch(path, {
    method,
    headers,
    body: body ? JSON.stringify(body) : undefined,
    signal,
  });
  let data = null;
  try { data = await response.json(); } catch (e) { data = null; }
  if (!response.ok) {
    let reason = (data && (data.error || data.detail)) || response.statusText;
    if (Array.isArray(reason)) reason = reason.map((d) => d.msg).join("; ");
    const error = new Error(reason);
    // What the server's refusal says, for words of the page's own (accountError, serverError).
    error.code = data && data.code;
    error.status = response.status;
    error.retryAfter = Number(response.headers.get("Retry-After")) || null;
    throw error;
  }
  return data;
}

// A request that waits for an opponent, asked again a second later while the server it
// reached is stopping (it answers 503 "stopping"; a load balancer may already have asked
// another process): the player keeps waiting, on the process that takes over.
async function askAgainIfStopping(request) {
  for (;;) {
    try {
      return await request();
    } catch (e) {
      if (e.code !== "stopping") throw e;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

// A refused account request in the page's words (the server's reason is for developers).
function accountError(error) {
  switch (error.code) {
    case "bad_name": return t("A name has 3 to 20 characters: letters, digits, _ and -, starting with a letter. Names like Computer, Guest or Admin are kept for the server.");
    case "name_taken": return t("This name is taken: choose another.");
    case "invisible_name": return t("A name has no invisible characters: use visible letters only.");
    case "name_look_alike": return t("This name looks like a name that is taken: choose another.");
    case "bad_password": return t("A password has 8 to 128 characters and is not the name.");
    case "wrong_password": return t("Wrong name or password.");
    case "throttled": return error.retryAfter
      ? nt("Too many attempts: try again in {n} second.", "Too many attempts: try again in {n} seconds.", error.retryAfter)
      : t("Too many attempts: wait a little.");
    case "bad_csrf":
    case "bad_origin": return t("The page is out of date: reload it and try again.");
    case "not_logged_in": return t("You are not logged in.");
    case "bad_request": return t("Fill in the name and the password.");
    default: return error.message;
  }
}

// The computer's levels in words (an operator's engines keep their own names).
function levelName(name) {
  const names = { random: t("random"), easy: t("easy"), medium: t("medium"), net: t("learned"), hard: t("hard"),
                  expert: t("expert") };
  return names[name] || name;
}

// The players' names as the page shows them: the computer named in the page's language
// (the server's name for it is for records).
function playerNames(game) {
  if (game.kind === "puzzle") return [0, 1].map((seat) => (seat === game.seat ? t("You") : t("Opponent")));
  return game.players.map((name, seat) => (game.kind === "computer" && seat === 1 && game.level
    ? t("Computer ({level})", { level: levelName(game.level) }) : name));
}

// A seat's points and tricks: "23 points, 2 tricks".
function pointsText(points, tricks) {
  return nt("{points} points, {n} trick", "{points} points, {n} tricks", tricks, { points });
}

// Rules in words: the preset's name and the match's length ("Classic, a match to 7 game
// points"); options changed from the preset are named after it.
// A preset's name in the page's language (a rating pool is a preset).
function presetName(preset) {
  const names = { classic: t("Classic"), pagat: t("Pagat"), santase: t("Santase"), schnapsen: t("Schnapsen"),
                  course: t("Schnapsen, course platform rules") };
  return names[preset] || preset;
}

function rulesText(rules, target) {
  const preset = typeof rules === "string" ? rules : rules.preset;
  let text = nt("{rules}, a match to {n} game point", "{rules}, a match to {n} game points", target,
                { rules: presetName(preset) });
  const changed = typeof rules === "string" ? [] : Object.keys(rules).filter((k) => k !== "preset" && k !== "target");
  if (changed.length) text += " " + t("(changed: {options})", { options: changed.join(", ") });
  return text;
}

// What the server refused, for a person: its words for the refusals a player meets,
// else the server's own reason.
function serverError(message) {
  switch (message.code) {
    case "not_your_turn": return t("It is not your turn.");
    case "stale": return t("The game has moved on: your action came too late.");
    case "over": return t("The match is over.");
    case "abandoned": return t("This game was abandoned: nobody moved in it for too long.");
    case "not_started": return t("The game has not started: the second player has not joined yet.");
    case "storage": return t("The server could not save the action; try again.");
    case "rate_limited": return t("Too many requests: wait a little.");
    case "too_many_games": return t("Too many unfinished games: finish or abandon one first.");
    case "too_many_rated": return t("The rated games of a day are used up (between you two, or from one address): play unrated.");
    case "rated_barred": return t("Too many rated matches called off: rated play is closed to you for a while; unrated play is open.");
    case "no_seat": return t("This game has no free seat: you can watch it.");
    case "no_game": return t("There is no such game.");
    case "moved": case "misdirected": case "unavailable": case "starting":
      return t("The game is moving to another server: reconnecting\u2026");
    default: return message.reason || message.error || "";
  }
}

function trumpText(suit) {
  return t("Trump: {sign} {suit}", { sign: SUIT_SIGNS[suit], suit: suitName(suit) });
}

// The middle of the table, the same for players, spectators and replays. ``you`` is the
// reader's seat (null for a spectator or a replay): the page then says "you", never a name.
function renderMiddle(view, names, seatBottom, you = null) {
  const stock = document.getElementById("stock");
  stock.replaceChildren();
  if (view.trump_card) stock.append(cardImage(view.trump_card, "trump-card"));
  if (view.stock_size > 0) stock.append(cardImage(null, "stock-card"));
  let stockText = view.stock_size ? t("Stock: {n}", { n: view.stock_size }) : t("Stock empty");
  if (view.closed_by !== null) {
    stockText = view.closed_by === you ? t("Closed by you") : t("Closed by {name}", { name: names[view.closed_by] });
  }
  document.getElementById("stock-label").textContent = stockText;
  document.getElementById("trump-label").textContent = trumpText(view.trump);
  const marriages = document.getElementById("marriages");
  marriages.replaceChildren(...view.marriages.map(([seat, suit, value]) =>
    el("li", { text: t("{name}: {suit} marriage ({value})", { name: names[seat], suit: SUIT_SIGNS[suit], value }) })));
  const trick = document.getElementById("trick");
  const played = (seat, card, extra) => el("figure", { class: `played ${extra || ""}`, "data-card": card },
    cardImage(card), el("figcaption", { text: seat === you ? t("You") : names[seat] }));
  const row = el("div", { class: "trick-cards" });
  let label = "";
  if (view.lead) {
    row.append(played(view.lead[0], view.lead[1]));
    label = t("Current trick");
  } else if (view.tricks.length) {
    const [leader, lead, follow, winner] = view.tricks[view.tricks.length - 1];
    row.append(played(leader, lead, "last"), played(1 - leader, follow, "last"));
    label = winner === null ? t("Last trick: nobody") : winner === you ? t("Last trick: you")
      : t("Last trick: {name}", { name: names[winner] });
  }
  trick.replaceChildren(row, el("div", { class: "trick-label", text: label }));
}

// The page's language first: every page waits for it before drawing (``ready.then(start)``).
const ready = loadLanguage();

// Installable as an app: the service worker keeps the page's files (sw.js).
if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});
