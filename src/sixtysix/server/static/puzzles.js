// Puzzles (sixtysix.puzzles): a position from a real game where one action is best. The
// page shows the solver's view, sends the chosen action, and shows the server's verdict
// with its reason, the solution played out with the opponent's best replies, and the
// ratings as Glicko-2 moved them. No rule is decided here.
"use strict";

const GUEST_KEY = "sixtysix-puzzle-guest";
// How long each move of the solution stays before the next, in milliseconds.
const LINE_PAUSE = 700;

let puzzle = null;       // the server's puzzle, as the solver sees it
let verdict = null;      // the server's answer to the attempt
let shownSteps = 0;      // how many moves of the solution are on the table
let pendingCard = null;  // a king or queen that may go with a marriage, waiting for the choice
let busy = false;
let timer = null;

// A guest's browser is a solver of its own: a random token kept here, sent with each request.
function guestToken() {
  let token = localStorage.getItem(GUEST_KEY);
  if (!token) {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    token = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    localStorage.setItem(GUEST_KEY, token);
  }
  return token;
}

function puzzleApi(method, path, body) {
  const sep = path.includes("?") ? "&" : "?";
  return api(method, `/api/puzzles${path}${sep}lang=${encodeURIComponent(i18n.lang)}`, body, undefined,
             account.name ? {} : { "X-Puzzle-Guest": guestToken() });
}

function names() {
  const n = ["", ""];
  n[puzzle.seat] = t("You");
  n[1 - puzzle.seat] = t("Opponent");
  return n;
}

function signed(n) {
  return (n < 0 ? "\u2212" : "+") + Math.abs(n);
}

async function load(path) {
  clearTimeout(timer);
  try {
    puzzle = await puzzleApi("GET", path);
  } catch (e) {
    showToast(e.code === "no_puzzle_left" ? t("You have tried every puzzle of this theme.")
      : t("The puzzle cannot be loaded: {reason}", { reason: e.message }));
    return;
  }
  verdict = null;
  shownSteps = 0;
  pendingCard = null;
  history.replaceState(null, "", `/puzzles/${puzzle.id}`);
  render();
  const first = document.querySelector("#my-hand button:not([disabled]), #choices button");
  if (first) first.focus();
}

function nextPuzzle() {
  const theme = document.getElementById("theme").value;
  load(theme ? `/next?theme=${encodeURIComponent(theme)}` : "/next");
}

async function choose(action) {
  if (busy || verdict) return;
  busy = true;
  try {
    verdict = await puzzleApi("POST", `/${puzzle.id}/attempt`, { action });
    pendingCard = null;
    shownSteps = 1;
    render();
    playOut();
    // The hand's buttons are gone: the focus goes on to what comes next.
    const onward = document.getElementById("show-solution");
    (onward.hidden ? document.getElementById("next-puzzle") : onward).focus();
  } catch (e) {
    showToast(e.message);
  } finally {
    busy = false;
  }
}

// The solution, one move after another, with the opponent's best replies.
function playOut() {
  clearTimeout(timer);
  if (!verdict || shownSteps >= verdict.steps.length) return;
  timer = setTimeout(() => {
    shownSteps += 1;
    render();
    playOut();
  }, LINE_PAUSE);
}

function showSolution() {
  if (!verdict) return;
  clearTimeout(timer);
  shownSteps = verdict.steps.length;
  render();
  document.getElementById("puzzle-line").focus();
}

function onCard(card) {
  if (verdict) return;
  const action = cardAction(card, puzzle.legal);
  if (action === "ask") {
    pendingCard = pendingCard === card ? null : card;  // ask which (a second click cancels)
    render();
  } else if (action) choose(action);
}

function currentView() {
  return verdict && shownSteps > 0 ? verdict.steps[shownSteps - 1] : puzzle.view;
}

function render() {
  const view = currentView();
  const me = puzzle.seat;
  const n = names();
  document.getElementById("table").hidden = false;
  // Where the page stands, for tests that follow it.
  document.body.dataset.puzzle = puzzle.id;
  document.body.dataset.state = verdict ? (verdict.solved ? "solved" : "failed") : "asking";
  document.body.dataset.steps = String(shownSteps);
  document.getElementById("opponent-name").textContent = n[1 - me];
  document.getElementById("my-name").textContent = n[me];
  const points = (seat) => pointsText(view.scores[seat], view.tricks_won[seat]);
  document.getElementById("opponent-points").textContent = points(1 - me);
  document.getElementById("my-points").textContent = points(me);
  document.getElementById("opponent-hand").replaceChildren(
    ...Array.from({ length: view.hand_sizes[1 - me] }, () => cardImage(null, "back")));
  renderMiddle(view, n, me, me);
  renderRating();
  renderPanel();
  renderHand(view);
  renderChoices(view);
}

function renderRating() {
  const box = document.getElementById("puzzle-rating");
  const player = verdict && verdict.ratings ? verdict.ratings.player.after : puzzle.player;
  box.textContent = player ? t("Your puzzle rating: {rating}", { rating: Math.round(player.rating) }) : "";
}

