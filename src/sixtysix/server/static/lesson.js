// The guided first game: one hand on a fixed deal, every move scripted by the server
// (sixtysix.present.lessons). The page asks for the position after each scripted action, shows it
// as the game page does, tells what the computer did, and prompts the learner; the server
// says whether a chosen action is the lesson's, and why not. No rule is decided here.
"use strict";

const LESSON = "first";
// How long a computer move stays on its own before the next one, in milliseconds.
const COMPUTER_PAUSE = 700;

let data = null;          // the server's answer for the current step
let held = null;          // a finished trick kept on the table: {trick, points}
let lines = [];           // what the computer did since the learner's last move
let refusal = null;       // why the learner's last choice is not the lesson's
let pendingCard = null;   // a king or queen that may go with a marriage, waiting for the choice
let busy = false;
let timer = null;

function names() {
  const n = ["", ""];
  n[data.learner] = t("You");
  n[1 - data.learner] = t("Computer");
  return n;
}

function lessonUrl(path, query) {
  const params = new URLSearchParams(Object.assign({ lang: i18n.lang }, query));
  return `/api/lessons/${LESSON}${path}?${params}`;
}

// The position after ``step`` scripted actions: kept on the table when it completed a
// trick, else shown and, when the computer is to move, followed by its move.
async function show(step) {
  let next;
  try {
    next = await keepTrying(() => api("GET", lessonUrl("", { step })));
  } catch (e) {
    showToast(t("The lesson cannot be loaded: {reason}", { reason: e.message }));
    return;
  }
  const before = data;
  data = next;
  if (next.done && next.done.narration) lines.push(next.done.narration);
  held = null;
  if (before && next.view.tricks.length > before.view.tricks.length) {
    const trick = next.view.tricks[next.view.tricks.length - 1];
    const winner = trick[3];
    held = { trick, points: winner === null ? null : next.view.card_points[winner] - before.view.card_points[winner] };
  }
  render();
  if (!held) advance();
}

// After a position is seen: the computer's next move, or the end of the lesson.
function advance() {
  clearTimeout(timer);
  if (data.next && data.next.seat !== data.learner) timer = setTimeout(() => show(data.step + 1), COMPUTER_PAUSE);
  else if (data.summary) showEnd();
}

function goOn() {
  if (!held) return;
  held = null;
  render();
  advance();
}

function learnersTurn() {
  return data && !held && data.next && data.next.seat === data.learner;
}

// The learner chose ``action``: the server says whether it is the lesson's.
async function choose(action) {
  if (busy || !learnersTurn()) return;
  busy = true;
  try {
    const answer = await api("GET", lessonUrl("/check", { step: data.step, action }));
    pendingCard = null;
    if (answer.expected) {
      refusal = null;
      lines = [];
      await show(data.step + 1);
    } else {
      refusal = answer.refusal;
      render();
    }
  } catch (e) {
    showToast(e.message);
  } finally {
    busy = false;
  }
}

function onCard(card) {
  if (!learnersTurn()) return;
  const action = cardAction(card, data.next.legal);
  if (action === "ask") {
    pendingCard = pendingCard === card ? null : card;  // ask which (a second click cancels)
    render();
  } else if (action) choose(action);
}

function render() {
  const view = data.view;
  const me = data.learner;
  const n = names();
  document.getElementById("table").hidden = false;
  // Where the lesson stands, for tests that follow the page.
  document.body.dataset.step = String(data.step);
  document.body.dataset.held = held ? "yes" : "no";
  document.getElementById("lesson-progress").textContent = t("Move {n} of {total}", { n: Math.min(data.step + 1, data.steps), total: data.steps });
  document.getElementById("opponent-name").textContent = n[1 - me];
  document.getElementById("my-name").textContent = n[me];
  const points = (seat) => pointsText(view.scores[seat], view.tricks_won[seat]);
  document.getElementById("opponent-points").textContent = points(1 - me);
  document.getElementById("my-points").textContent = points(me);
  document.getElementById("opponent-hand").replaceChildren(
    ...Array.from({ length: view.hand_sizes[1 - me] }, () => cardImage(null, "back")));
  renderMiddle(view, n, me, me);
  if (held) renderHeld(n, me);
  renderPanel();
  renderHand(view);
  renderChoices(view);
}

// The finished trick in the middle of the table: both cards, who won it and the points.
function renderHeld(n, me) {
  const [leader, lead, follow, winner] = held.trick;
  const played = (seat, card) => el("figure", { class: `played${seat === winner ? " won" : ""}`, "data-card": card },
    cardImage(card), el("figcaption", { text: n[seat] }));
  let label;
  if (winner === me) label = t("You win the trick (+{points})", { points: held.points });
  else label = t("{name} wins the trick (+{points})", { name: n[winner], points: held.points });
  document.getElementById("trick").replaceChildren(
    el("div", { class: "trick-cards" }, played(leader, lead), played(1 - leader, follow)),
    el("div", { class: "trick-label held-label", text: label }),
    el("button", { type: "button", id: "go-on", class: "primary go-on", text: t("Go on"), onclick: goOn }));
}

