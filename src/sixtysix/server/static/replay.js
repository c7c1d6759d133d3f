// The replay page: every position of a finished game, both hands face up.
"use strict";

const replayId = decodeURIComponent(location.pathname.split("/").pop());
// A game's replay, or a puzzle's analysis board (/replay/puzzle/ID: its solution to the end).
const apiBase = location.pathname.startsWith("/replay/puzzle/")
  ? `/api/puzzles/${encodeURIComponent(replayId)}` : `/api/games/${encodeURIComponent(replayId)}`;
let frames = [];
let position = 0;
let info = null;
// The analysis board: each hand's actions rated by the server, fetched when the hand is shown.
const analyses = {};
// Gave away at least this many game points: a mistake; at least INACCURACY: an inaccuracy.
const MISTAKE = 0.5;
const INACCURACY = 0.15;

function signedPoints(value) {
  const digits = Number.isInteger(value) ? 0 : 2;
  return (value < 0 ? "\u2212" : "+") + Math.abs(value).toFixed(digits);
}

function actionShort(action) {
  return /^[9TJQKA][CDHS]$/.test(action) ? cardName(action) : describeAction(action);
}

// How good the action that led to this frame was, in words.
function verdictText(rated) {
  if (rated.forced) return { kind: "forced", text: t("The only legal action.") };
  const value = signedPoints(rated.value);
  if (rated.loss < INACCURACY) {
    return { kind: "good", text: rated.exact ? t("A best action: {value} with perfect play.", { value })
      : t("As good as any: {value} on average.", { value }) };
  }
  const values = { loss: rated.loss.toFixed(2), best: actionShort(rated.best[0]), value: signedPoints(rated.best_value) };
  if (rated.loss >= MISTAKE) {
    return { kind: "mistake", text: t("Mistake: this gave away {loss} game points; best was {best} ({value}).", values) };
  }
  return { kind: "inaccuracy", text: t("Inaccuracy: this gave away {loss} game points; best was {best} ({value}).", values) };
}

async function analyse(number) {
  if (analyses[number]) return;
  analyses[number] = "pending";
  try {
    analyses[number] = await api("GET", `${apiBase}/analysis/${number}`);
  } catch (e) {
    analyses[number] = { error: e.message };
  }
  if (frames[position] && frames[position].hand === number) show();
}

function renderVerdict(frame) {
  const box = document.getElementById("verdict");
  const list = document.getElementById("mistakes");
  const found = analyses[frame.hand];
  if (!found || found === "pending") {
    box.className = "verdict";
    box.textContent = t("Analysing hand {n}\u2026", { n: frame.hand });
    list.replaceChildren();
    analyse(frame.hand);
    return;
  }
  if (found.error) {
    box.textContent = t("No analysis: {reason}", { reason: found.error });
    list.replaceChildren();
    return;
  }
  const rated = frame.index > 0 ? found.actions[frame.index - 1] : null;
  const verdict = rated ? verdictText(rated) : null;
  box.className = `verdict ${verdict ? verdict.kind : ""}`;
  box.textContent = verdict ? verdict.text : "";
  // The hand's mistakes and inaccuracies, each a jump to the position after it.
  const marked = found.actions.filter((a) => !a.forced && a.loss >= INACCURACY);
  const names = playerNames(info);
  list.replaceChildren(
    el("span", { text: marked.length ? t("Mistakes in this hand:") : t("No mistake in this hand.") }),
    ...marked.map((a) => el("button", {
      type: "button", class: a.loss >= MISTAKE ? "mistake" : "inaccuracy",
      text: t("{name}: {action} (\u2212{loss})", { name: names[a.seat], action: actionShort(a.action), loss: a.loss.toFixed(2) }),
      onclick: () => go(frames.findIndex((f) => f.hand === frame.hand && f.index === a.index + 1)),
    })));
}

function show() {
  const frame = frames[position];
  const view = frame.view;
  const n = playerNames(info);
  renderMiddle(view, n, 0);
  for (const seat of [0, 1]) {
    document.getElementById(`hand-${seat}`).replaceChildren(
      ...sortCards(view.hands[seat], view.trump).map((card) => el("span", { class: "card", "data-card": card }, cardImage(card))));
    document.getElementById(`name-${seat}`).textContent = n[seat];
    document.getElementById(`points-${seat}`).textContent = pointsText(view.scores[seat], view.tricks_won[seat]);
  }
  const last = view.history.length ? view.history[view.history.length - 1] : null;
  let text = last ? t("{name}: {action}", { name: n[last[0]], action: describeAction(last[1]) })
    : t("Hand {n}: the deal", { n: frame.hand });
  if (view.result) text += ` \u2014 ${resultSentence(view.result, n)}`;
  document.getElementById("status").textContent = text;
  renderVerdict(frame);
  document.getElementById("position").textContent = t("hand {hand}, step {step} ({at}/{of})",
    { hand: frame.hand, step: frame.index, at: position + 1, of: frames.length });
}

function go(to) {
  position = Math.max(0, Math.min(frames.length - 1, to));
  show();
}

async function start() {
  document.getElementById("download").href = `${apiBase}/record`;
  try {
    const data = await keepTrying(() => api("GET", `${apiBase}/replay`));
    frames = data.frames;
    info = data.game;
  } catch (e) {
    showToast(t("No replay: {reason}", { reason: e.message }));
    return;
  }
  const names = playerNames(info);
  document.getElementById("match-score").textContent = info.kind === "puzzle" ? t("Puzzle {id}", { id: info.id })
    : t("{me} {mine} \u2013 {theirs} {them}", { me: names[0], mine: info.score[0], theirs: info.score[1], them: names[1] });
  document.getElementById("first").addEventListener("click", () => go(0));
  document.getElementById("prev").addEventListener("click", () => go(position - 1));
  document.getElementById("next").addEventListener("click", () => go(position + 1));
  document.getElementById("last").addEventListener("click", () => go(frames.length - 1));
  document.addEventListener("keydown", (event) => {
    if (event.key === "ArrowLeft") go(position - 1);
    if (event.key === "ArrowRight") go(position + 1);
  });
  go(info.start || 0);
}

ready.then(start);
