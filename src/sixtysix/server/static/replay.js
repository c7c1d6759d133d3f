// The replay page: every position of a finished game, both hands face up.
"use strict";

const replayId = decodeURIComponent(location.pathname.split("/").pop());
let frames = [];
let position = 0;
let info = null;

function show() {
  const frame = frames[position];
  const view = frame.view;
  const n = info.players;
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
  document.getElementById("position").textContent = t("hand {hand}, step {step} ({at}/{of})",
    { hand: frame.hand, step: frame.index, at: position + 1, of: frames.length });
}

function go(to) {
  position = Math.max(0, Math.min(frames.length - 1, to));
  show();
}

async function start() {
  document.getElementById("download").href = `/api/games/${encodeURIComponent(replayId)}/record`;
  try {
    const data = await api("GET", `/api/games/${encodeURIComponent(replayId)}/replay`);
    frames = data.frames;
    info = data.game;
  } catch (e) {
    showToast(t("No replay: {reason}", { reason: e.message }));
    return;
  }
  document.getElementById("match-score").textContent = t("{me} {mine} \u2013 {theirs} {them}",
    { me: info.players[0], mine: info.score[0], theirs: info.score[1], them: info.players[1] });
  document.getElementById("first").addEventListener("click", () => go(0));
  document.getElementById("prev").addEventListener("click", () => go(position - 1));
  document.getElementById("next").addEventListener("click", () => go(position + 1));
  document.getElementById("last").addEventListener("click", () => go(frames.length - 1));
  document.addEventListener("keydown", (event) => {
    if (event.key === "ArrowLeft") go(position - 1);
    if (event.key === "ArrowRight") go(position + 1);
  });
  go(0);
}

ready.then(start);