// The lesson's panel above the hand: what the computer did, then what to do and why.
function renderPanel() {
  let heading;
  let prompt;
  if (held) {
    heading = t("The trick is complete");
    prompt = t("Look at the trick, then go on.");
  } else if (data.summary) {
    heading = data.summary.title;
    prompt = data.summary.text;
  } else if (learnersTurn()) {
    heading = t("Your move");
    prompt = data.next.prompt;
  } else {
    heading = t("The computer's move");
    prompt = t("The computer is thinking\u2026");
  }
  document.getElementById("lesson-heading").textContent = heading;
  document.getElementById("lesson-narration").replaceChildren(...lines.slice(-3).map((line) => el("li", { text: line })));
  document.getElementById("lesson-prompt").textContent = prompt;
  const box = document.getElementById("lesson-refusal");
  box.hidden = !refusal || !learnersTurn();
  box.textContent = box.hidden ? "" : refusal;
}

function expectedCard() {
  const expected = learnersTurn() ? data.next.expected : "";
  return /^[9TJQKA][CDHS]\+?$/.test(expected) ? expected.slice(0, 2) : null;
}

function renderHand(view) {
  const legalNow = learnersTurn() ? data.next.legal : [];
  const playable = new Set(legalNow.filter((a) => /^[9TJQKA][CDHS]\+?$/.test(a)).map((a) => a.slice(0, 2)));
  const suggested = expectedCard();
  document.getElementById("my-hand").replaceChildren(...sortCards(view.hand, view.trump).map((card) => {
    const legal = playable.has(card);
    const cls = `card${legal ? " legal" : ""}${legalNow.length && !legal ? " dim" : ""}` +
      `${card === suggested ? " suggested" : ""}${pendingCard === card ? " chosen" : ""}`;
    let label = cardWords(card);
    if (card === suggested) label = t("{card} (suggested)", { card: cardWords(card) });
    else if (legal) label = t("{card} (playable)", { card: cardWords(card) });
    // Only what the rules allow is offered: another card cannot be pressed.
    return el("button", { type: "button", class: cls, "data-card": card, "aria-label": label,
                          disabled: !legal, onclick: () => onCard(card) }, cardImage(card));
  }));
}

function renderChoices(view) {
  const box = document.getElementById("choices");
  box.replaceChildren();
  if (!learnersTurn()) return;
  const expected = data.next.expected;
  const buttons = [];
  if (pendingCard) {
    const marry = pendingCard + "+";
    buttons.push(el("button", { type: "button", class: marry === expected ? "primary suggested" : "", "data-action": marry,
                                text: t("{card} with the marriage", { card: cardName(pendingCard) }), onclick: () => choose(marry) }));
    buttons.push(el("button", { type: "button", class: pendingCard === expected ? "primary suggested" : "", "data-action": pendingCard,
                                text: t("{card} alone", { card: cardName(pendingCard) }), onclick: () => choose(pendingCard) }));
  }
  for (const action of data.next.legal) {
    if (/^[9TJQKA][CDHS]\+?$/.test(action)) continue;  // cards are played from the hand
    buttons.push(el("button", { type: "button", "data-action": action, text: describeAction(action, view),
                                class: action === expected ? "primary suggested" : "", onclick: () => choose(action) }));
  }
  box.replaceChildren(...buttons);
}

function showEnd() {
  document.getElementById("lesson-end-title").textContent = data.summary.title;
  document.getElementById("lesson-end-text").textContent = data.summary.text;
  document.getElementById("lesson-learnt").replaceChildren(...data.summary.learnt.map((line) => el("li", { text: line })));
  document.getElementById("lesson-end").hidden = false;
  document.getElementById("lesson-play").focus();
}

function again() {
  clearTimeout(timer);
  document.getElementById("lesson-end").hidden = true;
  data = null;
  held = null;
  lines = [];
  refusal = null;
  pendingCard = null;
  show(0);
}

const trickArea = document.getElementById("trick");
trickArea.addEventListener("click", (event) => { if (event.target.id !== "go-on") goOn(); });
document.getElementById("lesson-again").addEventListener("click", again);
document.addEventListener("keydown", (event) => {
  if ((event.key === "Enter" || event.key === " ") && held && !/^(BUTTON|A|INPUT|SELECT)$/.test(event.target.tagName)) {
    event.preventDefault();
    goOn();
  }
});
ready.then(() => show(0));
