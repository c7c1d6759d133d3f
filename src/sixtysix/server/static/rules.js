// The rules page: its pictures drawn as the player's cards are (the language's letters,
// the four-colour deck), and the sentences that name cards, written as on the card.
"use strict";

const EXAMPLES = {
  "strict-example": () => t("Example: hearts are trumps and your opponent leads {lead}. You must beat it with a higher spade, such as {higher}, if you have one; with only lower spades, such as {lower}, you must play one of those; with no spade at all you must play a trump, such as {trump}.",
                            { lead: cardName("KS"), higher: cardName("AS"), lower: cardName("9S"), trump: cardName("9H") }),
  "exchange-example": () => t("Example: diamonds are trumps and {trump} is turned up. If you hold {nine}, you may put it in the place of {trump} and take {trump} into your hand.",
                              { trump: cardName("AD"), nine: cardName("9D") }),
};

function showRules() {
  // The HTML names the English two-colour pictures; others are asked for only when wanted.
  if (i18n.lang !== "en" || cardLook.fourColours) {
    const query = `?lang=${i18n.lang}${cardLook.fourColours ? "&deck=four" : ""}`;
    for (const img of document.querySelectorAll("img[data-card]")) img.src = `/cards/${img.dataset.card}.svg${query}`;
  }
  for (const node of document.querySelectorAll("[data-rules]")) {
    const example = EXAMPLES[node.dataset.rules];
    if (example) node.textContent = example();
  }
}

ready.then(showRules);
