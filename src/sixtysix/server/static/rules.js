// The rules page: its pictures drawn as the player's cards are (the language's letters,
// the four-colour deck). Its sentences that name cards (data-cards) are filled in by
// translatePage, as the terminal game fills them (sixtysix.tui.rules).
"use strict";

function showRules() {
  // The HTML names the English two-colour pictures; others are asked for only when wanted.
  if (i18n.lang !== "en" || cardLook.fourColours) {
    const query = `?lang=${i18n.lang}${cardLook.fourColours ? "&deck=four" : ""}`;
    for (const img of document.querySelectorAll("img[data-card]")) img.src = `/cards/${img.dataset.card}.svg${query}`;
  }
}

ready.then(showRules);
