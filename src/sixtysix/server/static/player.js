// A player's page: ratings, statistics, rated games and games (each opens in the analysis board).
"use strict";

const playerName = decodeURIComponent(location.pathname.split("/").pop());

function row(cells, head) {
  return el("tr", {}, ...cells.map((cell, i) => el(head || i === 0 ? "th" : "td", { text: String(cell) })));
}

function percentOf(part, whole) {
  return whole ? `${Math.round((100 * part) / whole)}%` : "\u2013";
}

function statisticsRows(columns) {
  const names = Object.keys(columns);
  const get = (key) => names.map((n) => columns[n][key]);
  const pairs = (won, all) => names.map((n) => `${columns[n][won]} / ${columns[n][all]} (${percentOf(columns[n][won], columns[n][all])})`);
  return [
    row(["", ...names], true),
    row([t("Matches won"), ...pairs("matches_won", "matches")]),
    row([t("Hands won"), ...pairs("hands_won", "hands")]),
    row([t("Game points per hand (won minus lost)"), ...get("points_per_hand").map((v) => v === null ? "\u2013" : v.toFixed(2))]),
    row([t("Schneider for / against"), ...names.map((n) => `${columns[n].schneider_for} / ${columns[n].schneider_against}`)]),
    row([t("Schwarz for / against"), ...names.map((n) => `${columns[n].schwarz_for} / ${columns[n].schwarz_against}`)]),
    row([t("Stocks closed, won"), ...pairs("closes_won", "closes")]),
  ];
}

function opponentName(key) {
  return key === "people" ? t("People") : levelName(key.replace(/^computer:/, ""));
}

async function start() {
  let page;
  try {
    page = await keepTrying(() => api("GET", `/api/players/${encodeURIComponent(playerName)}`));
  } catch (e) {
    document.getElementById("player-name").textContent = t("There is no such player.");
    return;
  }
  document.title = t("Sixty-six: {name}", { name: page.name });
  document.getElementById("player-name").textContent = page.name;
  const ratings = document.getElementById("player-ratings");
  ratings.replaceChildren(row([t("Rules"), t("Rating"), t("Rated games"), t("Won")], true),
    ...page.ratings.map((r) => row([presetName(r.pool), r.provisional ? `${r.rating}?` : `${r.rating} \u00b1 ${2 * r.deviation}`,
                                    r.games, r.wins])));
  if (!page.ratings.length) ratings.replaceChildren(el("tr", {}, el("td", { text: t("No rated games yet.") })));
  const stats = page.statistics;
  const columns = { [t("All")]: stats.all };
  for (const [rules, tally] of Object.entries(stats.by_rules)) columns[presetName(rules)] = tally;
  for (const [who, tally] of Object.entries(stats.by_opponent)) columns[opponentName(who)] = tally;
  document.getElementById("player-statistics").replaceChildren(...statisticsRows(columns));
  document.getElementById("player-history").replaceChildren(...page.history.map((h) => el("li", {},
    el("a", { href: `/replay/${h.game}`, text: t("Replay") }),
    ` ${h.opponent.startsWith("computer:") ? levelName(h.opponent.slice(9)) : h.opponent} (${h.opponent_rating}) \u2014 `,
    h.score === 1 ? t("won") : t("lost"), ` ${h.before} \u2192 ${h.after}`)));
  const puzzles = page.puzzles || { plays: 0, history: [] };
  document.getElementById("player-puzzle-rating").textContent = puzzles.plays
    ? nt("Puzzle rating {rating} \u00b1 {deviation} after {n} puzzle", "Puzzle rating {rating} \u00b1 {deviation} after {n} puzzles",
         puzzles.plays, { rating: puzzles.rating, deviation: 2 * puzzles.deviation })
    : t("No puzzles solved yet.");
  document.getElementById("player-puzzles").replaceChildren(...puzzles.history.map((h) => el("li", {},
    el("a", { href: `/puzzles/${h.puzzle}`, text: t("Puzzle {id}", { id: h.puzzle }) }),
    ` (${Math.round(h.puzzle_rating)}) \u2014 `, h.solved ? t("solved") : t("failed"),
    ` ${Math.round(h.before)} \u2192 ${Math.round(h.after)}`)));
  document.getElementById("player-games").replaceChildren(...page.games.map((g) => el("li", {},
    el("a", { href: `/replay/${g.id}`, text: t("Replay") }),
    ` ${t("{first} vs {second}", { first: playerNames(g)[0], second: playerNames(g)[1] })} \u2014 ${presetName(g.rules)} `,
    el("span", { class: "dim", text: `${g.score[0]}\u2013${g.score[1]}` }), " ",
    g.won ? t("won") : t("lost"), g.rated ? ` \u00b7 ${t("rated")}` : "")));
}

ready.then(start);
