// The game table: connects to the server, shows this seat's view, sends actions.
// The server decides everything; this page only shows what it is sent.
"use strict";

const gameId = decodeURIComponent(location.pathname.split("/").pop());
const tokenKey = `sixtysix-token-${gameId}`;
// A tournament's match is opened from its page with ?tournament=ID: the way back is offered.
const tournamentId = ((id) => (id && /^[A-Za-z0-9_-]{1,32}$/.test(id) ? id : null))(
  new URLSearchParams(location.search).get("tournament"));
let token = localStorage.getItem(tokenKey);
let socket = null;
let state = null;          // the last state message
let seenResults = null;    // how many hand results were shown already
let pendingCard = null;    // a card with a marriage choice, waiting for the second click
let retry = 0;
let leaving = false;
// The player's settings, kept by the browser.
const settings = {
  // Ask before an action that can cost the hand at once: closing, declaring under 66.
  get confirm() { return localStorage.getItem("sixtysix-confirm") !== "off"; },
  set confirm(on) { localStorage.setItem("sixtysix-confirm", on ? "on" : "off"); },
  // How long a finished trick stays on the table: "tap" (until the player goes on),
  // seconds ("1.5", "3"), or "0" (not kept).
  get trickPause() {
    const value = localStorage.getItem("sixtysix-trick-pause");
    return ["tap", "0", "1.5", "3"].includes(value) ? value : "1.5";
  },
  set trickPause(value) { localStorage.setItem("sixtysix-trick-pause", value); },
  // Sound effects: off unless the player turns them on.
  get sound() { return localStorage.getItem("sixtysix-sound") === "on"; },
  set sound(on) { localStorage.setItem("sixtysix-sound", on ? "on" : "off"); },
  // A notification when it becomes the player's turn while the tab is hidden.
  get notify() { return localStorage.getItem("sixtysix-notify") === "on"; },
  set notify(on) { localStorage.setItem("sixtysix-notify", on ? "on" : "off"); },
};
let clockAt = 0;           // when the last state arrived (performance.now()), for the clocks
let endingShown = false;   // whether the match's end (resigned, time, left, aborted) was shown

// Sound effects, made in the page (Web Audio: no files): a card played, a trick taken,
// the player's turn, a hand's end. Each is a few short tones.
const SOUNDS = {
  card: [[520, 0, 0.05]],
  trick: [[660, 0, 0.07], [880, 0.08, 0.09]],
  turn: [[740, 0, 0.08]],
  end: [[523, 0, 0.12], [659, 0.13, 0.12], [784, 0.26, 0.2]],
};
let audio = null;

function play(kind) {
  if (!settings.sound || !SOUNDS[kind]) return;
  try {
    audio = audio || new AudioContext();
    const start = audio.currentTime;
    for (const [frequency, at, length] of SOUNDS[kind]) {
      const tone = audio.createOscillator();
      const volume = audio.createGain();
      tone.frequency.value = frequency;
      volume.gain.setValueAtTime(0.12, start + at);
      volume.gain.exponentialRampToValueAtTime(0.001, start + at + length);
      tone.connect(volume).connect(audio.destination);
      tone.start(start + at);
      tone.stop(start + at + length);
    }
    document.body.dataset.sound = kind;  // what was played last, for tests that listen
  } catch (e) {
    /* no audio here: silence */
  }
}

// The sound a new state calls for, compared with the one before.
function soundFor(previous, next) {
  if (!previous || !next.view || !previous.view) return;
  if (next.game.results.length > previous.game.results.length) play("end");
  else if (next.view.tricks.length > previous.view.tricks.length) play("trick");
  else if (next.view.history.length > previous.view.history.length) {
    const mine = next.you !== null && next.view.to_act === next.you && previous.view.to_act !== next.you;
    play(mine ? "turn" : "card");
  }
}
// A finished trick kept on the table: {trick: [leader, lead, follow, winner], points}.
let held = null;
let heldTimer = null;
// A finished hand on the table (its last trick, both players' remaining cards) before and
// under its result; the next hand is shown when the player goes on from the result.
let ended = null;
let endTimer = null;
// The match score before the hand that just ended ({score, pending_bonus}): the header
// keeps it until that hand's result is shown.
let scoreBefore = null;
// The last hint the server worked out ({hand, index, lines}), shown while its position lasts.
let hint = null;
let hintAsked = false;

function names() {
  if (!state) return ["", ""];
  return playerNames(state.game).map((n, i) => n || (i === 1 ? t("(free seat)") : "?"));
}

