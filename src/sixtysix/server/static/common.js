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

// The language asked for: the link's (``?lang=de``, on every page, for that page only;
// an unknown code reads in English, as ``sixtysix play --lang`` does), else the player's
// choice (the switch), else the browser's languages.
function wantedLanguages() {
  const linked = new URLSearchParams(location.search).get("lang");
  if (linked) return [linked];
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
    // The choice wins over a link's language: the page again without it.
    const url = new URL(location.href);
    url.searchParams.delete("lang");
    if (url.href === location.href) location.reload();
    else location.replace(url.href);
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
// What a click on ``card`` asks for among the ``legal`` actions: the card played, its
// marriage (``KH+``, R5.1), "ask" when both are legal (the page asks which), or null.
function cardAction(card, legal) {
  const plain = legal.includes(card);
  const marriage = legal.includes(card + "+");
  if (plain && marriage) return "ask";
  return marriage ? card + "+" : plain ? card : null;
}

function cardName(card) {
  return rankLetter(card[0]) + SUIT_SIGNS[card[1]];
}

// A card in words, for screen readers: "queen of hearts", "Herz-Dame".
function cardWords(card) {
  return t("{rank} of {suit}", { rank: rankName(card[0]), suit: suitName(card[1]) });
}

// The beginner's options the terminal game has too (its settings ``memory`` and
// ``auto_declare``), and drawing without a click, kept by the browser (Settings):
// - autoDraw: after a won trick the page draws for the player (on unless turned off, as
//   card apps do; closing is then done after the draw, which R6.1 allows);
// - memory: running card points hidden, as in the real game (R11.3);
// - autoDeclare: new games against the computer are made with the rules option
//   auto_declare (R12: the kernel declares 66 for whoever reaches it).
const playOptions = {
  get autoDraw() { return localStorage.getItem("sixtysix-auto-draw") !== "off"; },
  set autoDraw(on) { localStorage.setItem("sixtysix-auto-draw", on ? "on" : "off"); },
  get memory() { return localStorage.getItem("sixtysix-memory") === "on"; },
  set memory(on) { localStorage.setItem("sixtysix-memory", on ? "on" : "off"); },
  get autoDeclare() { return localStorage.getItem("sixtysix-auto-declare") === "on"; },
  set autoDeclare(on) { localStorage.setItem("sixtysix-auto-declare", on ? "on" : "off"); },
};

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
// spades, each suit from the Ace down (sixtysix.present.text.sorted_cards).
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

// Why a hand scored what it did (sixtysix.present.explain: ``why``), in a sentence: who did what,
// then the rule that set the game points. ``names`` are as the reader calls the seats;
// ``you`` is the reader's seat (null for a spectator or a replay): the page then says
// "you" of him, never his name (issue 36, item 12).
function explainResult(why, names, you = null) {
  if (why.winner === null) return t("Tied hand: all cards are played and the totals are equal. Nobody scores.");
  const winner = names[why.winner];
  const loser = names[1 - why.winner];
  const loserSeat = 1 - why.winner;
  const closerSeat = why.closer === null ? loserSeat : why.closer;
  const closer = names[closerSeat];
  const mine = (seat) => you !== null && seat === you;
  let what;
  switch (why.reason) {
    case "declared":
      if (why.declarer === null) what = mine(why.winner) ? t("You reached 66") + "." : t("{winner} reached 66.", { winner });
      else what = mine(why.winner) ? t("You declared 66 correctly") + "." : t("{winner} declared 66 correctly.", { winner });
      break;
    case "played_out":
      what = mine(why.winner) ? t("All cards are played and you have the higher total") + "."
        : t("All cards are played and {winner} has the higher total.", { winner });
      break;
    case "closed_succeeded":
      what = mine(why.winner) ? t("You closed the stock and made 66") + "." : t("{winner} closed the stock and made 66.", { winner });
      break;
    case "closed_failed":
      if (why.declarer === why.winner) {
        if (mine(why.winner)) what = t("You reached 66 after {name} closed", { name: closer }) + ".";
        else if (mine(closerSeat)) what = t("{name} reached 66 after you closed", { name: winner }) + ".";
        else what = t("{winner} reached 66 after {closer} closed the stock.", { winner, closer });
      } else if (why.declarer !== null) {
        what = mine(loserSeat) ? t("You closed and declared 66 falsely") + "." : t("{loser} closed the stock and declared 66 falsely.", { loser });
      } else {
        what = mine(loserSeat) ? t("You closed but did not make 66") + "." : t("{loser} closed the stock but did not make 66.", { loser });
      }
      break;
    case "false_declaration":
      what = mine(loserSeat) ? t("You declared 66 with only {points}", { points: why.loser_points }) + "."
        : t("{loser} declared 66 with only {points}.", { loser, points: why.loser_points });
      break;
    case "revoke":
      what = mine(loserSeat) ? t("You revoked (broke the follow rule, R10.2)") + "."
        : t("{loser} did not follow suit when the rules required it (revoke).", { loser });
      break;
    default:
      what = mine(loserSeat) ? t("You forfeited (the program failed)") + "." : t("{loser} forfeited: the program failed.", { loser });
  }
  const facts = { loser, winner, closer, points: why.loser_points, threshold: why.threshold };
  let scale = "";
  switch (why.scale) {
    case "no_trick":
      if (why.at_close) scale = mine(loserSeat) ? t("You had taken no trick when the stock was closed.")
        : t("{loser} had taken no trick when the stock was closed.", facts);
      else scale = mine(loserSeat) ? t("You took no trick.") : t("{loser} took no trick.", facts);
      break;
    case "under_33":
      if (why.at_close) scale = mine(loserSeat) ? t("You had {points}, under {threshold}, when the stock was closed.", facts)
        : t("{loser} had {points}, under {threshold}, when the stock was closed.", facts);
      else scale = mine(loserSeat) ? t("You have {points}, under {threshold}.", facts)
        : t("{loser} has {points}, under {threshold}.", facts);
      break;
    case "33_or_more":
      scale = mine(loserSeat) ? t("You have {points}, {threshold} or more.", facts)
        : t("{loser} has {points}, {threshold} or more.", facts);
      break;
    case "no_trick_at_close":
      scale = mine(why.winner) ? t("You had taken no trick when {closer} closed the stock.", facts)
        : mine(closerSeat) ? t("{winner} had taken no trick when you closed the stock.", facts)
        : t("{winner} had taken no trick when {closer} closed the stock.", facts);
      break;
    case "trick_at_close":
      scale = mine(why.winner) ? t("You had taken a trick when {closer} closed the stock.", facts)
        : mine(closerSeat) ? t("{winner} had taken a trick when you closed the stock.", facts)
        : t("{winner} had taken a trick when {closer} closed the stock.", facts);
      break;
    case "no_trick_false":
      scale = mine(why.winner) ? t("You had taken no trick.") : t("{winner} had taken no trick.", facts);
      break;
    default: scale = "";
  }
  let score = winsText(why.winner, why.game_points, names, you);
  if (why.bonus) score += " " + nt("Plus {n} for the tied hand before.", "Plus {n} for the tied hands before.", why.bonus);
  return [what, scale, score].filter((part) => part).join(" ");
}

// Who wins the hand and how many game points, "you" for the reader.
function winsText(seat, points, names, you) {
  return you !== null && seat === you ? nt("You win {n} game point.", "You win {n} game points.", points)
    : nt("{winner} wins {n} game point.", "{winner} wins {n} game points.", points, { winner: names[seat] });
}

// A hand's result without its explanation (the replay page): who won and how many.
function resultSentence(result, names, you = null) {
  if (result.winner === null || result.winner === undefined) {
    return t("Tied hand ({points}): nobody scores.", { points: `${result.points[0]}\u2013${result.points[1]}` });
  }
  return winsText(result.winner, result.game_points + (result.bonus || 0), names, you);
}

// A line for a moment at the foot of the page: words, or a refusal's words with its links.
function showToast(text) {
  const toast = document.getElementById("toast");
  if (!toast) return;
  if (typeof text === "string") toast.textContent = text;
  else toast.replaceChildren(text);
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

// A request to the server's API. A refusal throws an Error whose message is the refusal
// in the page's language (refusalText), with its code, sentence and arguments (for
// refusalNode's links); a server out of reach throws one with the code "offline", never
// the browser's own words ("Failed to fetch").
async function api(method, path, body, signal, extraHeaders) {
  const headers = Object.assign(body ? { "Content-Type": "application/json" } : {}, extraHeaders || {});
  if (method !== "GET" && account.csrf) headers["X-CSRF-Token"] = account.csrf;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body ? JSON.stringify(body) : undefined, signal });
  } catch (e) {
    if (e.name === "AbortError") throw e;
    throw offlineError();  // the server could not be reached: no raw "Failed to fetch"
  }
  let data = null;
  try { data = await response.json(); } catch (e) { data = null; }
  if (!response.ok) {
    const refusal = {
      code: (data && data.code) || "unavailable",
      text: data && data.text,
      args: (data && data.args) || {},
      reason: (data && data.error) || response.statusText,
    };
    const error = new Error(refusalText(refusal));
    Object.assign(error, refusal);
    error.status = response.status;
    error.retryAfter = Number(response.headers.get("Retry-After")) || null;
    throw error;
  }
  return data;
}

