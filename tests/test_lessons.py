"""The guided first game (sixtysix.present.lessons and its endpoints): the script is a legal hand
the learner wins, what its messages say is what the kernel computes, the learner's
seat sees nothing hidden, and a wrong or illegal choice is answered as it should be."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from helpers import need_module
from sixtysix import i18n
from sixtysix.game.actions import Action
from sixtysix.game.cards import Card, Rank
from sixtysix.game.hand import Hand
from sixtysix.kernel import marriage_value
from sixtysix.present.lessons import FIRST, LESSONS, card_text, check_json, facts, message, step_json

fastapi = need_module("fastapi", "the web extra")
from fastapi.testclient import TestClient  # noqa: E402

from server_support import cards_mentioned  # noqa: E402
from sixtysix.server import Settings, create_app  # noqa: E402

LANGS = sorted(i18n.LANGUAGES)
ME = FIRST.learner
PLACEHOLDER = re.compile(r"\{(\w*)\}")


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(database_url="sqlite://"))) as c:
        yield c


def test_the_script_is_a_legal_hand_that_the_learner_wins() -> None:
    hand = Hand.deal(FIRST.deck, FIRST.dealer)
    for i, step in enumerate(FIRST.steps):
        assert hand.to_act == step.seat, f"step {i}: {step.action} is not {step.seat}'s to play"
        hand.push(Action.parse(step.action))  # raises on an illegal action
    result = hand.result()
    assert result is not None and result.winner == ME and result.reason in ("declared", "closed_succeeded")
    assert FIRST.hand(len(FIRST.steps)).key() == hand.key()
    assert LESSONS["first"] is FIRST


def test_the_lesson_shows_what_a_first_game_should() -> None:
    """Leading, a trick lost and tricks won, drawing, the exchange, a marriage, closing
    (after which the computer must follow suit) and declaring 66."""
    actions = [(s.seat, Action.parse(s.action)) for s in FIRST.steps]
    kinds = {(seat, a.kind.value) for seat, a in actions}
    assert {(ME, "exchange"), (ME, "marriage"), (ME, "close"), (ME, "declare"), (ME, "draw"),
            (1 - ME, "draw")} <= kinds
    view = FIRST.hand(len(FIRST.steps)).view(ME)
    assert {t.winner for t in view.tricks} == {0, 1}
    assert any(t.leader == ME for t in view.tricks) and any(t.leader != ME for t in view.tricks)
    follow_after_close = [t for t in view.tricks[view.closed_at:] if t.leader == ME]
    assert view.closed_by == ME and follow_after_close


def test_every_message_cites_only_facts_of_its_step_in_every_language() -> None:
    for i, step in enumerate(FIRST.steps):
        known = set(facts(FIRST, i))
        texts = [step.text] + ([step.why] if step.seat == ME else [])
        assert all(texts), f"step {i} lacks a message"
        for lang in LANGS:
            with i18n.use(lang):
                for text in texts:
                    assert set(PLACEHOLDER.findall(i18n._(text))) <= known, (lang, text)
                    assert "{" not in message(FIRST, i, text)


def test_the_numbers_and_cards_each_message_relies_on_are_the_kernels() -> None:
    """Each step's claims (the points it cites, who won the trick...) against the facts the
    kernel gives at that step, and each card a message says the learner holds in the hand."""
    for i, step in enumerate(FIRST.steps):
        found = facts(FIRST, i)
        for name, value in step.claims.items():
            assert found.get(name) == value, f"step {i} ({step.action}): {name} is {found.get(name)}"
        hand = FIRST.hand(i).view(ME).hand
        for name, card in step.held.items():
            assert Card.parse(card) in hand, f"step {i}: the learner does not hold {card} ({name})"


def test_what_the_prompts_say_is_true_of_the_position() -> None:
    """The reasoning behind the numbers: closing with under 66 and a trump that cannot lose
    reaches 66; the declaration is 66 or more with the computer under 33; the exchange takes the
    highest trump; the marriage counts at once because a trick was won."""
    index = {s.action: i for i, s in enumerate(FIRST.steps) if s.seat == ME}
    close = FIRST.hand(index["C"]).view(ME)
    ace = Card.parse(FIRST.steps[index["C"]].held["ace"])
    assert ace.suit == close.trump and ace.rank is Rank.ACE
    assert close.scores[ME] < 66 <= close.scores[ME] + ace.points
    assert close.state == "draw" and close.stock_size > 0  # there was still something to draw
    declare = facts(FIRST, index["66"])
    assert declare["points"] >= 66 and declare["their_points"] < 33
    exchange = FIRST.hand(index["X"]).view(ME)
    assert exchange.trump_card is not None and exchange.trump_card.rank is Rank.ACE
    assert exchange.exchange_card in exchange.hand
    marriage = FIRST.hand(index["QH+"]).view(ME)
    assert marriage.tricks_won[ME] > 0
    after = FIRST.hand(index["QH+"] + 1).view(ME)
    assert after.scores[ME] == marriage.scores[ME] + 40 == facts(FIRST, index["QH+"])["points_after"]
    # The computer's last card: the stock was closed, the computer had to follow with a trump.
    last = next(i for i, s in enumerate(FIRST.steps) if s.action == "JH")
    hand = FIRST.hand(last)
    assert hand.closed_by == ME and all(a.card is not None and a.card.suit == hand.trump
                                        for a in hand.legal_actions())
    # The summary's numbers: card points (R1.3) and marriages (R5.1).
    points = {Rank.ACE: 11, Rank.TEN: 10, Rank.KING: 4, Rank.QUEEN: 3, Rank.JACK: 2, Rank.NINE: 0}
    assert all(Card(close.trump, rank).points == value for rank, value in points.items())
    assert (marriage_value(0, 1), marriage_value(1, 1)) == (20, 40)


def check(client: TestClient, step: int | str, action: str, lang: str = "en") -> Any:
    """The page's question: is ``action`` the lesson's at ``step``?"""
    return client.get("/api/lessons/first/check", params={"step": step, "action": action, "lang": lang})


def _hidden(step: int) -> set[Card]:
    """The cards the learner may not know after ``step`` actions: the computer's and the stock's."""
    return set(FIRST.hand(step).view(ME).unseen())


def _names_a_card(body: Any, card: Card) -> bool:
    text = json.dumps(body, ensure_ascii=False)
    forms = {card_text(card)}
    for lang in LANGS:
        with i18n.use(lang):
            forms.add(card_text(card))
            forms.add(i18n.card_name(str(card)))
    return card in cards_mentioned(body) or any(form in text for form in forms)


def test_no_response_names_a_hidden_card(client: TestClient) -> None:
    """Hidden information is a hard boundary (R11): no step's answer, nor any answer to a
    choice, names a card of the computer's hand or of the stock, in any language."""
    deck = set(Hand.deal(FIRST.deck, FIRST.dealer).deck)
    for step in range(len(FIRST.steps) + 1):
        hidden = _hidden(step)
        assert hidden <= deck
        for lang in LANGS:
            body = client.get(f"/api/lessons/first?step={step}&lang={lang}").json()
            assert body["step"] == step
            named = [c for c in hidden if _names_a_card(body, c)]
            assert not named, (step, lang, named)
            if body["next"] is not None and body["next"]["seat"] != ME:
                assert body["next"] == {"seat": 1 - ME}  # never the computer's next card
            if body["next"] is not None and body["next"]["seat"] == ME:
                for action in body["next"]["legal"]:
                    answer = check(client, step, action, lang).json()
                    assert "refusal" in answer or answer == {"expected": True}
                    named = [c for c in hidden if _names_a_card(answer, c)]
                    assert not named, (step, action, lang, named)