function renderPanel() {
  const heading = puzzle.daily ? t("Daily puzzle") : t("Puzzle {id}", { id: puzzle.id });
  document.getElementById("puzzle-heading").textContent =
    `${heading} \u2014 ${t("rated {rating}", { rating: Math.round(puzzle.rating.rating) })}`;
  document.getElementById("puzzle-prompt").textContent = verdict ? "" : puzzle.prompt;
  const box = document.getElementById("puzzle-verdict");
  box.className = `puzzle-verdict${verdict ? (verdict.solved ? " right" : " wrong") : ""}`;
  box.textContent = verdict ? verdict.reason : "";
  const change = document.getElementById("rating-change");
  change.textContent = "";
  if (verdict && verdict.ratings && verdict.ratings.rated) {
    const before = Math.round(verdict.ratings.player.before.rating);
    const after = Math.round(verdict.ratings.player.after.rating);
    change.textContent = t("Your rating: {before} \u2192 {after} ({change})", { before, after, change: signed(after - before) });
  } else if (verdict && verdict.ratings) {
    change.textContent = t("You have tried this puzzle before: no rating changes.");
  }
  document.getElementById("puzzle-themes").textContent = verdict && verdict.themes.length
    ? t("Themes: {themes}", { themes: verdict.themes.map((x) => x.name).join(", ") }) : "";
  const line = document.getElementById("puzzle-line");
  line.hidden = !verdict;
  line.tabIndex = -1;
  const n = names();
  line.replaceChildren(...(verdict ? verdict.solution.slice(0, shownSteps) : []).map((step) =>
    el("li", { text: t("{name}: {action}", { name: n[step.seat], action: step.words }) })));
  document.getElementById("show-solution").hidden = !verdict || shownSteps >= verdict.steps.length;
  const analysis = document.getElementById("analysis");
  analysis.hidden = !verdict;
  if (verdict) analysis.href = verdict.analysis;
}

function renderHand(view) {
  const asking = !verdict;
  const playable = new Set((asking ? puzzle.legal : []).filter((a) => /^[9TJQKA][CDHS]\+?$/.test(a)).map((a) => a.slice(0, 2)));
  document.getElementById("my-hand").replaceChildren(...sortCards(view.hand, view.trump).map((card) => {
    const legal = playable.has(card);
    const cls = `card${legal ? " legal" : ""}${asking && !legal ? " dim" : ""}${pendingCard === card ? " chosen" : ""}`;
    const label = legal ? t("{card} (playable)", { card: cardWords(card) }) : cardWords(card);
    return el("button", { type: "button", class: cls, "data-card": card, "aria-label": label,
                          disabled: !legal, onclick: () => onCard(card) }, cardImage(card));
  }));
}

function renderChoices(view) {
  const box = document.getElementById("choices");
  box.replaceChildren();
  if (verdict) return;
  const buttons = [];
  if (pendingCard) {
    const marry = pendingCard + "+";
    buttons.push(el("button", { type: "button", "data-action": marry,
                                text: t("{card} with the marriage", { card: cardName(pendingCard) }), onclick: () => choose(marry) }));
    buttons.push(el("button", { type: "button", "data-action": pendingCard,
                                text: t("{card} alone", { card: cardName(pendingCard) }), onclick: () => choose(pendingCard) }));
  }
  for (const action of puzzle.legal) {
    if (/^[9TJQKA][CDHS]\+?$/.test(action)) continue;  // cards are played from the hand
    buttons.push(el("button", { type: "button", "data-action": action, text: describeAction(action, view),
                                onclick: () => choose(action) }));
  }
  box.replaceChildren(...buttons);
}

async function loadThemes() {
  const select = document.getElementById("theme");
  try {
    const data = await puzzleApi("GET", "/themes");
    select.replaceChildren(el("option", { value: "", text: t("Any theme") }),
      ...data.themes.map((x) => el("option", { value: x.theme, text: `${x.name} (${x.count})` })));
  } catch (e) {
    select.replaceChildren(el("option", { value: "", text: t("Any theme") }));
  }
}

async function start() {
  await loadAccount();
  await loadThemes();
  document.getElementById("next-puzzle").addEventListener("click", nextPuzzle);
  document.getElementById("daily").addEventListener("click", () => load("/daily"));
  document.getElementById("show-solution").addEventListener("click", showSolution);
  document.getElementById("theme").addEventListener("change", nextPuzzle);
  document.addEventListener("keydown", (event) => {
    if (/^(INPUT|SELECT|TEXTAREA)$/.test(event.target.tagName)) return;
    if (event.key === "n" && verdict) nextPuzzle();
    if (event.key === "s" && verdict) showSolution();
  });
  const asked = location.pathname.split("/")[2];
  if (asked === "daily") load("/daily");
  else if (asked) load(`/${encodeURIComponent(asked)}`);
  else nextPuzzle();
}

ready.then(start);
