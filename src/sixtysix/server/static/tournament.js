// One tournament: its standings and matches; take part, and ask for the next match.
"use strict";

const tournamentId = decodeURIComponent(location.pathname.split("/").pop());
let tour = null;
let seeking = false;

function minutes(seconds) {
  const m = Math.floor(seconds / 60);
  return `${m}:${String(Math.floor(seconds % 60)).padStart(2, "0")}`;
}

// A computer entrant named in the page's language ("Computer (easy)"), a person by his name.
function entrantName(name, level) {
  return level ? t("Computer ({level})", { level: levelName(level) }) : name;
}

function gameEntrant(game, seat) {
  return entrantName(game.players[seat], game.levels ? game.levels[seat] : null);
}

function render() {
  document.title = t("Sixty-six: {name}", { name: tour.name });
  document.getElementById("tournament-name").textContent = tour.name;
  const preset = typeof tour.rules === "string" ? tour.rules : tour.rules.preset;
  document.getElementById("tournament-facts").textContent =
    [tour.kind === "arena" ? t("Arena") : t("Round robin"), presetName(preset), tour.clock || t("No clock"),
     tour.rated ? t("rated") : ""].filter(Boolean).join(" \u00b7 ");
  const when = tour.status === "upcoming" ? t("Starts in {time}", { time: minutes(tour.seconds_to_start) })
    : tour.status === "running" ? (tour.seconds_left === null ? t("Being played")
      : t("{time} left", { time: minutes(tour.seconds_left) }))
    : t("Finished");
  document.getElementById("tournament-time").textContent = when;
  const entered = account.name && tour.standings.some((e) => !e.computer && e.name === account.name);
  document.getElementById("join-tournament").hidden = !account.name || entered || tour.status === "finished";
  document.getElementById("next-match").hidden = !entered || tour.status !== "running" || seeking;
  document.getElementById("standings").replaceChildren(
    el("tr", {}, ...["", t("Player"), pt("tournament standings", "Score"), t("Matches"), t("Won")]
      .map((c) => el("th", { text: c }))),
    ...tour.standings.map((e, i) => el("tr", {}, el("td", { text: String(i + 1) }),
      el("td", {}, e.computer ? entrantName(e.name, e.level)
        : el("a", { href: `/player/${encodeURIComponent(e.name)}`, text: e.name })),
      el("td", { text: String(e.points) }), el("td", { text: String(e.played) }), el("td", { text: String(e.won) }))));
  document.getElementById("tournament-games").replaceChildren(...tour.games.map((g) => el("li", {},
    el("a", { href: g.result === "playing" ? `/game/${g.id}` : `/replay/${g.id}`,
              text: g.result === "playing" ? t("Watch") : t("Replay") }),
    ` ${t("{first} vs {second}", { first: gameEntrant(g, 0), second: gameEntrant(g, 1) })} `,
    el("span", { class: "dim", text: g.result === "won0" ? t("{name} won", { name: gameEntrant(g, 0) })
      : g.result === "won1" ? t("{name} won", { name: gameEntrant(g, 1) })
      : g.result === "aborted" ? t("called off") : t("being played") }))));
}

const refreshTournament = oneAtATime(async () => {
  try {
    tour = await keepTrying(() => api("GET", `/api/tournaments/${encodeURIComponent(tournamentId)}`));
    render();
  } catch (e) {
    document.getElementById("tournament-name").textContent = t("There is no such tournament.");
  }
});

async function nextMatch() {
  const errorBox = document.getElementById("tournament-error");
  errorBox.textContent = "";
  seeking = true;
  document.getElementById("next-status").hidden = false;
  render();
  try {
    for (;;) {
      const found = await askAgainIfStopping(
        () => api("POST", `/api/tournaments/${encodeURIComponent(tournamentId)}/next`, { wait: 60 }));
      if (found.id) {
        localStorage.setItem(`sixtysix-token-${found.id}`, found.token);
        location.href = `${found.link}?tournament=${encodeURIComponent(tournamentId)}`;
        return;
      }
    }
  } catch (e) {
    errorBox.replaceChildren(refusalNode(e));
  } finally {
    seeking = false;
    document.getElementById("next-status").hidden = true;
    render();
  }
}

document.getElementById("join-tournament").addEventListener("click", async () => {
  try {
    tour = await api("POST", `/api/tournaments/${encodeURIComponent(tournamentId)}/join`);
    render();
  } catch (e) {
    document.getElementById("tournament-error").replaceChildren(refusalNode(e));
  }
});
document.getElementById("next-match").addEventListener("click", nextMatch);
ready.then(async () => {
  await loadAccount();
  await refreshTournament();
  setInterval(refreshTournament, 5000);
});
