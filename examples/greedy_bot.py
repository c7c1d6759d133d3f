"""A greedy Sixty-six player in twenty lines (the docs' tutorial)."""

from sixtysix.bots import BaseBot
from sixtysix.game.actions import Action, ActionKind
from sixtysix.game.views import View


class GreedyBot(BaseBot):
    name = "greedy"

    def choose(self, view: View, legal: list[Action]) -> Action:
        kinds = {action.kind: action for action in legal}
        if ActionKind.DECLARE in kinds and view.scores[view.seat] >= 66:
            return kinds[ActionKind.DECLARE]  # 66 reached: claim the hand
        for kind in (ActionKind.EXCHANGE, ActionKind.MARRIAGE, ActionKind.DRAW):
            if kind in kinds:
                return kinds[kind]  # take the trump, score a marriage, draw
        # Our playable cards, cheapest first and trumps last.
        cards = sorted((a for a in legal if a.kind is ActionKind.PLAY),
                       key=lambda a: (a.card.suit == view.trump, a.card.points))
        if view.lead is None or not cards:
            return cards[0] if cards else legal[0]  # lead our cheapest card
        led = view.lead[1]
        winners = [a for a in cards if a.card.beats(led, view.trump)]
        if winners and led.points + winners[0].card.points >= 10:
            return winners[0]  # take a trick worth 10 or more, as cheaply as we can
        return cards[0]  # or give away as little as possible
