"""Jupyter display: cards as SVG, views and hands as HTML, with the web client's pictures."""

from __future__ import annotations

import base64
import random
import re

from helpers import need_module
from sixtysix import CARDS, Action, Card, Hand
from sixtysix.present.svg import back_svg, card_svg

IMG = re.compile(r'<img src="data:image/svg\+xml;base64,([^"]+)" alt="([^"]+)"')


def _pictures(html: str) -> list[tuple[str, str]]:
    """(alt, svg) of every card picture in some HTML."""
    return [(alt, base64.b64decode(data).decode()) for data, alt in IMG.findall(html)]


def test_a_card_displays_as_the_web_clients_picture() -> None:
    for card in CARDS:
        svg = card._repr_svg_()
        assert svg == card_svg(card) and f'data-card="{card}"' in svg
    assert len({card._repr_svg_() for card in CARDS}) == 24


def test_the_server_serves_the_same_pictures() -> None:
    need_module("fastapi", "the web extra")
    from fastapi.testclient import TestClient

    from sixtysix.server import Settings, create_app

    with TestClient(create_app(Settings(database_url="sqlite://"))) as client:
        for token in ("KH", "9C", "TS"):
            assert client.get(f"/cards/{token}.svg").text == Card.parse(token)._repr_svg_()
        assert client.get("/cards/back.svg").text == back_svg()


def _positions(count: int, seed: int) -> list[Hand]:
    rng = random.Random(seed)
    hands = []
    for _ in range(count):
        hand = Hand.random(rng=rng, dealer=rng.randrange(2))
        for _ in range(rng.randrange(30)):
            if hand.is_over():
                break
            hand.push(rng.choice(hand.legal_actions()))
        hands.append(hand)
    return hands


def test_a_view_shows_its_own_cards_and_no_hidden_card() -> None:
    # R11 / docs/design.md §6: the opponent's unknown cards and the stock are backs.
    for hand in _positions(200, seed=1):
        for seat in (0, 1):
            view = hand.view(seat)
            shown = _pictures(view._repr_html_())
            faces = [alt for alt, _ in shown if alt != "back"]
            assert {str(c) for c in view.hand} <= set(faces)
            public = {str(c) for c in view.hand | view.played | view.known_opponent_cards()}
            if view.trump_card is not None:
                public.add(str(view.trump_card))
            assert set(faces) <= public
            hidden = (hand.cards(1 - seat) - view.known_opponent_cards()) | set(hand.stock[:-1])
            assert not {str(c) for c in hidden} & set(faces)
            for alt, svg in shown:
                assert svg == (back_svg() if alt == "back" else card_svg(Card.parse(alt)))


def test_a_view_shows_as_many_backs_as_the_opponent_holds_unknown_cards() -> None:
    hand = Hand.deal("QD AD TC TD 9S 9C JD KS AS 9D TH JS QC KC QS AC 9H KH TS JC KD JH QH AH", dealer=0)
    hand.push(Action.parse("KS"))
    html = hand.view(0)._repr_html_()
    assert html.count('alt="back"') == 5 + 1  # the leader's six cards less the one led; the stock
    assert "Legal" in html and "led by the opponent" in html


def test_a_hand_shows_both_hands_and_the_stock() -> None:
    hand = Hand.random(seed=4)
    faces = [alt for alt, _ in _pictures(hand._repr_html_())]
    assert sorted(faces) == sorted(str(c) for c in (*hand.cards(0), *hand.cards(1), *hand.stock))
    while not hand.is_over():
        hand.push(hand.legal_actions()[-1])
    assert "Result" in hand._repr_html_() and "Result" in hand.view(0)._repr_html_()