def test_the_view_is_the_game_pages_view_of_the_learners_seat(client: TestClient) -> None:
    from sixtysix.present.wire import seat_view_json

    for step in (0, 4, 9, len(FIRST.steps)):
        body = client.get(f"/api/lessons/first?step={step}").json()
        assert body["view"] == seat_view_json(FIRST.hand(step), ME)


def test_the_scripted_choice_is_taken_and_another_legal_one_refused_with_a_reason(client: TestClient) -> None:
    for step, s in enumerate(FIRST.steps):
        if s.seat != ME:
            continue
        assert check(client, step, s.action).json() == {"expected": True}
        others = [str(a) for a in FIRST.hand(step).legal_actions() if str(a) != s.action]
        for other in others:
            answer = check(client, step, other).json()
            assert answer["expected"] is False
            assert answer["refusal"].endswith(message(FIRST, step, s.why))
    # The first lead: the ace is allowed, but the lesson asks for the jack, and says why.
    answer = check(client, 0, "AS", "de").json()
    assert answer["expected"] is False and "B♣" in answer["refusal"] and "A♠" in answer["refusal"]
    with i18n.use("de"):
        assert answer == check_json(FIRST, 0, "AS", "de")


def test_an_illegal_action_and_a_step_not_the_learners_are_client_errors(client: TestClient) -> None:
    illegal = client.get("/api/lessons/first/check?step=0&action=AH")  # the turned-up trump
    assert illegal.status_code == 422 and illegal.json()["code"] == "illegal"
    garbage = client.get("/api/lessons/first/check?step=0&action=ZZ")
    assert garbage.status_code == 422 and garbage.json()["code"] == "bad_action"
    computer = client.get("/api/lessons/first/check?step=1&action=AC")
    assert computer.status_code == 409 and computer.json()["code"] == "not_your_move"
    over = client.get(f"/api/lessons/first/check?step={len(FIRST.steps)}&action=66")
    assert over.status_code == 409