// Reaching the server (issue 36, item 10) -------------------------------------------------
// A request the server never answered (no network, the server down) is an error with the
// code "offline"; a page's loads go through keepTrying, which shows the banner "The
// server cannot be reached" and tries again, waiting longer each time.
function offlineError() {
  const error = new Error(t("The server cannot be reached: check the connection and try again."));
  error.code = "offline";
  error.args = {};
  return error;
}

function offlineText(error) {
  return error && error.code === "offline" ? t("The server cannot be reached: check the connection and try again.") : "";
}

// Seconds between tries: 1, 2, 4, 8, 16, then every 30.
const RETRY_WAITS = [1, 2, 4, 8, 16, 30];
const offline = { failing: 0, wakers: new Set() };

function offlineBanner() {
  let banner = document.getElementById("offline-banner");
  if (!banner) {
    banner = el("div", { id: "offline-banner", class: "offline-banner", role: "status", hidden: true },
      el("span", { id: "offline-text" }),
      el("button", { type: "button", id: "offline-retry", text: t("Try now"), onclick: wakeRetries }));
    document.body.prepend(banner);
  }
  return banner;
}

function showOffline(seconds) {
  const banner = offlineBanner();
  document.getElementById("offline-text").textContent = seconds
    ? nt("The server cannot be reached: trying again in {n} second\u2026",
         "The server cannot be reached: trying again in {n} seconds\u2026", seconds)
    : t("The server cannot be reached: trying again\u2026");
  banner.hidden = false;
  document.body.dataset.offline = "yes";
}

