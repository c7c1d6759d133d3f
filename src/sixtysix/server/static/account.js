// The account's page (issue 36, item 9): change the password, delete the account. The
// server checks everything; the page words its refusals (accountError).
"use strict";

function showPanels() {
  const known = Boolean(account.name);
  document.getElementById("account-guest-note").hidden = known;
  document.getElementById("password-panel").hidden = !known;
  document.getElementById("delete-panel").hidden = !known;
  if (known) {
    document.getElementById("account-heading").textContent = t("Your account: {name}", { name: account.name });
    document.getElementById("password-username").value = account.name;  // for password managers
  }
}

async function changePassword(event) {
  event.preventDefault();
  const data = new FormData(event.target);
  const errorBox = document.getElementById("password-error");
  const done = document.getElementById("password-done");
  errorBox.textContent = "";
  done.textContent = "";
  const button = document.getElementById("password-submit");
  button.disabled = true;
  try {
    const me = await api("POST", "/api/account/password", { old: data.get("old") || "", new: data.get("new") || "" });
    account.csrf = me.csrf;  // a new session: every other one ended
    event.target.reset();
    done.textContent = t("The password is changed. Your other devices are logged out.");
  } catch (e) {
    errorBox.textContent = accountError(e);
  } finally {
    button.disabled = false;
  }
}

async function deleteAccount(event) {
  event.preventDefault();
  const errorBox = document.getElementById("delete-error");
  errorBox.textContent = "";
  if (!document.getElementById("delete-sure").checked) {
    errorBox.textContent = t("Tick the box to say that you want to delete the account.");
    return;
  }
  const button = document.getElementById("delete-submit");
  button.disabled = true;
  try {
    await api("POST", "/api/account/delete", { password: document.getElementById("delete-password").value });
    account.name = null;
    account.csrf = null;
    document.getElementById("password-panel").hidden = true;
    document.getElementById("delete-panel").hidden = true;
    document.getElementById("account-deleted").hidden = false;
  } catch (e) {
    errorBox.textContent = accountError(e);
  } finally {
    button.disabled = false;
  }
}

document.getElementById("password-form").addEventListener("submit", changePassword);
document.getElementById("delete-form").addEventListener("submit", deleteAccount);
ready.then(async () => {
  await keepTrying(() => api("GET", "/api/account")).then((me) => {
    account.name = me.name || null;
    account.csrf = me.csrf || null;
  }).catch(() => {});
  showPanels();
});
