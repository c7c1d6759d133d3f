"""Text for people: what a seat sees and what happened, in the player's language.

One module a concern, each working from a seat's :class:`~sixtysix.game.views.View`
and public facts only (docs/design.md §6), every sentence from the message
catalogs (:mod:`sixtysix.i18n`):

* :mod:`sixtysix.present.text.words`: the game's things in words (suits, ranks, cards as
  printed, tricks, the computer's levels) and who is who (:class:`~sixtysix.present.text.words.Seats`);
* :mod:`sixtysix.present.text.style`: how cards and emphasis look (plain, or terminal colours);
* :mod:`sixtysix.present.text.screen`: the table as a seat sees it, its numbered choices, a hint;
* :mod:`sixtysix.present.text.narration`: what happened (an action, the cut, a deal, how a
  hand and the match ended);
* :mod:`sixtysix.present.text.questions`: what to ask before an action that cannot be taken back;
* :mod:`sixtysix.present.text.prompt`: what a person types (an action or its number), and why
  an action is refused (the engine's reason, worded for the player).

The line game (:mod:`sixtysix.cli.play`) and the full-screen game
(:mod:`sixtysix.tui`) use them.
"""