function hideOffline() {
  const banner = document.getElementById("offline-banner");
  if (banner) banner.hidden = true;
  document.body.dataset.offline = "no";
}

// Every wait for the next try ends now ("Try now", or the browser says it is online again).
function wakeRetries() {
  for (const wake of [...offline.wakers]) wake();
}
window.addEventListener("online", wakeRetries);
window.addEventListener("offline", () => showOffline(0));

// Wait ``seconds`` (counted down on the banner), or less if woken.
function offlinePause(seconds) {
  return new Promise((resolve) => {
    let left = seconds;
    const tick = setInterval(() => { left -= 1; if (left > 0) showOffline(left); }, 1000);
    const done = () => { clearInterval(tick); clearTimeout(timer); offline.wakers.delete(done); resolve(); };
    const timer = setTimeout(done, seconds * 1000);
    offline.wakers.add(done);
    showOffline(left);
  });
}

// ``load()`` until the server answers it: while it cannot be reached the banner says so
// and it is tried again after 1, 2, 4 ... 30 seconds. A refusal of the server is thrown.
async function keepTrying(load) {
  for (let attempt = 0; ; attempt++) {
    try {
      const result = await load();
      if (attempt > 0) offline.failing -= 1;
      if (!offline.failing) hideOffline();
      return result;
    } catch (e) {
      if (e.code !== "offline") {
        if (attempt > 0) offline.failing -= 1;
        throw e;
      }
      if (attempt === 0) offline.failing += 1;
      await offlinePause(RETRY_WAITS[Math.min(attempt, RETRY_WAITS.length - 1)]);
    }
  }
}