function setConnection(text, bad) {
  const node = document.getElementById("connection");
  node.textContent = text;
  node.classList.toggle("bad", !!bad);
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(gameId)}`);
  setConnection(t("connecting\u2026"));
  let served = false;  // connected is said once the game's state came, not when the socket opened
  socket.addEventListener("open", () => {
    document.getElementById("chat-lines").replaceChildren();  // the server sends the latest lines again
    socket.send(JSON.stringify({ type: "hello", token: token || null }));
  });
  socket.addEventListener("message", (event) => {
    let message;
    try { message = JSON.parse(event.data); } catch (e) { return; }
    if (message.type === "state") {
      if (!served) { served = true; retry = 0; setConnection(t("connected")); hideOffline(); }
      hold(state, message); soundFor(state, message); notifyTurn(state, message);
      state = message; clockAt = performance.now(); render();
    }
    else if (message.type === "presence") {
      // How many watch, told apart from the state (spectators coming and going send no state).
      if (state) { state.game.spectators = message.spectators; render(); }
    }
    else if (message.type === "hint") { hint = message; render(); }
    else if (message.type === "chat") addChatLine(message);
    else if (message.type === "error") onError(message);
    else if (message.type === "rematch") goToRematch(message.game);
    else if (message.type === "declined" && state && message.seat !== state.you) {
      showToast(t("{name} declined.", { name: names()[message.seat] }));
    }
  });
  socket.addEventListener("close", () => {
    if (leaving) return;
    // Lost the connection: try again, waiting a little longer each time; the
    // server has kept the game where it was.
    retry = Math.min(retry + 1, 6);
    const wait = 500 * 2 ** (retry - 1);
    setConnection(t("disconnected \u2014 reconnecting in {seconds} s", { seconds: Math.round(wait / 1000) }), true);
    // The banner says it too, and "Try now" (or the browser coming online) reconnects at once.
    const again = () => { clearTimeout(timer); offline.wakers.delete(again); connect(); };
    const timer = setTimeout(again, wait);
    offline.wakers.add(again);
    showOffline(Math.round(wait / 1000));
  });
}

function onError(message) {
  if (message.code === "bad_token") {
    // The stored token is not for this game (or was forged): watch instead.
    localStorage.removeItem(tokenKey);
    token = null;
  }
  if (message.code === "no_game") {
    leaving = true;
    document.getElementById("table").hidden = true;
    showToast(t("There is no such game."));
    return;
  }
  if (message.code === "too_many_spectators") showToast(t("This game has as many spectators as it takes: trying again in a moment."));
  else if (message.code === "bad_chat") showToast(t("A line of chat has 1 to 200 characters."));
  else showToast(refusalNode(message));
}

function goToRematch(newId) {
  if (token) localStorage.setItem(`sixtysix-token-${newId}`, token);
  leaving = true;
  location.href = `/game/${newId}`;
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  else showToast(t("Not connected: reconnecting\u2026"));
}

function act(action) {
  pendingCard = null;
  hintAsked = false;
  send({ type: "act", action, hand: state.game.hand_number, index: state.game.actions });
}

// What an action risks, when it can lose the hand outright: a question for the player. The
// game points at stake are the server's (failed_close_points, false_declaration_points: the
// rules kernel's, under this game's rules), never counted here.
function risk(action, view, you) {
  if (action === "C") {
    return { title: t("Close the stock?"),
             text: nt("No more cards are drawn, and from now on you must follow suit and win the trick if you can. If you do not reach 66, your opponent scores {n} game point.",
                      "No more cards are drawn, and from now on you must follow suit and win the trick if you can. If you do not reach 66, your opponent scores {n} game points.",
                      view.failed_close_points),
             yes: t("Close the stock") };
  }
  if (action.startsWith("66") && isFalseDeclaration(action, view) && !playOptions.memory) {
    const counted = declaredCount(action, view);
    return { title: t("Declare 66 with {points}?", { points: counted }),
             text: nt("You count {points}, under 66: declaring now loses the hand, and your opponent scores {n} game point. Play on to collect more points.",
                      "You count {points}, under 66: declaring now loses the hand, and your opponent scores {n} game points. Play on to collect more points.",
                      view.false_declaration_points[action], { points: counted }),
             yes: t("Declare anyway") };
  }
  return null;
}

// The points a declaration counts, as the server counted them for this seat (its points,
// and the marriage shown with it: R8.1, R5.5).
function declaredCount(action, view) {
  return view.declare_counts[action];
}

// Whether a declaration would be false (R8.3), as the server judged it: it sends the game
// points a false one gives away, for those only.
function isFalseDeclaration(action, view) {
  return view.false_declaration_points[action] !== undefined;
}

// Ask ``question`` ({title, text, yes}) in the confirmation dialog; ``then`` runs on "yes".
function ask(question, then) {
  const dialog = document.getElementById("confirm");
  document.getElementById("confirm-title").textContent = question.title;
  document.getElementById("confirm-text").textContent = question.text;
  const yes = document.getElementById("confirm-yes");
  yes.textContent = question.yes;
  yes.onclick = () => { dialog.close(); then(); };
  dialog.showModal();
}

// Send ``action``, after asking when it is one that can lose the hand (unless turned off).
function actOrAsk(action) {
  const question = settings.confirm ? risk(action, state.view, state.you) : null;
  if (!question) { act(action); return; }
  const dialog = document.getElementById("confirm");
  document.getElementById("confirm-title").textContent = question.title;
  document.getElementById("confirm-text").textContent = question.text;
  const yes = document.getElementById("confirm-yes");
  yes.textContent = question.yes;
  const position = `${state.game.hand_number}:${state.game.actions}`;
  yes.onclick = () => {
    dialog.close();
    // Only for the position it was asked in: a reconnect or a late state may have moved on.
    if (`${state.game.hand_number}:${state.game.actions}` === position) act(action);
  };
  dialog.showModal();
}

function onCard(card) {
  const view = state.view;
  if (!view || !view.legal.length || held) return;
  const action = cardAction(card, view.legal);
  if (action === "ask") {
    pendingCard = pendingCard === card ? null : card;  // ask which (a second click cancels)
    render();
  } else if (action) act(action);
  else showToast(t("{card} cannot be played now.", { card: cardName(card) }));
}

// Keep the trick that ``next`` completed on the table, when it completed one in the hand
// ``previous`` showed: the points are what its winner's card points grew by.
function hold(previous, next) {
  if (!previous || !previous.view || !next.view || settings.trickPause === "0") return;
  if (next.game.results.length !== previous.game.results.length) {
    release();  // the hand is over: its result panel tells the rest
    // The match score as it was, shown until the hand's result is (renderResult).
    scoreBefore = { score: previous.game.score, pending_bonus: previous.game.pending_bonus };
    return;
  }
  if (previous.game.hand_number !== next.game.hand_number) {
    release();
    return;
  }
  const before = previous.view.tricks.length;
  if (next.view.tricks.length !== before + 1) return;
  const trick = next.view.tricks[before];
  const winner = trick[3];
  const points = winner === null ? null : next.view.card_points[winner] - previous.view.card_points[winner];
  release();
  // ``next`` is the table at the moment the trick was taken: the page shows it (the log,
  // points, stock, score) until the trick is cleared, whatever states come meanwhile.
  held = { trick, points, state: next };
  if (settings.trickPause !== "tap") heldTimer = setTimeout(goOn, 1000 * Number(settings.trickPause));
}

function release() {
  if (heldTimer !== null) clearTimeout(heldTimer);
  heldTimer = null;
  held = null;
}

// The player goes on: the kept trick leaves the table (or the hand's end gives way to its result).
function goOn() {
  if (ended && ended.waiting) { ended.waiting(); return; }
  if (held === null) return;
  release();
  render();
}

// The kept trick in the middle of the table: both cards, who won it and the points.
function renderHeld(n, you) {
  const [leader, lead, follow, winner] = held.trick;
  const played = (seat, card) => el("figure", { class: `played${seat === winner ? " won" : ""}`, "data-card": card },
    cardImage(card), el("figcaption", { text: seat === you ? t("You") : n[seat] }));
  let label;
  if (winner === null) label = t("Nobody wins the trick");
  else if (held.points === null || playOptions.memory) {
    label = winner === you ? t("You win the trick") : t("{name} wins the trick", { name: n[winner] });
  }
  else if (winner === you) label = t("You win the trick (+{points})", { points: held.points });
  else label = t("{name} wins the trick (+{points})", { name: n[winner], points: held.points });
  document.getElementById("trick").replaceChildren(
    el("div", { class: "trick-cards" }, played(leader, lead), played(1 - leader, follow)),
    el("div", { class: "trick-label held-label", text: label }),
    el("button", { type: "button", id: "go-on", class: "primary go-on", text: t("Go on"), onclick: goOn }));
}

// The state the table shows: while a finished trick is kept, the moment it was taken.
function shown() {
  return held ? held.state : state;
}

// The match score in the header: before a finished hand's result is shown, the score
// before that hand (it changes with the result, not before).
function scoreText(game, n, bottom, top) {
  const now = ended && !ended.shown && scoreBefore ? scoreBefore : game;
  return t("{me} {mine} \u2013 {theirs} {them} (to {target})",
           { me: n[bottom], mine: now.score[bottom], theirs: now.score[top], them: n[top], target: game.target }) +
    (now.pending_bonus ? " " + t("+{n} to the next winner", { n: now.pending_bonus }) : "");
}

function render() {
  const game = shown().game;
  const view = shown().view;
  const you = state.you;
  const bottom = you === null ? 0 : you;
  const top = 1 - bottom;
  const n = names();
  document.getElementById("table").hidden = false;
  // Where the game stands (hand and action count), for scripts and tests that follow the page.
  document.body.dataset.position = `${state.game.hand_number}:${state.game.actions}:${state.game.status}`;
  document.title = t("Sixty-six: {first} vs {second}", { first: n[0], second: n[1] });
  turnTitle();
  renderResult(state.game, you, n);  // first: a hand just over keeps the score of before it
  document.getElementById("match-score").textContent = scoreText(game, n, bottom, top);
  // A rated match shows each side's rating as it began, beside the name.
  const rated = (seat) => game.ratings && game.ratings[seat] !== undefined ? ` (${game.ratings[seat]})` : "";
  document.getElementById("opponent-name").textContent = n[top] + rated(top);
  document.getElementById("my-name").textContent =
    (you === null ? n[bottom] : t("{name} (you)", { name: n[bottom] })) + rated(bottom);
  document.getElementById("hand-number").textContent = t("Hand {n}", { n: game.hand_number }) +
    (game.spectators ? " \u00b7 " + nt("{n} watching", "{n} watching", game.spectators) : "") +
    // A match played with takebacks says so, as its record does.
    (game.takeback ? " \u00b7 " + nt("takebacks allowed, {n} taken", "takebacks allowed, {n} taken", game.taken_back) : "");
  document.getElementById("match-terms").textContent =
    matchText(game.rules, game.target, game.rated, game.clock ? game.clock.control : null);
  const share = document.getElementById("share");
  share.hidden = !(game.status === "waiting" && you === 0);
  if (!share.hidden) document.getElementById("share-link").value = location.href;
  renderOffer(game, you, n);
  if (!view) return;
  // Memory mode: the tricks are counted, the points are for the player to remember (R11.3).
  const points = (seat) => playOptions.memory
    ? nt("{n} trick (points hidden)", "{n} tricks (points hidden)", view.tricks_won[seat])
    : pointsText(view.scores[seat], view.tricks_won[seat]);
  document.getElementById("opponent-points").textContent = points(top);
  document.getElementById("my-points").textContent = points(bottom);
  // The opponent's cards: backs only (and for a spectator, both hands as backs).
  const backs = document.getElementById("opponent-hand");
  backs.replaceChildren(...Array.from({ length: view.hand_sizes[top] }, () => cardImage(null, "back")));
  renderMiddle(view, n, bottom, you);
  if (held) renderHeld(n, you);
  // The last few actions, newest first: what the other player just did is never missed.
  document.getElementById("log").replaceChildren(...view.history.slice(-4).reverse().map(([seat, action]) =>
    el("li", { text: t("{name}: {action}", { name: seat === you ? t("You") : n[seat], action: describeAction(action) }) })));
  drawing = drawByItself(view, you);
  renderHand(view, you);
  renderChoices(view, you);
  renderHint(view, you);
  renderStatus(game, view, you, n);
  renderMatchActions(game, you);
  renderChat(game, you);
  renderClocks();
  if (ended) renderEnd(n, you);
  renderEnding(state.game, you, n);
  document.body.dataset.held = ended ? "end" : held ? "yes" : "no";
}

// Automatic drawing (Settings): after a won trick, once it left the table, the page asks
// for the draw the player would click (the server's legal actions say it is one).
// Whether the page draws now: the table then offers nothing until the draw is answered.
// A later state at the same position (the draw taken back) leaves the choice to the
// player: drawing, or closing before the draw.
let drawnAt = null;
let drawnIn = null;  // the state the page drew in
let drawing = false;
function drawByItself(view, you) {
  if (!playOptions.autoDraw || you === null || held || ended || !view || view.to_act !== you) return false;
  if (view.state !== "draw" || !view.legal.includes("D") || state.game.status !== "playing") return false;
  const position = `${state.game.hand_number}:${state.game.actions}`;
  if (drawnAt !== position) {
    drawnAt = position;
    drawnIn = state;
    act("D");
  }
  return drawnIn === state;
}

function renderHand(view, you) {
  const hand = document.getElementById("my-hand");
  if (you === null) {
    hand.replaceChildren(...Array.from({ length: view.hand_sizes[0] }, () => cardImage(null, "back")));
    return;
  }
  // While a finished trick is kept on the table, the player looks at it: nothing is played.
  const legalNow = held ? [] : view.legal;
  const playable = new Set(legalNow.filter((a) => a.length <= 3 && a[0] !== "6").map((a) => a.slice(0, 2)));
  const best = hintNow() && hintNow().lines.length ? hintNow().lines[0].action.slice(0, 2) : null;
  const myTurn = legalNow.length > 0;
  hand.replaceChildren(...sortCards(view.hand, view.trump).map((card) => {
    const legal = playable.has(card);
    const button = el("button", {
      type: "button",
      class: `card${legal ? " legal" : ""}${myTurn && !legal ? " dim" : ""}${pendingCard === card ? " chosen" : ""}` +
             (legal && best === card ? " hinted" : ""),
      "data-card": card,
      "aria-label": legal ? t("{card} (playable)", { card: cardWords(card) }) : cardWords(card),
      draggable: legal ? "true" : "false",
      onclick: () => onCard(card),
      ondragstart: (event) => event.dataTransfer.setData("text/plain", card),
    }, cardImage(card));
    return button;
  }));
}

// Whether the player may take back his last action now: the game allows it (against the
// computer), it is his turn in the hand being played, and he has acted in it.
function canTakeBack(view, you) {
  // Between people (an unrated game without a clock) it is asked of the other, whoever is to act.
  const asked = state.game.kind === "person" && !state.game.rated && !state.game.clock &&
    state.game.status === "playing";
  return !!((state.game.takeback || asked) && you !== null && view && (asked || view.to_act === you) &&
            !held && !ended && view.history.some(([seat]) => seat === you));
}

// Offers between people (a rematch, a takeback, calling off): the other player accepts
// (by asking the same) or declines; an offer not answered in time lapses.
let offerTimer = null;
function renderOffer(game, you, n) {
  const box = document.getElementById("offer");
  const passed = (performance.now() - clockAt) / 1000;
  const waiting = Object.entries(game.offers || {}).filter(([, offer]) => offer.expires_in > passed);
  const rematch = document.getElementById("rematch");
  if (rematch) {
    const mine = waiting.some(([what, offer]) => what === "rematch" && offer.seat === you);
    const theirs = waiting.some(([what, offer]) => what === "rematch" && offer.seat !== you);
    rematch.textContent = mine ? t("Rematch offered") : theirs ? t("Accept the rematch") : t("Rematch");
    rematch.disabled = mine;
  }
  clearTimeout(offerTimer);
  if (you === null || !waiting.length) { box.hidden = true; box.replaceChildren(); return; }
  const [what, offer] = waiting[0];
  offerTimer = setTimeout(() => renderOffer(state.game, state.you, names()), (offer.expires_in - passed) * 1000 + 50);
  const answer = (type) => send(type === "decline" ? { type, offer: what } : { type: what });
  if (offer.seat === you) {
    box.replaceChildren(el("span", { text: t("Waiting for {name} to answer.", { name: n[1 - you] }) }),
      el("button", { type: "button", id: "withdraw-offer", text: t("Cancel"), onclick: () => answer("decline") }));
  } else {
    const words = { rematch: t("{name} offers a rematch.", { name: n[offer.seat] }),
                    takeback: t("{name} asks to take back the last action.", { name: n[offer.seat] }),
                    abort: t("{name} offers to call the match off.", { name: n[offer.seat] }) };
    box.replaceChildren(el("span", { text: words[what] || "" }),
      el("button", { type: "button", class: "primary", id: "accept-offer", text: t("Accept"), onclick: () => answer(what) }),
      el("button", { type: "button", id: "decline-offer", text: t("Decline"), onclick: () => answer("decline") }));
  }
  box.hidden = false;
}

// Hints against the computer (the terminal game's analysis): the server values every
// legal action from this seat's view; the page shows them best first.
const HINT_LINES = 4;

function canHint(view, you) {
  return state.game.kind === "computer" && you !== null && view && view.to_act === you && !held && !ended &&
    state.game.status === "playing";
}

function askHint() {
  hintAsked = true;
  send({ type: "hint" });
  render();
}

function hintNow() {
  return hint && hint.hand === state.game.hand_number && hint.index === state.game.actions ? hint : null;
}

// A probability as a whole percentage, in the page's language (42 %, 42%).
function percent(p) {
  return new Intl.NumberFormat(document.documentElement.lang || undefined, { style: "percent" }).format(p);
}

function renderHint(view, you) {
  const box = document.getElementById("hint");
  const now = hintNow();
  if (!canHint(view, you) || (!now && !hintAsked)) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  if (!now) {
    box.replaceChildren(el("p", { text: t("Working out a hint\u2026") }));
    return;
  }
  hintAsked = false;
  // For a newcomer: the best action in words, what it wins on average and how sure
  // (the server says how sure: sixtysix.bots.analysis.Certainty); the numbers behind a toggle.
  const best = now.lines[0];
  const parts = [el("p", { class: "hint-advice", text: adviceText(best, now, view) })];
  // Near the most a hand scores the server sends the interval as far as it is possible.
  const value = (line) => line.exact ? t("{value} exactly", { value: signed(line.value, 0) })
    : line.interval ? t("{value} ({low} to {high})", { value: signed(line.value, 2), low: signed(line.interval[0], 2),
                                                       high: signed(line.interval[1], 2) })
    : t("{value} \u00b1 {error}", { value: signed(line.value, 2), error: decimalText(line.error, 2) });
  // The best few: the rest are worse still, and the hand stays in sight.
  const items = now.lines.slice(0, HINT_LINES).map((line, i) => el("li", { class: i === 0 ? "best" : "" },
    el("span", { class: "hint-action", text: describeAction(line.action, view) }), " ",
    el("span", { class: "hint-value", text: value(line) }),
    ...(line.network == null ? [] : [" ", el("span", { class: "hint-network dim", text: percent(line.network) })])));
  const numbers = [el("summary", { text: t("The numbers") }),
                   el("p", { text: t("Game points for you with each action, best first:") }), el("ol", {}, ...items)];
  if (!best.exact) {
    numbers.push(el("p", { class: "dim", text: t("Averaged over {n} layouts of the hidden cards; \u00b1 is a 95% margin.",
                                                 { n: best.samples }) }));
  }
  if (best.network != null) {
    numbers.push(el("p", { class: "dim",
                           text: t("(in per cent: how likely the learned network is to play it, at a glance, without search)") }));
  }
  const details = el("details", { id: "hint-numbers" }, ...numbers);
  details.open = hintNumbersOpen;
  details.addEventListener("toggle", () => { hintNumbersOpen = details.open; });
  parts.push(details);
  box.replaceChildren(...parts);
  box.hidden = false;
}

// Whether the player opened the hint's numbers: kept for the next hint.
let hintNumbersOpen = false;

// A decimal in the page's language (1.4, 1,4).
function decimalText(value, digits) {
  return new Intl.NumberFormat(document.documentElement.lang || undefined,
    { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
}

// The best action at the head of the hint's sentence: a marriage in words of its own
// (sixtysix.present.text.advice.best_words), else as the buttons say it.
function bestWords(action, view) {
  if (/^[9TJQKA][CDHS]\+$/.test(action)) {
    return t("Announce the marriage in {suit} and lead {card}", { suit: suitName(action[1]), card: cardName(action) });
  }
  return describeAction(action, view);
}

// An action about as good as the best, in a sentence of its own (advice.as_good_sentence).
function asGoodSentence(action, view) {
  if (action === "X") {
    const mine = view ? view.exchange_card : null;
    if (mine && view.trump_card) {
      return t("Exchanging your {card} for the turned-up {trump} is about as good.",
               { card: cardName(mine), trump: cardName(view.trump_card) });
    }
    return t("Exchanging for the turned-up trump is about as good.");
  }
  if (action === "C") return t("Closing the stock is about as good.");
  if (action === "D") return t("Drawing is about as good.");
  if (action === "66") return t("Declaring 66 is about as good.");
  if (action.startsWith("66+")) return t("Showing the {suit} marriage and declaring 66 is about as good.", { suit: suitName(action[3]) });
  if (action.endsWith("+")) {
    return t("Announcing the marriage in {suit} and leading {card} is about as good.", { suit: suitName(action[1]), card: cardName(action) });
  }
  return t("{card} is about as good.", { card: cardName(action) });
}

// The hint in words (as the terminal game says it: sixtysix.present.text.advice).
function adviceText(best, hint, view) {
  const action = bestWords(best.action, view);
  let worth;
  if (best.exact) {
    const n = Math.round(Math.abs(best.value));
    worth = n === 0 ? t("with best play from both sides nobody scores")
      : best.value > 0 ? nt("with best play it wins {n} game point", "with best play it wins {n} game points", n, { n })
      : nt("with best play it loses {n} game point", "with best play it loses {n} game points", n, { n });
  } else if (Math.abs(best.value) < 0.05) {
    worth = t("it is about even on average");
  } else {
    const n = decimalText(Math.abs(best.value), 1);
    worth = best.value > 0 ? nt("it wins about {n} game point on average", "it wins about {n} game points on average", 2, { n })
      : nt("it loses about {n} game point on average", "it loses about {n} game points on average", 2, { n });
  }
  const sure = { sure: t("quite sure"), likely: t("fairly sure"),
                 rough: t("a rough guess: the hidden cards could change it") }[hint.certainty];
  let text = sure ? t("{action}: {worth} ({sure}).", { action, worth, sure }) : t("{action}: {worth}.", { action, worth });
  if (hint.rival) text += " " + asGoodSentence(hint.rival, view);
  return text;
}

function signed(value, digits) {
  return (value < 0 ? "\u2212" : "+") + decimalText(Math.abs(value), digits);
}

function takeBack() {
  send({ type: "takeback", hand: state.game.hand_number, index: state.game.actions });
}

function renderChoices(view, you) {
  const box = document.getElementById("choices");
  box.replaceChildren();
  if (you === null || held || drawing) return;
  const buttons = [];
  if (pendingCard) {
    buttons.push(el("button", { type: "button", class: "primary", "data-action": pendingCard + "+",
                                text: t("{card} with the marriage", { card: cardName(pendingCard) }),
                                onclick: () => act(pendingCard + "+") }));
    buttons.push(el("button", { type: "button", "data-action": pendingCard,
                                text: t("{card} alone", { card: cardName(pendingCard) }), onclick: () => act(pendingCard) }));
  }
  for (const action of view.legal) {
    if (/^[9TJQKA][CDHS]\+?$/.test(action)) continue;  // cards are played from the hand
    let cls = "";
    let title = null;
    if (action.startsWith("66")) {
      // Declaring is always allowed (R8); below 66 it is a false declaration (R8.3): it
      // looks apart, and the player is asked first (actOrAsk).
      // In memory mode the button does not tell whether the player has 66 (R11.3).
      const risky = isFalseDeclaration(action, view) && !playOptions.memory;
      cls = risky ? "declare risky" : "declare";
      if (risky) title = t("You count {points}: declaring now loses the hand.", { points: declaredCount(action, view) });
    }
    buttons.push(el("button", { type: "button", "data-action": action, text: describeAction(action, view),
                                class: cls, title, onclick: () => actOrAsk(action) }));
  }
  if (canHint(view, you)) {
    buttons.push(el("button", { type: "button", id: "hint-button", class: "hint-button", text: t("Hint"),
                                disabled: hintAsked && !hintNow(), onclick: askHint }));
  }
  if (canTakeBack(view, you)) {
    buttons.push(el("button", { type: "button", id: "take-back", class: "take-back", text: t("Take back"),
                                title: t("Take back your last action (and the computer's after it)"), onclick: takeBack }));
  }
  box.replaceChildren(...buttons);
}

function renderStatus(game, view, you, n) {
  const status = document.getElementById("status");
  let text;
  if (game.status === "abandoned") text = t("This game was abandoned: nobody moved in it for too long.");
  else if (game.status === "waiting") text = t("Waiting for the second player to join.");
  else if (game.status === "aborted") text = t("The match was called off.");
  else if (game.status === "finished") text = t("The match is over: {name} won.", { name: n[game.winner] });
  else if (view.to_act === null) text = t("The hand is over.");
  else if (held) text = settings.trickPause === "tap" ? t("Tap the trick or Go on to play on.") : t("The trick is taken\u2026");
  else if (drawing) text = t("Drawing from the stock\u2026");
  else if (you !== null && view.to_act === you) {
    text = view.state === "draw" ? t("You won the trick: draw, close or declare.") :
      view.state === "follow" ? t("Your turn: follow the card led.") : t("Your turn: lead a card.");
  } else text = t("{name} is to play\u2026", { name: n[view.to_act] });
  status.textContent = you === null ? t("You are watching. {status}", { status: text }) : text;
  status.classList.toggle("your-turn", you !== null && view.to_act === you && !held && !drawing);
}

function renderResult(game, you, n) {
  const count = game.results.length;
  if (seenResults === null) {
    seenResults = game.status === "finished" ? count - 1 : count;  // show nothing old on (re)load
  }
  if (count <= seenResults) return;
  seenResults = count;
  const last = state.last_hand;
  if (last && last.number === count) {
    // The hand's end first: its last trick and the cards left, face up; then the result.
    ended = last;
    const pause = settings.trickPause;
    if (pause !== "0") {
      const later = () => { showResult(game, you, n, count); render(); };
      if (pause !== "tap") endTimer = setTimeout(later, 1000 * Number(pause));
      else ended.waiting = later;
      return;
    }
  }
  showResult(game, you, n, count);
}

function showResult(game, you, n, count) {
  if (endTimer !== null) clearTimeout(endTimer);
  endTimer = null;
  if (ended) { ended.waiting = null; ended.shown = true; }
  const result = game.results[count - 1];
  const finished = game.status === "finished";
  document.getElementById("result-title").textContent = finished ? matchWinner(game.winner, you, n)
    : result.winner === null ? t("Hand {n}: tied", { n: count })
    : result.winner === you ? t("Hand {n}: you win", { n: count })
    : t("Hand {n}: {name} wins", { n: count, name: n[result.winner] });
  // Why, from the hand's explanation when this page saw the hand end (else the plain result).
  const why = ended && ended.number === count && ended.why ? ended.why : null;
  document.getElementById("result-text").textContent = (why ? explainResult(why, n, you) : resultSentence(result, n, you)) +
    (finished ? ratingText(game, n, you) : "");
  const rows = [["", ...[0, 1].map((seat) => (seat === you ? t("You") : n[seat]))], [t("Points"), ...result.points], [t("Tricks"), ...result.tricks],
                [t("Match score"), ...game.score]];
  document.getElementById("result-table").replaceChildren(...rows.map((row, i) =>
    el("tr", {}, ...row.map((cell) => el(i === 0 ? "th" : "td", { text: String(cell) })))));
  const buttons = document.getElementById("result-buttons");
  buttons.replaceChildren();
  if (finished) {
    if (you !== null) {
      buttons.append(el("button", { type: "button", class: "primary", id: "rematch", text: t("Rematch"),
                                    onclick: () => send({ type: "rematch" }) }));
    }
    buttons.append(el("a", { class: "button", href: `/api/games/${gameId}/record`, text: t("Download the record") }));
    buttons.append(el("a", { class: "button", href: `/replay/${gameId}`, text: t("Replay") }));
    buttons.append(el("a", { class: "button", href: "/", text: t("Lobby") }));
    if (tournamentId) buttons.append(tournamentLink());
  }
  if (finished) {
    buttons.append(el("button", { type: "button", id: "result-close", text: t("Close"), onclick: () => closeResult(true) }));
  } else {
    buttons.prepend(el("button", { type: "button", class: "primary", id: "result-close", text: t("Next hand"),
                                   onclick: () => { closeResult(false); ended = null; render(); } }));
    buttons.append(el("button", { type: "button", id: "result-look", text: t("Look at the table"),
                                  onclick: () => closeResult(true) }));
  }
  openResult();
}

// The result panel is modal (issue 36, item 11): the page beneath is inert, Tab goes round
// its buttons, Enter presses the first ("Next hand", "Rematch"); Escape or "Look at the
// table" closes it to look at the table, and "Show the result" brings it back.
function openResult() {
  const dialog = document.getElementById("result");
  document.getElementById("result-again").hidden = true;
  dialog.hidden = false;
  if (!dialog.open) dialog.showModal();
  const first = dialog.querySelector("#result-buttons button, #result-buttons a");
  if (first) first.focus();
}

function closeResult(look) {
  const dialog = document.getElementById("result");
  dialog.hidden = true;
  if (dialog.open) dialog.close();
  document.getElementById("result-again").hidden = !look;
}

// Tab and Shift+Tab from the last or first control of a modal panel go round to the other end.
function keepFocusIn(event) {
  if (event.key !== "Tab") return;
  const controls = [...event.currentTarget.querySelectorAll("button, a[href], input, select")]
    .filter((node) => !node.disabled && node.offsetParent !== null);
  if (!controls.length) return;
  const first = controls[0];
  const last = controls[controls.length - 1];
  if (event.shiftKey && document.activeElement === first) { event.preventDefault(); last.focus(); }
  else if (!event.shiftKey && document.activeElement === last) { event.preventDefault(); first.focus(); }
}

// The finished hand on the table: the last trick in the middle, both players' remaining
// cards face up, nothing to play.
function renderEnd(n, you) {
  const bottom = you === null ? 0 : you;
  const top = 1 - bottom;
  const faceUp = (cards) => sortCards(cards, ended.trump).map((card) =>
    el("span", { class: "shown", "data-card": card }, cardImage(card)));
  document.getElementById("opponent-hand").replaceChildren(...faceUp(ended.remaining[top]));
  document.getElementById("my-hand").replaceChildren(...faceUp(ended.remaining[bottom]));
  document.getElementById("choices").replaceChildren();
  // Nothing of the next hand yet: its stock, its log, its points.
  document.getElementById("stock").replaceChildren();
  document.getElementById("stock-label").textContent = "";
  document.getElementById("marriages").replaceChildren();
  document.getElementById("log").replaceChildren();
  document.getElementById("hand-number").textContent = t("Hand {n}", { n: ended.number });
  document.getElementById("trump-label").textContent = trumpText(ended.trump);
  if (ended.result) {
    const points = (seat) => pointsText(ended.result.points[seat], ended.result.tricks[seat]);
    document.getElementById("opponent-points").textContent = points(top);
    document.getElementById("my-points").textContent = points(bottom);
  }
  const parts = [];
  if (ended.last_trick) {
    const [leader, lead, follow, winner] = ended.last_trick;
    const played = (seat, card) => el("figure", { class: `played${seat === winner ? " won" : ""}`, "data-card": card },
      cardImage(card), el("figcaption", { text: seat === you ? t("You") : n[seat] }));
    parts.push(el("div", { class: "trick-cards" }, played(leader, lead), played(1 - leader, follow)));
    const who = winner === null ? t("Last trick: nobody") : winner === you ? t("Last trick: you")
      : t("Last trick: {name}", { name: n[winner] });
    parts.push(el("div", { class: "trick-label held-label", text: who }));
  }
  if (ended.waiting) {
    parts.push(el("button", { type: "button", id: "go-on", class: "primary go-on", text: t("See the result"),
                              onclick: () => ended && ended.waiting && ended.waiting() }));
  }
  document.getElementById("trick").replaceChildren(...parts);
  const status = document.getElementById("status");
  status.textContent = t("Hand {n} is over.", { n: ended.number });
  status.classList.remove("your-turn");
}

// Clocks ---------------------------------------------------------------------------------
// The server keeps the clocks; the page counts down from the last state it was sent.
function clockText(seconds) {
  const s = Math.max(0, seconds);
  if (s < 10) return s.toFixed(1);
  const whole = Math.ceil(s);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const sec = String(whole % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}

function clockLeft(clock, seat) {
  const passed = (performance.now() - clockAt) / 1000;
  if (clock.running !== seat) return clock.left[seat];
  return clock.left[seat] - Math.max(0, passed - clock.starts_in);
}

function renderClocks() {
  if (!state) return;
  const game = state.game;
  const clock = game.clock;
  const bottom = state.you === null ? 0 : state.you;
  const nodes = [[document.getElementById("my-clock"), bottom], [document.getElementById("opponent-clock"), 1 - bottom]];
  for (const [node, seat] of nodes) {
    node.hidden = !clock;
    if (!clock) continue;
    const left = clockLeft(clock, seat);
    node.textContent = clockText(left);
    const running = clock.running === seat && game.status === "playing";
    node.classList.toggle("running", running);
    node.classList.toggle("low", running && left < 10);
    node.setAttribute("aria-label", t("{name}'s clock: {time}", { name: names()[seat], time: clockText(left) }));
  }
  // A player away from the table: how long before he loses.
  const away = Object.entries(game.away || {}).filter(([seat]) => Number(seat) !== state.you);
  if (away.length && game.status === "playing" && !held && !ended) {
    const [seat, seconds] = away[0];
    const passed = (performance.now() - clockAt) / 1000;
    const status = document.getElementById("status");
    const words = { name: names()[Number(seat)], time: clockText(seconds - passed) };
    status.textContent = game.abortable
      ? t("{name} left the table. Unless {name} is back within {time}, the match is called off.", words)
      : t("{name} left the table. Unless {name} is back within {time}, {name} loses the match.", words);
  }
}
setInterval(renderClocks, 200);

// Resign, abort, and how a match ended other than at its target --------------------------
function renderMatchActions(game, you) {
  const box = document.getElementById("match-actions");
  const buttons = [];
  if (you !== null && game.abortable && (game.status === "playing" || game.status === "waiting")) {
    buttons.push(el("button", { type: "button", id: "abort", text: t("Abort"),
      onclick: () => ask({ title: t("Call the match off?"),
                           text: t("Before the first trick is complete a match may be called off: nobody wins and nothing is counted."),
                           yes: t("Call it off") }, () => send({ type: "abort" })) }));
  } else if (you !== null && game.status === "playing") {
    buttons.push(el("button", { type: "button", id: "resign", text: t("Resign"),
      onclick: () => ask({ title: t("Resign the match?"), text: t("{name} wins the match.", { name: names()[1 - you] }),
                           yes: t("Resign") }, () => send({ type: "resign" })) }));
  }
  box.replaceChildren(...buttons);
}

function endingText(game, n, you) {
  const loserSeat = game.winner === null ? null : 1 - game.winner;
  const loser = loserSeat === null ? null : n[loserSeat];
  const mine = you !== null && loserSeat === you;
  switch (game.ended) {
    case "resigned": return mine ? t("You resigned.") : t("{name} resigned.", { name: loser });
    case "time": return mine ? t("You ran out of time.") : t("{name} ran out of time.", { name: loser });
    case "left": return mine ? t("You left the table and did not come back in time.")
      : t("{name} left the table and did not come back in time.", { name: loser });
    case "aborted": return t("The match was called off before its first trick was complete.");
    default: return "";
  }
}

// How a rated match moved the players' ratings, in words (" Anna: 1500 → 1662.").
function ratingText(game, n, you) {
  if (game.unrated === "short") return " " + t("Not rated: the match ended before its first trick was complete.");
  const changes = game.rating_changes || {};
  return Object.entries(changes).map(([seat, [before, after]]) => " " + (Number(seat) === you
    ? t("Your rating: {before} \u2192 {after}.", { before, after })
    : t("{name}'s rating: {before} \u2192 {after}.", { name: n[Number(seat)], before, after }))).join("");
}

function renderEnding(game, you, n) {
  if (!game.ended || endingShown || held || ended) return;
  endingShown = true;
  document.getElementById("result-title").textContent = game.winner === null ? t("The match was called off")
    : matchWinner(game.winner, you, n);
  document.getElementById("result-text").textContent = endingText(game, n, you) + ratingText(game, n, you);
  document.getElementById("result-table").replaceChildren(
    el("tr", {}, ...["", ...[0, 1].map((seat) => (seat === you ? t("You") : n[seat]))].map((cell) => el("th", { text: cell }))),
    el("tr", {}, ...[t("Match score"), ...game.score].map((cell) => el("td", { text: String(cell) }))));
  const buttons = document.getElementById("result-buttons");
  buttons.replaceChildren();
  if (you !== null && game.status === "finished") {
    buttons.append(el("button", { type: "button", class: "primary", id: "rematch", text: t("Rematch"),
                                  onclick: () => send({ type: "rematch" }) }));
  }
  buttons.append(el("a", { class: "button", href: `/api/games/${gameId}/record`, text: t("Download the record") }));
  if (game.status === "finished") buttons.append(el("a", { class: "button", href: `/replay/${gameId}`, text: t("Replay") }));
  buttons.append(el("a", { class: "button", href: "/", text: t("Lobby") }));
  if (tournamentId) buttons.append(tournamentLink());
  buttons.append(el("button", { type: "button", id: "result-close", text: t("Close"), onclick: () => closeResult(true) }));
  openResult();
}

// Who won the match, "you" when the reader did.
function matchWinner(winner, you, n) {
  return winner === you ? t("You win the match") : t("{name} wins the match", { name: n[winner] });
}

function tournamentLink() {
  return el("a", { class: "button", id: "back-to-tournament", href: `/tournament/${encodeURIComponent(tournamentId)}`,
                   text: t("Back to the tournament") });
}

// Chat: the players' between the two players of a game between people, the spectators'
// among spectators. Lines are shown as text, never as markup.
function renderChat(game, you) {
  const box = document.getElementById("chat");
  box.hidden = you !== null && game.kind !== "person";
  document.getElementById("chat-title").textContent = you === null ? t("Spectators' chat") : t("Chat with your opponent");
}

function addChatLine(line) {
  const mine = state && line.seat !== null && line.seat === state.you;
  const muted = localStorage.getItem("sixtysix-chat-muted") === "on";
  const item = el("li", { class: mine ? "mine" : "" },
    el("b", { text: (line.seat === null ? t("A spectator") : line.name || "?") + ": " }), line.text);
  item.hidden = muted && !mine;
  item.dataset.mine = mine ? "yes" : "no";
  const list = document.getElementById("chat-lines");
  list.append(item);
  while (list.children.length > 50) list.firstElementChild.remove();
  list.scrollTop = list.scrollHeight;
}

document.getElementById("chat-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const input = document.getElementById("chat-input");
  const text = input.value.trim();
  if (!text) return;
  send({ type: "chat", text });
  input.value = "";
});
const muteBox = document.getElementById("chat-mute");
muteBox.checked = localStorage.getItem("sixtysix-chat-muted") === "on";
muteBox.addEventListener("change", () => {
  localStorage.setItem("sixtysix-chat-muted", muteBox.checked ? "on" : "off");
  for (const item of document.getElementById("chat-lines").children) {
    item.hidden = muteBox.checked && item.dataset.mine !== "yes";
  }
});

// "Your turn", when the tab is hidden: a notification (if the player allowed them under
// Settings) and the page's title.
function notifyTurn(previous, next) {
  const you = next.you;
  if (you === null || !next.view || next.game.status !== "playing") return;
  const mine = next.view.to_act === you && (!previous || !previous.view || previous.view.to_act !== you);
  if (!mine || !document.hidden) return;
  if (settings.notify && "Notification" in window && Notification.permission === "granted") {
    const n = playerNames(next.game);
    const note = new Notification(t("Your turn"), { body: t("Sixty-six: {first} vs {second}", { first: n[0], second: n[1] }),
                                                     tag: `sixtysix-${gameId}`, icon: "/static/icon-192.png" });
    note.onclick = () => { window.focus(); note.close(); };
  }
}

function turnTitle() {
  if (!state || !state.view) return;
  const base = document.title.replace(/^\(\S[^)]*\) /, "");
  const mine = state.you !== null && state.view.to_act === state.you && state.game.status === "playing";
  document.title = mine && document.hidden ? `(${t("Your turn")}) ${base}` : base;
}
document.addEventListener("visibilitychange", turnTitle);

async function start() {
  await loadAccount();  // a logged-in player takes a seat with his account (and its CSRF token)
  let info;
  try {
    info = await keepTrying(() => api("GET", `/api/games/${encodeURIComponent(gameId)}`));
  } catch (e) {
    showToast(e.message);
    return;
  }
  // Quick pairing found nobody within the wait: the computer came instead, and the page says so.
  if (sessionStorage.getItem(`sixtysix-found-${gameId}`) === "computer") {
    sessionStorage.removeItem(`sixtysix-found-${gameId}`);
    showToast(t("Nobody came in time: you play the computer ({level}).", { level: levelName(info.level) }));
  }
  // A seat an account took is the account's on every device: the server seats it by its session.
  const accountSeat = info.players.findIndex((name, seat) => info.accounts[seat] && account.name === name);
  if (!token && accountSeat < 0 && info.kind === "person" && !info.seats_taken[1]) {
    const join = document.getElementById("join");
    document.getElementById("join-text").textContent =
      t("{name} invites you to a game of Sixty-six ({rules}).", { name: info.players[0], rules: rulesText(info.rules, info.target) });
    document.getElementById("join-terms").textContent = termsText(info.rated, info.clock ? info.clock.control : null);
    // A logged-in player plays under his account's name: nothing to ask. A guest offered a
    // rated seat is shown the way to log in, not a seat the server would refuse.
    document.getElementById("join-name").hidden = Boolean(account.name);
    const mustLogIn = info.rated && !account.name;
    document.getElementById("join-button").hidden = mustLogIn;
    const login = document.getElementById("join-login");
    login.hidden = !mustLogIn;
    if (mustLogIn) login.append(loginLink());
    join.hidden = false;
    document.getElementById("watch-button").addEventListener("click", () => { join.hidden = true; connect(); });
    document.getElementById("join-form").addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        const seat = await api("POST", `/api/games/${encodeURIComponent(gameId)}/join`,
                               { name: new FormData(event.target).get("name") || "" });
        token = seat.token;
        localStorage.setItem(tokenKey, token);
      } catch (e) {
        showToast(refusalNode(e));
      }
      join.hidden = true;
      connect();
    });
    return;
  }
  connect();
}

const trickArea = document.getElementById("trick");
trickArea.addEventListener("click", goOn);
trickArea.addEventListener("dragover", (event) => event.preventDefault());
trickArea.addEventListener("drop", (event) => {
  event.preventDefault();
  const card = event.dataTransfer.getData("text/plain");
  if (/^[9TJQKA][CDHS]$/.test(card)) onCard(card);
});
document.getElementById("copy-link").addEventListener("click", async () => {
  const input = document.getElementById("share-link");
  input.select();
  try { await navigator.clipboard.writeText(input.value); showToast(t("Link copied.")); }
  catch (e) { showToast(t("Select the link and copy it.")); }
});
// Keys on a desktop, as in the terminal game: 1-6 a card of the hand (in the order shown),
// d draw, c close, x exchange, s declare 66, m the marriage with the card chosen,
// Enter or space to go on when a trick or a hand's end is on the table.
const KEY_ACTIONS = { d: "D", c: "C", x: "X" };  // and u: take back, where allowed

function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (document.querySelector("dialog[open]") || /^(INPUT|SELECT|TEXTAREA)$/.test(event.target.tagName)) return;
  if (!state || !state.view || state.you === null) return;
  const key = event.key.toLowerCase();
  if ((key === "enter" || key === " ") && (held || (ended && ended.waiting))) {
    event.preventDefault();
    goOn();
    return;
  }
  if (held || ended) return;
  const view = state.view;
  if (/^[1-9]$/.test(key)) {
    const cards = sortCards(view.hand, view.trump);
    const card = cards[Number(key) - 1];
    if (card) { event.preventDefault(); onCard(card); }
  } else if (KEY_ACTIONS[key] && view.legal.includes(KEY_ACTIONS[key])) {
    event.preventDefault();
    actOrAsk(KEY_ACTIONS[key]);
  } else if (key === "s") {
    const declare = view.legal.find((a) => a.startsWith("66"));
    if (declare) { event.preventDefault(); actOrAsk(declare); }
  } else if (key === "h" && canHint(view, state.you) && !hintNow()) {
    event.preventDefault();
    askHint();
  } else if (key === "u" && canTakeBack(view, state.you)) {
    event.preventDefault();
    takeBack();
  } else if (key === "m" && pendingCard) {
    event.preventDefault();
    act(pendingCard + "+");
  }
}
document.addEventListener("keydown", onKey);

const resultDialog = document.getElementById("result");
resultDialog.addEventListener("keydown", keepFocusIn);
resultDialog.addEventListener("cancel", (event) => { event.preventDefault(); closeResult(true); });  // Escape
document.getElementById("result-again").addEventListener("click", openResult);
document.getElementById("confirm-no").addEventListener("click", () => document.getElementById("confirm").close());
const settingsDialog = document.getElementById("settings");
const confirmBox = document.getElementById("setting-confirm");
const soundBox = document.getElementById("setting-sound");
soundBox.addEventListener("change", () => {
  settings.sound = soundBox.checked;
  play("card");  // a sample, and the browser's leave to play sounds (given by this click)
});
const notifyBox = document.getElementById("setting-notify");
notifyBox.addEventListener("change", async () => {
  // The browser asks the player once, on this click.
  if (notifyBox.checked && "Notification" in window && Notification.permission !== "granted") {
    const answer = await Notification.requestPermission();
    if (answer !== "granted") {
      notifyBox.checked = false;
      showToast(t("The browser does not allow notifications from this page."));
    }
  }
  settings.notify = notifyBox.checked;
});
const autoDrawBox = document.getElementById("setting-auto-draw");
autoDrawBox.addEventListener("change", () => { playOptions.autoDraw = autoDrawBox.checked; if (state) render(); });
const memoryBox = document.getElementById("setting-memory");
memoryBox.addEventListener("change", () => { playOptions.memory = memoryBox.checked; if (state) render(); });
const autoDeclareBox = document.getElementById("setting-auto-declare");
autoDeclareBox.addEventListener("change", () => { playOptions.autoDeclare = autoDeclareBox.checked; });
const fourBox = document.getElementById("setting-four-colours");
const largeBox = document.getElementById("setting-large-cards");
document.getElementById("settings-button").addEventListener("click", () => {
  confirmBox.checked = settings.confirm;
  pauseBox.value = settings.trickPause;
  autoDrawBox.checked = playOptions.autoDraw;
  memoryBox.checked = playOptions.memory;
  autoDeclareBox.checked = playOptions.autoDeclare;
  fourBox.checked = cardLook.fourColours;
  soundBox.checked = settings.sound;
  notifyBox.checked = settings.notify && "Notification" in window && Notification.permission === "granted";
  largeBox.checked = cardLook.large;
  settingsDialog.showModal();
});
fourBox.addEventListener("change", () => {
  localStorage.setItem("sixtysix-deck", fourBox.checked ? "four" : "two");
  if (state) render();
});
largeBox.addEventListener("change", () => {
  localStorage.setItem("sixtysix-large-cards", largeBox.checked ? "on" : "off");
  document.body.classList.toggle("large-cards", cardLook.large);
});
document.body.classList.toggle("large-cards", cardLook.large);
confirmBox.addEventListener("change", () => { settings.confirm = confirmBox.checked; });
const pauseBox = document.getElementById("setting-trick-pause");
pauseBox.addEventListener("change", () => { settings.trickPause = pauseBox.value; });
document.getElementById("settings-close").addEventListener("click", () => settingsDialog.close());
ready.then(start);
