// The lobby: start a game, list open games, games being played and finished ones.
"use strict";

function rememberToken(id, token) {
  localStorage.setItem(`sixtysix-token-${id}`, token);
}

let pairingRequest = null;  // the quick pairing being waited for (an AbortController)

async function createGame(event) {
  event.preventDefault();
  const form = event.target;
  const kind = event.submitter ? event.submitter.value : "computer";
  if (kind === "pairing") { quickPairing(form); return; }
  if (kind === "challenge") { challenge(form); return; }
  const data = new FormData(form);
  const body = { kind, rules: data.get("rules"), name: data.get("name") || "" };
  // Automatic 66 (Settings) is a rule of the match: asked for against the computer only.
  if (kind === "computer" && playOptions.autoDeclare && data.get("rated") !== "on") body.rules += ",auto_declare=true";
  if (kind === "computer") {
    body.level = data.get("level");
    body.takeback = data.get("takeback") === "on";
  }
  if (data.get("clock")) body.clock = data.get("clock");
  if (data.get("rated") === "on") body.rated = true;
  if (data.get("target")) body.target = Number(data.get("target"));
  const errorBox = document.getElementById("new-game-error");
  errorBox.textContent = "";
  try {
    const game = await api("POST", "/api/games", body);
    rememberToken(game.id, game.token);
    location.href = game.link;
  } catch (e) {
    errorBox.replaceChildren(refusalNode(e));
  }
}

// Quick pairing: the server answers when a person who wants the same game came, or
// after the wait chosen with the computer level rated nearest the player.
async function quickPairing(form) {
  const data = new FormData(form);
  const body = { rules: data.get("rules"), name: data.get("name") || "", wait: Number(data.get("wait")) };
  if (data.get("target")) body.target = Number(data.get("target"));
  if (data.get("clock")) body.clock = data.get("clock");
  if (data.get("rated") === "on") body.rated = true;
  const errorBox = document.getElementById("new-game-error");
  const status = document.getElementById("pairing-status");
  errorBox.textContent = "";
  pairingRequest = new AbortController();
  status.hidden = false;
  document.getElementById("quick-pairing").disabled = true;
  const watcher = watchPairing(body);
  try {
    const game = await askAgainIfStopping(() => api("POST", "/api/pairing", body, pairingRequest.signal));
    rememberToken(game.id, game.token);
    // The game page says that the computer came because nobody did.
    if (game.opponent === "computer") sessionStorage.setItem(`sixtysix-found-${game.id}`, "computer");
    location.href = game.link;
  } catch (e) {
    if (e.name !== "AbortError") errorBox.replaceChildren(refusalNode(e));
  } finally {
    clearInterval(watcher);
    document.getElementById("pairing-outlook").textContent = "";
    status.hidden = true;
    document.getElementById("quick-pairing").disabled = false;
    pairingRequest = null;
  }
}

// While quick pairing waits: the ratings it pairs across now (the server widens them as
// the wait goes on), how many others wait for the same game, and when the computer comes
// instead (announced before it does). The server is asked every 2 s, the count every second.
function watchPairing(body) {
  const began = Date.now();
  let outlook = null;
  const query = () => {
    const params = new URLSearchParams({ rules: body.rules || "classic", waited: String((Date.now() - began) / 1000) });
    if (body.target) params.set("target", String(body.target));
    if (body.clock) params.set("clock", body.clock);
    if (body.rated) params.set("rated", "true");
    return `/api/pairing/outlook?${params}`;
  };
  const show = () => {
    if (!outlook) return;
    const left = Math.max(0, Math.ceil(body.wait - (Date.now() - began) / 1000));
    const parts = [outlook.widens
      ? t("Players rated {low}\u2013{high}, more the longer you wait.", outlook)
      : t("Players rated {low}\u2013{high}.", outlook)];
    if (outlook.waiting) parts.push(nt("{n} other player waits for this game.", "{n} other players wait for this game.", outlook.waiting));
    parts.push(outlook.computer
      ? nt("If nobody comes within {n} second, you play the computer ({level}).",
           "If nobody comes within {n} seconds, you play the computer ({level}).", left, { level: levelName(outlook.computer) })
      : nt("If nobody comes within {n} second, the search ends.", "If nobody comes within {n} seconds, the search ends.", left));
    document.getElementById("pairing-outlook").textContent = parts.join(" ");
  };
  let ticks = 0;
  const tick = async () => {
    if (ticks++ % 2 === 0) {
      try { outlook = await api("GET", query()); } catch (e) { /* the next tick asks again */ }
    }
    show();
  };
  tick();
  return setInterval(tick, 1000);
}

// A challenge: a game for the player named only (an account).
async function challenge(form) {
  const data = new FormData(form);
  const body = { kind: "person", rules: data.get("rules"), opponent: (data.get("opponent") || "").trim() };
  if (data.get("target")) body.target = Number(data.get("target"));
  if (data.get("clock")) body.clock = data.get("clock");
  if (data.get("rated") === "on") body.rated = true;
  const errorBox = document.getElementById("new-game-error");
  errorBox.textContent = "";
  if (!body.opponent) { errorBox.textContent = t("Write the name of the player to challenge."); return; }
  try {
    const game = await api("POST", "/api/games", body);
    rememberToken(game.id, game.token);
    location.href = game.link;
  } catch (e) {
    errorBox.replaceChildren(refusalNode(e));
  }
}