// One load at a time: a call while one is under way shares it (a page's timer and its
// feed may both ask, and while offline only one loop tries again).
function oneAtATime(load) {
  let running = null;
  return () => running || (running = load().finally(() => { running = null; }));
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

// A character of a refused name as a person can see it: a space or an invisible control
// character by its name or code point.
function charText(char) {
  if (/^\s$/u.test(char)) return t("a space");
  const code = char.codePointAt(0);
  if (code < 32 || (code >= 127 && code < 160)) return `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
  return `\u201c${char}\u201d`;
}

// A refused account request in the page's words (the server's reason is for developers):
// each rule broken has its own code, and ``args`` the facts its sentence names.
function accountError(error) {
  const args = error.args || {};
  switch (error.code) {
    case "name_length": return t("A name has {min} to {max} characters; this one has {length}.", args);
    case "name_start": return t("A name starts with a letter, not with {char}.", { char: charText(args.char || "") });
    case "name_characters": return t("A name has only letters, digits, _ and -: {char} is none of them.",
                                     { char: charText(args.char || "") });
    case "name_reserved": return t("Names starting with {start} are kept for the server: choose another.", args);
    case "name_taken": return t("This name is taken: choose another.");
    case "invisible_name": return t("A name has no invisible characters: use visible letters only.");
    case "name_look_alike": return t("This name looks like a name that is taken: choose another.");
    case "password_length": return t("A password has {min} to {max} characters; this one has {length}.", args);
    case "password_is_name": return t("The password must not be the name.");
    case "common_password": return t("This password is one of the most common ones: choose another.");
    case "weak_password": return t("This password is too easy to guess: use a few words that do not belong together.");
    case "bad_password": return t("A password has 8 to 128 characters and is not the name.");
    case "wrong_password": return t("Wrong name or password.");
    case "bad_code": return t("Wrong name or recovery code, or the code has expired.");
    case "live_games": return nt("You sit in {n} game that is not finished: finish or resign it first.",
                                 "You sit in {n} games that are not finished: finish or resign them first.", args.n || 0);
    case "throttled": return error.retryAfter
      ? nt("Too many attempts: try again in {n} second.", "Too many attempts: try again in {n} seconds.", error.retryAfter)
      : t("Too many attempts: wait a little.");
    case "bad_csrf":
    case "bad_origin": return t("The page is out of date: reload it and try again.");
    case "not_logged_in": return t("You are not logged in.");
    case "bad_request": return t("Fill in every field.");
    default: return offlineText(error) || error.message;
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

// A refusal of the server (sixtysix.server.refusals), for a person: its sentence from the
// catalog, filled with its arguments as the page shows them (a card as on the card, a
// computer level by its name). Only a server older than the page sends no sentence.
const CARD_ARGS = ["card", "partner", "needed"];

function refusalArgs(args) {
  const shown = Object.assign({}, args || {});
  for (const name of CARD_ARGS) if (typeof shown[name] === "string") shown[name] = cardName(shown[name]);
  if (typeof shown.level === "string") shown.level = levelName(shown.level);
  return shown;
}

function refusalText(refusal) {
  if (refusal.code === "offline") return refusal.message;  // in the page's words already (api)
  if (refusal.text) return t(refusal.text, refusalArgs(refusal.args));
  return t("The server refused: {reason}", { reason: refusal.reason || refusal.message || refusal.code });
}

// The same with its links: a refusal naming a game links to it ("finish your match first"),
// one that needs an account links to logging in.
function refusalNode(refusal) {
  const text = refusalText(refusal);
  const args = refusal.args || {};
  const node = el("span", { class: "refusal", "data-code": refusal.code || "" });
  if (typeof args.game === "string") {
    node.append(el("a", { href: `/game/${encodeURIComponent(args.game)}`, text }));
  } else {
    node.append(text);
  }
  if (refusal.code === "needs_account" || refusal.code === "not_logged_in") {
    node.append(" ", loginLink());
  }
  return node;
}

// "Log in": to the lobby's login, coming back to this page once logged in.
function loginLink() {
  const back = location.pathname + location.search;
  return el("a", { href: `/?login=1&next=${encodeURIComponent(back)}`, class: "login-link", text: t("Log in") });
}

// A clock in words: "5 min + 3 s", "20 s a move".
function clockName(control) {
  const move = /^(\d+(?:\.\d+)?)\/move$/.exec(control);
  if (move) return t("{n} s a move", { n: move[1] });
  const match = /^(\d+(?:\.\d+)?)\+(\d+(?:\.\d+)?)$/.exec(control);
  return match ? t("{minutes} min + {seconds} s", { minutes: match[1], seconds: match[2] }) : control;
}

// A match's terms as lichess shows them beside its rules: rated or not, and the clock
// as written ("rated \u00b7 5+3", "unrated \u00b7 no clock").
function termsText(rated, control) {
  const kind = rated ? t("rated") : t("unrated");
  return [kind, control || t("no clock")].join(" \u00b7 ");
}

// The rules and the terms together: "Classic, a match to N game points \u00b7 rated \u00b7 5+3".
function matchText(rules, target, rated, control) {
  const terms = termsText(rated, control);
  return rules ? [rulesText(rules, target), terms].join(" \u00b7 ") : terms;
}

// What the server refused over the WebSocket, for a person (refusalText).
function serverError(message) {
  return refusalText(message);
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
