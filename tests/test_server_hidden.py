"""Hidden information over the network (docs/design.md §6, R11): every WebSocket message
sent to a client, over many random games, is checked against the cards that
client may not know at that moment. No such card may appear in any message.

The ground truth comes from the game's record once it is over (the server
gives it out only then): each message names its hand and how many actions
were taken, so the test rebuilds that exact position with the engine.
"""

from __future__ import annotations

import random
from typing import Any

from helpers import holdings, need_module, revealed

need_module("fastapi", "the web extra")
from fastapi.testclient import TestClient  # noqa: E402

from server_support import ALL_CARDS, Client, cards_mentioned, connect, finished  # noqa: E402
from sixtysix.game.cards import Card  # noqa: E402
from sixtysix.game.hand import Hand  # noqa: E402
from sixtysix.game.record import MatchRecord, loads  # noqa: E402
from sixtysix.rules import Rules  # noqa: E402
from sixtysix.server import Settings, create_app  # noqa: E402

RULES = ["classic,target=3", "pagat,target=3", "santase,target=4"]


def position(record: MatchRecord, hand_number: int, actions: int) -> Hand:
    entry = record.hands[hand_number - 1]
    assert entry.dealer is not None
    hand = Hand.deal(entry.deck, entry.dealer, record.rules)
    for action in entry.actions[:actions]:
        hand.push(action)
    return hand


def hidden_from(hand: Hand, seat: int | None) -> frozenset[Card]:
    """The cards whose place ``seat`` (``None``: a spectator) does not know, worked out
    from the deal and the actions alone, not from the engine's views (which serve the
    messages under test): the pack less the seat's own cards (dealt, drawn, exchanged
    and not yet played), the cards played and the cards shown face up (R11.1)."""
    deck, actions = hand.deck, hand.actions
    known = {a.card for a in actions if a.card is not None} | revealed(deck, hand.rules, actions)
    if seat is not None:
        known |= holdings(deck, hand.dealer, hand.rules, actions)[seat]
    return frozenset(set(deck) - known)


def check(messages: list[dict[str, Any]], seat: int | None, record: MatchRecord) -> int:
    checked = 0
    for message in messages:
        if message["type"] != "state":
            assert not cards_mentioned(message) - (set() if seat is None else ALL_CARDS), message
            continue
        game = message["game"]
        hand = position(record, game["hand_number"], game["actions"])
        # How the latest finished hand ended is shown face up to everybody: it is checked
        # against that hand's end, the rest of the message against the position now.
        message = dict(message)
        check_last_hand(message.pop("last_hand"), record, game)
        leaked = cards_mentioned(message) & hidden_from(hand, seat)
        assert not leaked, f"seat {seat} was sent hidden cards {sorted(map(str, leaked))}: {message}"
        checked += 1
    return checked


def check_last_hand(last: dict[str, Any] | None, record: MatchRecord, game: dict[str, Any]) -> None:
    """``last_hand`` names the latest hand that is over at this message, and holds only its last
    trick and the cards each player held at its end (R3.5: earlier tricks stay hidden)."""
    # The hands over at this message: as many as it has results. (Replaying the actions
    # is not enough: a hand an engine forfeited is over after the same actions, and a
    # forfeit that ends the match deals no next hand.)
    latest = len(game["results"])
    assert latest in (game["hand_number"], game["hand_number"] - 1)
    if latest == game["hand_number"] - 1:
        assert not position(record, game["hand_number"], game["actions"]).is_over()
    if latest == 0:
        assert last is None
        return
    assert last is not None and last["number"] == latest
    entry = record.hands[latest - 1]
    end = position(record, latest, len(entry.actions))
    if "forfeit" in entry.extra:  # an engine's failure ended it (docs/protocol.md)
        end.forfeit(entry.extra["forfeit"])
    assert end.is_over()
    tricks = end.view(0).tricks
    expected = None if not tricks else [tricks[-1].leader, str(tricks[-1].lead), str(tricks[-1].follow),
                                        tricks[-1].winner]
    assert last["last_trick"] == expected
    assert last["remaining"] == [sorted(str(c) for c in end.cards(s)) for s in (0, 1)]
    shown = {c for cards in last["remaining"] for c in cards} | set((expected or [None, "", ""])[1:3])
    assert cards_mentioned(last) <= {Card.parse(c) for c in shown if c}