// The logged-in player's challenges: to him (take the seat or decline), and his own.
const refreshChallenges = oneAtATime(async () => {
  const box = document.getElementById("challenges");
  if (!account.name) { box.hidden = true; return; }
  try {
    const mine = await keepTrying(() => api("GET", "/api/challenges"));
    box.hidden = !mine.incoming.length && !mine.outgoing.length;
    const decline = (id) => async () => {
      try { await api("POST", `/api/games/${encodeURIComponent(id)}/decline`); } catch (e) { showToast(refusalNode(e)); }
      refreshChallenges();
    };
    document.getElementById("challenges-incoming").replaceChildren(...mine.incoming.map((g) => el("li", {},
      t("{name} challenges you", { name: g.players[0] }), ` \u2014 ${matchText(g.rules_json, g.target, g.rated, g.clock)} `,
      el("a", { class: "button", href: `/game/${g.id}`, text: t("Accept") }), " ",
      el("button", { type: "button", text: t("Decline"), onclick: decline(g.id) }))));
    document.getElementById("challenges-outgoing").replaceChildren(...mine.outgoing.map((g) => el("li", {},
      el("a", { href: `/game/${g.id}`, text: t("You challenged {name}", { name: g.players[1] }) }),
      ` \u2014 ${matchText(g.rules_json, g.target, g.rated, g.clock)} `,
      el("button", { type: "button", text: t("Take back"), onclick: decline(g.id) }))));
  } catch (e) {
    /* the next refresh tries again */
  }
});

function gameItem(game, label, href) {
  const [first, second] = game.players;
  const players = first && second ? t("{first} vs {second}", { first, second }) : first || second || "?";
  return el("li", {}, el("a", { href, text: label }), ` ${players} \u2014 ${(game.rules_json ? rulesText(game.rules_json, game.target) : game.rules)} `,
            el("span", { class: "dim", text: `${game.score[0]}\u2013${game.score[1]}` }), " ",
            el("span", { class: "tag terms", title: game.clock ? clockName(game.clock) : "",
                         text: termsText(game.rated, game.clock) }));
}

