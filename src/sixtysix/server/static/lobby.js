// The lobby: start a game, list open games, games being played and finished ones.
"use strict";

function rememberToken(id, token) {
  localStorage.setItem(`sixtysix-token-${id}`, token);
}

async function createGame(event) {
  event.preventDefault();
  const form = event.target;
  const kind = event.submitter ? event.submitter.value : "computer";
  const data = new FormData(form);
  const body = { kind, rules: data.get("rules"), name: data.get("name") || "" };
  if (kind === "computer") {
    body.level = data.get("level");
    body.takeback = data.get("takeback") === "on";
  }
  if (data.get("target")) body.target = Number(data.get("target"));
  const errorBox = document.getElementById("new-game-error");
  errorBox.textContent = "";
  try {
    const game = await api("POST", "/api/games", body);
    rememberToken(game.id, game.token);
    location.href = game.link;
  } catch (e) {
    errorBox.textContent = e.message;
  }
}

function gameItem(game, label, href) {
  const [first, second] = game.players;
  const players = first && second ? t("{first} vs {second}", { first, second }) : first || second || "?";
  return el("li", {}, el("a", { href, text: label }), ` ${players} \u2014 ${(game.rules_json ? rulesText(game.rules_json, game.target) : game.rules)} `,
            el("span", { class: "dim", text: `${game.score[0]}\u2013${game.score[1]}` }));
}

async function refresh() {
  try {
    const lobby = await api("GET", "/api/games");
    const fill = (id, items, empty) => {
      const list = document.getElementById(id);
      list.replaceChildren(...(items.length ? items : [el("li", { class: "empty", text: empty })]));
    };
    fill("open-games", lobby.open.map((g) => gameItem(g, t("Join"), `/game/${g.id}`)), t("None right now."));
    fill("playing-games", lobby.playing.map((g) => gameItem(g, t("Watch"), `/game/${g.id}`)), t("None right now."));
    fill("finished-games", lobby.finished.map((g) => {
      const item = gameItem(g, t("Replay"), `/replay/${g.id}`);
      item.append(" ", el("a", { href: `/api/games/${g.id}/record`, text: t("record") }));
      return item;
    }), t("None yet."));
    fill("abandoned-games", (lobby.abandoned || []).map((g) => gameItem(g, t("Look"), `/game/${g.id}`)), t("None."));
  } catch (e) {
    /* the next refresh tries again */
  }
}

// The computer opponents come from the server: its levels and the engines its operator added.
async function fillOpponents() {
  const select = document.querySelector("select[name=level]");
  try {
    const offered = await api("GET", "/api/opponents");
    select.replaceChildren(...offered.opponents.map((o) => el("option", {
      value: o.name, text: o.kind === "engine" ? t("{name} (engine)", { name: o.name }) : levelName(o.name),
      selected: o.name === offered.default,
    })));
  } catch (e) {
    document.getElementById("new-game-error").textContent =
      t("The computer levels could not be loaded: {reason}", { reason: e.message });
  }
}

document.getElementById("new-game-form").addEventListener("submit", createGame);
ready.then(() => {
  fillOpponents();
  refresh();
  setInterval(refresh, 5000);
});