def play_person_game(c: TestClient, rng: random.Random, rules: str) -> tuple[str, list[Client]]:
    created = c.post("/api/games", json={"kind": "person", "rules": rules}).json()
    gid = created["id"]
    joined = c.post(f"/api/games/{gid}/join", json={}).json()
    clients: list[Client] = []
    with connect_all(c, gid, [(created["token"], 0), (joined["token"], 1), (None, None)], clients):
        while True:
            for p in clients:
                p.sync()
            if finished(clients[0].state or {}):
                break
            mover = next(p for p in clients[:2] if p.my_turn)
            if rng.random() < 0.05:  # now and then a wrong move, which gets an error reply
                mover.send({"type": "act", "action": rng.choice(sorted(str(x) for x in ALL_CARDS))})
            else:
                mover.act_random(rng)
    return gid, clients


def play_computer_game(c: TestClient, rng: random.Random, rules: str) -> tuple[str, list[Client]]:
    created = c.post("/api/games", json={"kind": "computer", "level": "random", "rules": rules}).json()
    gid = created["id"]
    clients: list[Client] = []
    with connect_all(c, gid, [(created["token"], 0), (None, None)], clients):
        me, watcher = clients
        while not finished(me.until(lambda s: finished(s) or s["view"]["to_act"] == 0)):
            me.act_random(rng)
            me.sync()
        watcher.until(finished)
    return gid, clients


class connect_all:
    """Connect several clients at once (a context manager)."""

    def __init__(self, c: TestClient, gid: str, seats: list[tuple[str | None, int | None]],
                 out: list[Client]) -> None:
        self.gens = [connect(c, gid, token, seat) for token, seat in seats]
        self.out = out

    def __enter__(self) -> list[Client]:
        self.out.extend(next(g) for g in self.gens)
        return self.out

    def __exit__(self, *exc: object) -> None:
        for g in reversed(self.gens):
            g.close()


def test_no_message_to_any_client_names_a_card_hidden_from_it() -> None:
    rng = random.Random(66)
    totals = {"games": 0, "messages": 0}
    with TestClient(create_app(Settings(database_url="sqlite://", message_rate=1e6, message_burst=1e6,
                                        create_rate=1e6, create_burst=1e6))) as c:
        for i in range(90):
            rules = RULES[i % len(RULES)]
            gid, clients = (play_person_game if i % 3 else play_computer_game)(c, rng, rules)
            record = loads(c.get(f"/api/games/{gid}/record").text)
            assert isinstance(record, MatchRecord)
            for client in clients:
                totals["messages"] += check(client.messages, client.seat, record)
            totals["games"] += 1
    assert totals["games"] == 90 and totals["messages"] > 5000


def test_the_hidden_cards_are_worked_out_right() -> None:
    """The oracle above against the engine, over random hands of each preset played
    here: each seat's own cards are the engine's, and what is hidden from a seat is
    what its view calls unseen (R11.2)."""
    rng = random.Random(19)
    positions = 0
    for preset in ("classic", "pagat", "santase", "schnapsen"):
        for _ in range(40):
            hand = Hand.random(rng=rng, dealer=rng.randrange(2), rules=Rules.preset(preset))
            while True:
                own = holdings(hand.deck, hand.dealer, hand.rules, hand.actions)
                for seat in (0, 1):
                    assert own[seat] == set(hand.cards(seat))
                    assert hidden_from(hand, seat) == hand.view(seat).unseen()
                    assert hidden_from(hand, seat) <= hidden_from(hand, None)
                positions += 1
                if hand.is_over():
                    break
                hand.push(rng.choice(hand.legal_actions()))
    assert positions > 1500


def test_the_check_finds_a_leak() -> None:
    """The check above can fail: a seat's view handed to the other seat is caught."""
    hand = Hand.random(seed=3)
    from sixtysix.present.wire import seat_view_json

    message = {"type": "state", "game": {"hand_number": 1, "actions": 0}, "view": seat_view_json(hand, 1)}
    assert cards_mentioned(message) & hidden_from(hand, 0)
    assert not cards_mentioned(message) & hidden_from(hand, 1)