// The lists: while the server cannot be reached the banner says so, and they are asked
// for again (keepTrying), never left empty without a word.
const refresh = oneAtATime(async () => {
  try {
    const lobby = await keepTrying(() => api("GET", "/api/games"));
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
});

// The lobby live: the server says when its lists change (server-sent events, gathered
// at most once a second), and the page reads them again. Without the stream (an old
// proxy, the server restarting) it reads them every 5 s meanwhile, as a fallback.
let polling = null;
function followLobby() {
  const poll = (on) => {
    if (on && !polling) polling = setInterval(() => { refresh(); refreshChallenges(); }, 5000);
    if (!on && polling) { clearInterval(polling); polling = null; }
  };
  poll(true);
  if (!window.EventSource) return;
  const events = new EventSource("/api/lobby/events");
  events.addEventListener("open", () => { poll(false); refresh(); refreshChallenges(); });
  events.addEventListener("lobby", () => { refresh(); refreshChallenges(); });
  events.addEventListener("error", () => poll(true));  // the browser reconnects by itself
}

// A time control in words ("5+3", "20/move").
// The leaderboard of the rules chosen, and the computer levels' fixed ratings beside it.
const refreshLeaderboard = oneAtATime(async () => {
  const pool = document.getElementById("pool").value;
  try {
    const board = await keepTrying(() => api("GET", `/api/leaderboard?pool=${encodeURIComponent(pool)}&limit=10`));
    const list = document.getElementById("leaderboard-players");
    list.replaceChildren(...(board.players.length ? board.players.map((p) => el("li", {},
      el("a", { href: `/player/${encodeURIComponent(p.name)}`, text: p.name }),
      ` ${p.rating}${p.provisional ? "?" : ""} `, el("span", { class: "dim", text: nt("{n} game", "{n} games", p.games) }))) :
      [el("li", { class: "empty", text: t("Nobody has a rating yet: play rated games.") })]));
    document.getElementById("leaderboard-levels").textContent =
      board.levels.map((l) => `${levelName(l.level)} ${l.rating}`).join(" \u00b7 ");
  } catch (e) {
    /* the next refresh tries again */
  }
});

// The computer opponents come from the server: its levels and the engines its operator added.
async function fillOpponents() {
  const select = document.querySelector("select[name=level]");
  try {
    const offered = await keepTrying(() => api("GET", "/api/opponents"));
    select.replaceChildren(...offered.opponents.map((o) => el("option", {
      value: o.name, text: o.kind === "engine" ? t("{name} (engine)", { name: o.name }) : levelName(o.name),
      selected: o.name === offered.default,
    })));
  } catch (e) {
    document.getElementById("new-game-error").textContent =
      t("The computer levels could not be loaded: {reason}", { reason: e.message });
  }
}

// The account area in the header: log in or register (a dialog), or who is logged in.
// Accounts are optional: a guest plays as before.
const accountDialog = document.getElementById("account-dialog");
let accountMode = "login";

function showAccount() {
  const nameInput = document.querySelector("#new-game-form input[name=name]");
  document.getElementById("account-guest").hidden = Boolean(account.name);
  document.getElementById("account-user").hidden = !account.name;
  const me = document.getElementById("account-name");
  me.textContent = account.name ? t("Signed in as {name}", { name: account.name }) : "";
  if (account.name) me.href = `/player/${encodeURIComponent(account.name)}`;
  const rated = document.getElementById("rated");
  rated.disabled = !account.name;
  document.getElementById("challenge-row").hidden = !account.name;
  refreshChallenges();
  if (!account.name) rated.checked = false;
  // A new game's name is the account's, unless the player wrote another.
  if (account.name && (!nameInput.value || nameInput.value === showAccount.filled)) nameInput.value = account.name;
  if (!account.name && nameInput.value && nameInput.value === showAccount.filled) nameInput.value = "";
  showAccount.filled = account.name;
}

// The dialog's three forms: log in, register, and a new password with a recovery code
// (an administrator issues it: ``sixtysix accounts reset NAME``).
function openAccountDialog(mode) {
  const name = document.getElementById("account-name-input").value;
  document.getElementById("account-form").reset();
  setAccountMode(mode);
  if (mode === "reset") document.getElementById("account-name-input").value = name;
  if (!accountDialog.open) accountDialog.showModal();
  document.getElementById(mode === "reset" && name ? "account-code" : "account-name-input").focus();
}

function setAccountMode(mode) {
  accountMode = mode;
  const titles = { register: t("Register"), login: t("Log in"), reset: t("Set a new password") };
  document.getElementById("account-title").textContent = titles[mode];
  document.getElementById("account-submit").textContent = titles[mode];
  document.getElementById("account-why").hidden = mode !== "register";
  document.getElementById("account-rules").hidden = mode === "login";
  document.getElementById("account-reset-why").hidden = mode !== "reset";
  document.getElementById("account-code-row").hidden = mode !== "reset";
  document.getElementById("account-forgot-row").hidden = mode !== "login";
  document.getElementById("account-password-label").textContent = mode === "reset" ? t("New password") : t("Password");
  document.getElementById("account-password").setAttribute("autocomplete", mode === "login" ? "current-password" : "new-password");
  document.getElementById("account-error").textContent = "";
}

async function submitAccount(event) {
  event.preventDefault();
  const data = new FormData(event.target);
  const errorBox = document.getElementById("account-error");
  errorBox.textContent = "";
  const button = document.getElementById("account-submit");
  button.disabled = true;
  const name = data.get("username") || "";
  const password = data.get("password") || "";
  try {
    const me = accountMode === "reset"
      ? await api("POST", "/api/account/reset", { name, code: data.get("code") || "", new: password })
      : await api("POST", `/api/account/${accountMode === "register" ? "register" : "login"}`, { name, password });
    account.name = me.name;
    account.csrf = me.csrf;
    accountDialog.close();
    const back = returnTo();
    if (back) {
      location.href = back;
      return;
    }
    showAccount();
  } catch (e) {
    errorBox.textContent = accountError(e);
  } finally {
    button.disabled = false;
  }
}

async function logOut() {
  try {
    await api("POST", "/api/account/logout");
  } catch (e) {
    showToast(accountError(e));
    return;
  }
  account.name = null;
  account.csrf = null;
  showAccount();
}

// A page that sent the player here to log in (its "Log in" link: /?login=1&next=/game/...)
// is where he goes back to; only a path of this site.
function returnTo() {
  const next = new URLSearchParams(location.search).get("next");
  return next && next.startsWith("/") && !next.startsWith("//") ? next : null;
}

document.getElementById("show-login").addEventListener("click", () => openAccountDialog("login"));
document.getElementById("show-register").addEventListener("click", () => openAccountDialog("register"));
document.getElementById("account-cancel").addEventListener("click", () => accountDialog.close());
document.getElementById("account-forgot").addEventListener("click", () => openAccountDialog("reset"));
document.getElementById("account-form").addEventListener("submit", submitAccount);
document.getElementById("logout").addEventListener("click", logOut);

document.getElementById("new-game-form").addEventListener("submit", createGame);
document.getElementById("pairing-cancel").addEventListener("click", () => pairingRequest && pairingRequest.abort());
ready.then(() => {
  fillOpponents();
  refresh();
  refreshLeaderboard();
  followLobby();
  setInterval(refreshLeaderboard, 30000);
  document.getElementById("pool").addEventListener("change", refreshLeaderboard);
  loadAccount().then(() => {
    showAccount();
    if (!account.name && new URLSearchParams(location.search).get("login")) openAccountDialog("login");
  });
});
