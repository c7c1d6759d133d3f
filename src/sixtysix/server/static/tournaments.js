// The tournaments: those being played, coming and finished; a form to make one.
"use strict";

function kindName(kind) {
  return kind === "arena" ? t("Arena") : t("Round robin");
}

function tournamentItem(tour) {
  return el("li", {}, el("a", { href: `/tournament/${encodeURIComponent(tour.id)}`, text: tour.name }),
            ` \u2014 ${kindName(tour.kind)}, ${presetName(typeof tour.rules === "string" ? tour.rules : tour.rules.preset)}` +
            (tour.rated ? ` \u00b7 ${t("rated")}` : ""));
}

const refreshTournaments = oneAtATime(async () => {
  try {
    const all = await keepTrying(() => api("GET", "/api/tournaments"));
    for (const status of ["running", "upcoming", "finished"]) {
      const list = document.getElementById(status);
      list.replaceChildren(...(all[status].length ? all[status].map(tournamentItem)
        : [el("li", { class: "empty", text: t("None.") })]));
    }
  } catch (e) {
    /* the next refresh tries again */
  }
});

async function makeTournament(event) {
  event.preventDefault();
  const data = new FormData(event.target);
  const body = { name: data.get("name") || "", kind: data.get("kind"), rules: data.get("rules"),
                 starts_in: Number(data.get("starts_in") || 0), rated: data.get("rated") === "on",
                 computers: data.getAll("computers") };
  if (data.get("target")) body.target = Number(data.get("target"));
  if (data.get("clock")) body.clock = data.get("clock");
  if (body.kind === "arena") body.minutes = Number(data.get("minutes") || 30);
  const errorBox = document.getElementById("tournament-error");
  errorBox.textContent = "";
  try {
    const made = await api("POST", "/api/tournaments", body);
    location.href = `/tournament/${encodeURIComponent(made.id)}`;
  } catch (e) {
    errorBox.replaceChildren(refusalNode(e));
  }
}

document.getElementById("tournament-form").addEventListener("submit", makeTournament);
ready.then(async () => {
  await loadAccount();
  document.getElementById("login-first").hidden = Boolean(account.name);
  document.getElementById("tournament-form").hidden = !account.name;
  refreshTournaments();
  setInterval(refreshTournaments, 10000);
});