@pytest.mark.parametrize("step", ["-1", str(len(FIRST.steps) + 1), "x", "1.5", "99999999999999999999"])
def test_a_bad_step_number_is_a_clear_client_error(client: TestClient, step: str) -> None:
    for path in ("/api/lessons/first", "/api/lessons/first/check"):
        response = client.get(f"{path}?step={step}&action=JC")
        assert 400 <= response.status_code < 500
        body = response.json()
        assert "step" in body["error"] and body["code"] in ("bad_step", "bad_request")


def test_an_unknown_lesson_is_not_found(client: TestClient) -> None:
    response = client.get("/api/lessons/second?step=0")
    assert response.status_code == 404 and response.json()["code"] == "no_lesson"


def test_an_unknown_language_falls_back_to_english(client: TestClient) -> None:
    english = client.get("/api/lessons/first?step=0&lang=en").json()
    for lang in ("xx", "fr-FR", ""):
        body = client.get(f"/api/lessons/first?step=0&lang={lang}").json()
        assert body["lang"] == "en" and body["next"]["prompt"] == english["next"]["prompt"]
    german = client.get("/api/lessons/first?step=0&lang=de-AT").json()
    assert german["lang"] == "de" and german["next"]["prompt"] != english["next"]["prompt"]
    assert "B♣" in german["next"]["prompt"]  # the jack as a German player reads it
    assert step_json(FIRST, 0, "xx") == english


def test_the_end_says_the_learner_won_and_what_was_learnt(client: TestClient) -> None:
    for lang in LANGS:
        body = client.get(f"/api/lessons/first?step={len(FIRST.steps)}&lang={lang}").json()
        assert body["next"] is None and body["view"]["result"]["winner"] == ME
        summary = body["summary"]
        assert summary["title"] and len(summary["learnt"]) == len(FIRST.learnt)
        result = FIRST.hand(len(FIRST.steps)).result()
        assert result is not None
        assert str(result.points[ME]) in summary["text"] and str(result.game_points) in summary["text"]


def test_the_page_is_served_and_linked_from_the_lobby(client: TestClient) -> None:
    page = client.get("/learn")
    assert page.status_code == 200 and "/static/lesson.js" in page.text
    assert 'href="/learn"' in client.get("/").text
