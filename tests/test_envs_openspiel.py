"""The OpenSpiel game python_sixty_six (sixtysix.envs.openspiel)."""

from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from helpers import need_module

np = need_module("numpy", "the openspiel extra")
pyspiel = need_module("pyspiel", "the openspiel extra")

from open_spiel.python import rl_environment  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts, outcome_sampling_mccfr  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402

from sixtysix import CARDS, Action, Card, Hand, Rank, Rules, Suit  # noqa: E402
from sixtysix.envs.observation import OBSERVATION_SIZE, block, encode  # noqa: E402
from sixtysix.envs.openspiel import (  # noqa: E402
    GAME_NAME,
    INFO_STATE_LAYOUT,
    MAX_GAME_LENGTH,
    SixtySixState,
    info_state_layout,
    max_game_length,
)
from sixtysix.errors import IllegalActionError, ParseError  # noqa: E402
from sixtysix.game.cards import pack  # noqa: E402
from sixtysix.game.worlds import shown_cards  # noqa: E402

RULE_SETS = ["classic", "pagat", "santase", "classic;close_before_draw:false",
             "classic;auto_declare:true", "pagat;enforce_follow:false;marriages_in_phase2:true"]


def load(rules: str = "classic", dealer: int = 0) -> Any:
    return pyspiel.load_game(GAME_NAME, {"rules": rules, "dealer": dealer})


def deal(game: Any, deck: list[int]) -> SixtySixState:
    state: SixtySixState = game.new_initial_state()
    for code in deck:
        assert state.is_chance_node()
        state.apply_action(code)
    return state


def random_deck(rng: random.Random) -> list[int]:
    deck = list(range(24))
    rng.shuffle(deck)
    return deck


def walk(game: Any, rng: random.Random, deck: list[int] | None = None) -> list[SixtySixState]:
    """A random hand (uniform chance, uniform legal actions): every state from the first
    decision. ``deck`` is the deal (default: a shuffled 24-card pack)."""
    state = deal(game, random_deck(rng) if deck is None else deck)
    states = [state.clone()]
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
        states.append(state.clone())
    return states


# OpenSpiel's own checks ------------------------------------------------------------------------
@pytest.mark.parametrize("rules", RULE_SETS)
def test_passes_openspiel_random_simulation_test(rules: str) -> None:
    pyspiel.random_sim_test(load(rules, dealer=1), num_sims=25, serialize=True, verbose=False)


def test_game_type_and_info() -> None:
    game = load()
    kind = game.get_type()
    assert kind.short_name == GAME_NAME and GAME_NAME in pyspiel.registered_names()
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert (game.num_distinct_actions(), game.max_chance_outcomes(), game.num_players()) == (56, 24, 2)
    assert (game.min_utility(), game.max_utility()) == (-3.0, 3.0)
    assert game.max_game_length() == MAX_GAME_LENGTH
    assert game.max_chance_nodes_in_history() == 24
    assert game.observation_tensor_shape() == [OBSERVATION_SIZE]
    extra = sum(int(np.prod(shape)) for _, shape, _ in INFO_STATE_LAYOUT)
    assert game.information_state_tensor_shape() == [OBSERVATION_SIZE + extra]


def test_the_documented_information_state_layout_is_the_tensors() -> None:
    doc = (Path(__file__).parent.parent / "docs" / "rl.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(\w+)` \| \(([\d, ]+)\) \| (\d+)–(\d+) \| (.+) \|$", doc, flags=re.MULTILINE)
    start = OBSERVATION_SIZE
    expected = []
    for name, shape, meaning in INFO_STATE_LAYOUT:
        size = int(np.prod(shape))
        expected.append((name, ", ".join(map(str, shape)), str(start), str(start + size - 1), meaning))
        start += size
    assert [(n, s.rstrip(","), a, b, m) for n, s, a, b, m in rows] == expected
    assert load().information_state_tensor_shape() == [start]


# Parameters --------------------------------------------------------------------------------------
def test_parameters_rules_and_dealer() -> None:
    game = pyspiel.load_game(GAME_NAME, {"rules": "santase,target=9", "dealer": 1})
    assert game.rules == Rules.parse("santase,target=9") and game.dealer == 1
    # The game writes itself in a form that OpenSpiel reads back.
    assert str(game) == "python_sixty_six(dealer=1,rules=santase;target:9)"
    again = pyspiel.load_game(str(game))
    assert again.rules == game.rules and again.dealer == 1
    assert pyspiel.load_game("python_sixty_six(rules=pagat)").rules == Rules.preset("pagat")
    assert load().rules == Rules.preset("classic") and load().dealer == 0


@pytest.mark.parametrize("params, error", [
    ({"rules": "nonsense"}, ParseError),
    ({"rules": "classic,target=x"}, ParseError),
    ({"dealer": 2}, ValueError),
    ({"rules": "classic;deck:22"}, ParseError),  # 24 or 20 cards (S1.1)
    ({"colour": "red"}, pyspiel.SpielError),
])
def test_bad_parameters_are_refused_clearly(params: dict[str, Any], error: type[Exception]) -> None:
    with pytest.raises(error):
        pyspiel.load_game(GAME_NAME, params)


# The deal ----------------------------------------------------------------------------------------
def test_chance_deals_the_pack_top_first_uniformly() -> None:
    game = load(dealer=1)
    state = game.new_initial_state()
    dealt: list[int] = []
    rng = random.Random(5)
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert sorted(code for code, _ in outcomes) == [c for c in range(24) if c not in dealt]
        assert sum(p for _, p in outcomes) == pytest.approx(1.0)
        assert len({p for _, p in outcomes}) == 1
        code = rng.choice(outcomes)[0]
        state.apply_action(code)
        dealt.append(code)
    # R2.4: the hand is the engine's deal of that pack, top first.
    hand = Hand.deal([CARDS[c] for c in dealt], 1, Rules.preset("classic"))
    assert state.hand is not None and state.hand.key() == hand.key()
    assert state.current_player() == 0  # the non-dealer leads (R3.1)


def test_dealing_a_card_twice_is_refused() -> None:
    state = load().new_initial_state()
    state.apply_action(5)
    with pytest.raises(ValueError, match="cannot deal"):
        state.apply_action(5)


# Play: the engine's rules, the engine's results ---------------------------------------------------
@pytest.mark.parametrize("rules", RULE_SETS)
def test_legal_actions_and_returns_are_the_engines(rules: str) -> None:
    rng = random.Random(11)
    game = load(rules)
    for dealer in (0, 1):
        game = load(rules, dealer)
        for _ in range(15):
            deck = random_deck(rng)
            state = deal(game, deck)
            hand = Hand.deal([CARDS[c] for c in deck], dealer, Rules.parse(rules.replace(";", ",")
                                                                              .replace(":", "=")))
            while not hand.is_over():
                assert state.current_player() == hand.to_act
                assert state.legal_actions() == sorted(a.code for a in hand.legal_actions())
                action = rng.choice(hand.legal_actions())
                assert state.action_to_string(state.current_player(), action.code) == str(action)
                state.apply_action(action.code)
                hand.push(action)
            assert state.is_terminal()
            result = hand.result()
            assert result is not None
            expected = [0.0, 0.0] if result.winner is None else [
                float(result.game_points if seat == result.winner else -result.game_points)
                for seat in (0, 1)]
            assert state.returns() == expected
            assert len(state.history()) - 24 <= MAX_GAME_LENGTH


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    game = load()
    state = deal(game, list(range(24)))
    before = str(state)
    illegal = next(c for c in range(56) if c not in state.legal_actions())
    with pytest.raises((IllegalActionError, ValueError)):
        state.apply_action(illegal)
    assert str(state) == before


def test_serialization_and_clone_round_trip() -> None:
    game = load("santase", 1)
    rng = random.Random(2)
    for state in walk(game, rng)[::4]:
        text = pyspiel.serialize_game_and_state(game, state)
        game2, state2 = pyspiel.deserialize_game_and_state(text)
        assert str(state2) == str(state) and state2.history() == state.history()
        assert game2.rules == game.rules
        clone = state.clone()
        if not clone.is_terminal():
            clone.apply_action(clone.legal_actions()[0])
            assert str(clone) != str(state)  # the clone is independent


# Observations and hidden information ----------------------------------------------------------
def test_observation_tensor_is_the_shared_encoding() -> None:
    rng = random.Random(4)
    for state in walk(load(), rng):
        for seat in (0, 1):
            view = state.view(seat)
            obs = np.asarray(state.observation_tensor(seat), dtype=np.float32)
            assert np.array_equal(obs, encode(view))
            info = np.asarray(state.information_state_tensor(seat), dtype=np.float32)
            assert np.array_equal(info[:OBSERVATION_SIZE], encode(view))
            # The history block records every action with who took it.
            history = info[-MAX_GAME_LENGTH * 58:].reshape(MAX_GAME_LENGTH, 58)
            assert history.sum() == 2 * len(view.history)
            for i, (actor, action) in enumerate(view.history):
                assert history[i, action.code] == 1 and history[i, 56 + (actor != seat)] == 1


def test_the_deal_is_observed_card_by_card() -> None:
    game = load(dealer=0)
    state = game.new_initial_state()
    for code in range(13):
        state.apply_action(code)
    # Seat 1 (non-dealer) got positions 0-2 and 6-8; the trump (position 12) is turned up.
    # Card codes run 9 J Q K 10 A within clubs, diamonds, hearts, spades.
    assert "dealt to me so far: 9C JC QC 9D JD QD" in state.information_state_string(1)
    assert "dealt to me so far: KC TC AC KD TD AD" in state.information_state_string(0)
    assert "turned up: 9H" in state.observation_string(0)
    mine = np.asarray(state.observation_tensor(1))
    assert list(np.flatnonzero(mine[:24])) == [0, 1, 2, 6, 7, 8]


def _swap_hidden(deck: list[int], dealer: int, seat: int) -> list[int]:
    """The same pack with one card of ``seat``'s opponent swapped with one deep in the stock."""
    opponent_positions = (3, 4, 5, 9, 10, 11) if 1 - seat == dealer else (0, 1, 2, 6, 7, 8)
    other = deck[:]
    position = opponent_positions[-1]
    other[position], other[23] = other[23], other[position]
    return other


@pytest.mark.parametrize("seat", [0, 1])
def test_cards_hidden_from_a_seat_do_not_change_what_it_observes(seat: int) -> None:
    game = load(dealer=1)
    rng = random.Random(8)
    deck = random_deck(rng)
    a, b = deal(game, deck), deal(game, _swap_hidden(deck, 1, seat))
    info = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    for state in (a, b):
        assert not state.is_terminal()
    assert a.information_state_string(seat) == b.information_state_string(seat)
    assert a.observation_string(seat) == b.observation_string(seat)
    assert a.information_state_tensor(seat) == b.information_state_tensor(seat)
    assert a.observation_tensor(seat) == b.observation_tensor(seat)
    info.set_from(a, seat)
    tensor = info.tensor.copy()
    info.set_from(b, seat)
    assert np.array_equal(tensor, info.tensor)
    # The other seat holds the swapped card: it sees the difference.
    assert a.information_state_string(1 - seat) != b.information_state_string(1 - seat)
    assert a.observation_tensor(1 - seat) != b.observation_tensor(1 - seat)


@pytest.mark.parametrize("seat", [0, 1])
@pytest.mark.parametrize("seed", range(6))
def test_hidden_cards_stay_hidden_through_the_hand(seat: int, seed: int) -> None:
    """Two packs that differ in one card the opponent keeps in hand and one deep in the stock:
    the same actions give ``seat`` the same information state all the way (docs/design.md §6)."""
    game = load(rules="classic", dealer=seed % 2)
    rng = random.Random(seed)
    deck = random_deck(rng)
    other = _swap_hidden(deck, seed % 2, seat)
    kept = other[23]  # the opponent's card in the first pack, deep in the stock in the second
    a, b = deal(game, deck), deal(game, other)
    steps = 0
    while not a.is_terminal() and a.hand is not None and a.hand.stock_size > 2:
        for observe in ("information_state_string", "information_state_tensor",
                        "observation_string", "observation_tensor"):
            assert getattr(a, observe)(seat) == getattr(b, observe)(seat), (observe, steps)
        both = sorted(set(a.legal_actions()) & set(b.legal_actions()) - {kept, kept + 24})
        if not both:
            break
        # Mostly cards and draws, so that the walk goes deep into the hand.
        quiet = [code for code in both if code < 48 or code == 50]
        action = rng.choice(quiet if quiet and rng.random() < 0.95 else both)
        a.apply_action(action)
        b.apply_action(action)
        steps += 1
    assert steps >= 6
    assert a.hand is not None and b.hand is not None
    assert a.hand.cards(1 - seat) != b.hand.cards(1 - seat)


def test_public_observer_hides_the_seats_own_cards() -> None:
    game = load()
    public = make_observation(game, pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE))
    private = make_observation(game, pyspiel.IIGObservationType(
        perfect_recall=False, public_info=False, private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER))
    assert "my_hand" not in public.dict and "trump_suit" in public.dict
    assert set(private.dict) == {"my_hand", "unseen"}
    rng = random.Random(3)
    deck = random_deck(rng)
    other = deck[:12] + deck[13:]
    rng.shuffle(other)
    other.insert(12, deck[12])  # the same turned-up trump, every other card elsewhere
    a, b = deal(game, deck), deal(game, other)
    for seat in (0, 1):
        assert "hand:" not in public.string_from(a, seat)
        assert public.string_from(a, seat) == public.string_from(b, seat)
        public.set_from(a, seat)
        first = public.tensor.copy()
        public.set_from(b, seat)
        assert np.array_equal(first, public.tensor)
        private.set_from(a, seat)
        first = private.tensor.copy()
        private.set_from(b, seat)
        assert not np.array_equal(first, private.tensor)
    with pytest.raises(ValueError, match="hidden cards"):
        make_observation(game, pyspiel.IIGObservationType(
            perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS))


# resample_from_infostate --------------------------------------------------------------------
def check_resampling(states: list[SixtySixState], rng: random.Random, dealt: int) -> tuple[int, int]:
    """Resample every state of a hand for both seats and check that each seat's
    information (``dealt`` chance nodes dealt the pack) is kept; returns how many
    states were checked and in how many the hidden cards changed."""
    hidden_changed = checked = 0
    for state in states:
        if state.is_terminal():
            continue
        for seat in (0, 1):
            other = state.resample_from_infostate(seat, rng.random)
            assert other.information_state_string(seat) == state.information_state_string(seat)
            assert other.information_state_tensor(seat) == state.information_state_tensor(seat)
            assert other.observation_string(seat) == state.observation_string(seat)
            assert other.observation_tensor(seat) == state.observation_tensor(seat)
            assert other.history()[dealt:] == state.history()[dealt:]
            assert other.legal_actions() == state.legal_actions() or state.current_player() != seat
            assert other.hand is not None and state.hand is not None
            assert other.hand.cards(seat) == state.hand.cards(seat)
            assert other.hand.dealt_trump_card == state.hand.dealt_trump_card
            hidden_changed += other.hand.cards(1 - seat) != state.hand.cards(1 - seat)
            checked += 1
            # The resampled state is a real state: it plays on to the end.
            while not other.is_terminal():
                other.apply_action(rng.choice(other.legal_actions()))
    return checked, hidden_changed


@pytest.mark.parametrize("rules", RULE_SETS)
def test_resampled_states_agree_with_the_information_state(rules: str) -> None:
    rng = random.Random(21)
    game = load(rules, dealer=0)
    hidden_changed = 0
    checked = 0
    for _ in range(6):
        n, changed = check_resampling(walk(game, rng), rng, 24)
        checked += n
        hidden_changed += changed
    assert hidden_changed > checked // 2


def test_resampling_the_opponents_hand_is_uniform_at_the_first_lead() -> None:
    game = load()
    rng = random.Random(33)
    state = deal(game, random_deck(rng))
    seat = state.current_player()
    assert state.hand is not None
    unseen = state.view(seat).unseen()
    counts: Counter[Any] = Counter()
    n = 600
    for _ in range(n):
        other = state.resample_from_infostate(seat, rng.random)
        assert other.hand is not None
        counts.update(other.hand.cards(1 - seat))
    # Six of the 17 unseen cards are in the opponent's hand: about 212 each of 600.
    assert set(counts) == set(unseen)
    assert all(140 < counts[card] < 290 for card in unseen), counts


def test_resampling_during_the_deal_keeps_what_the_seat_saw() -> None:
    game = load(dealer=1)
    rng = random.Random(6)
    state = game.new_initial_state()
    for code in random_deck(rng)[:15]:
        state.apply_action(code)
    seen = set()
    for _ in range(20):
        other = state.resample_from_infostate(0, rng.random)
        assert other.information_state_string(0) == state.information_state_string(0)
        assert len(other.history()) == 15
        seen.add(tuple(other.history()))
    assert len(seen) > 1


# Algorithms --------------------------------------------------------------------------------------
def _ismcts_against_random(hands: int, simulations: int, seed: int) -> tuple[float, float]:
    """ISMCTS (random rollouts) against uniform random legal actions, seats alternating."""
    game = load()
    rng = random.Random(seed)
    totals = [0.0, 0.0]
    for h in range(hands):
        seat = h % 2
        bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed + h)),
                               uct_c=2.0, max_simulations=simulations,
                               random_state=np.random.RandomState(seed + h))
        bot.set_resampler(lambda state, player: state.resample_from_infostate(player, rng.random))
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            elif state.current_player() == seat:
                action = bot.step(state)
                assert action in state.legal_actions()
                state.apply_action(action)
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        returns = state.returns()
        assert returns[0] + returns[1] == 0
        totals[0] += returns[seat]
        totals[1] += returns[1 - seat]
    return totals[0], totals[1]


@pytest.mark.slow
def test_openspiel_ismcts_plays_whole_hands_and_beats_random() -> None:
    mine, theirs = _ismcts_against_random(hands=6, simulations=60, seed=1)
    # A sanity check of strength with a fixed seed: uniform random play declares 66 falsely
    # and throws away aces; a search with 60 simulations should come out well ahead.
    assert mine - theirs >= 6, (mine, theirs)


def test_openspiel_rl_environment_runs_episodes() -> None:
    sampler = rl_environment.ChanceEventSampler(seed=3)
    env = rl_environment.Environment(GAME_NAME, chance_event_sampler=sampler, rules="santase", dealer=1)
    size = load("santase", 1).information_state_tensor_shape()[0]
    assert env.observation_spec()["info_state"] == (size,)
    assert env.action_spec()["num_actions"] == 56
    rng = random.Random(4)
    for _ in range(5):
        step = env.reset()
        while not step.last():
            player = step.observations["current_player"]
            legal = step.observations["legal_actions"][player]
            assert legal == env.get_state.legal_actions()
            state = env.get_state
            assert list(step.observations["info_state"][player]) == state.information_state_tensor(player)
            step = env.step([rng.choice(legal)])
        assert sum(step.rewards) == 0 and step.rewards == env.get_state.returns()


def test_outcome_sampling_mccfr_runs() -> None:
    game = load()
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(30):
        solver.iteration()
    policy = solver.average_policy()
    state = deal(game, list(range(24)))
    probs = policy.action_probabilities(state)
    assert set(probs) == set(state.legal_actions())
    assert sum(probs.values()) == pytest.approx(1.0)


# The 20-card pack: the schnapsen preset ---------------------------------------------------------
SCHNAPSEN = Rules.preset("schnapsen")
SCHNAPSEN_RULE_SETS = ["schnapsen", "schnapsen;closing:false", "schnapsen;close_before_draw:true",
                       "classic;deck:20", "course"]
#: The codes of the 20 cards (S1.1: no nines, whose codes are 0, 6, 12 and 18).
PACK20 = [card.index for card in pack(20)]


def schnapsen_deck(rng: random.Random) -> list[int]:
    deck = PACK20[:]
    rng.shuffle(deck)
    return deck


def schnapsen_walk(game: Any, rng: random.Random) -> list[SixtySixState]:
    """:func:`walk` for a 20-card game."""
    return walk(game, rng, schnapsen_deck(rng))


def test_schnapsen_game_loads_with_the_rules_parameter() -> None:
    game = load("schnapsen", dealer=1)
    assert game.rules == SCHNAPSEN and game.rules.deck == 20 and game.dealer == 1
    assert str(game) == "python_sixty_six(dealer=1,rules=schnapsen)"
    assert pyspiel.load_game(str(game)).rules == SCHNAPSEN
    assert pyspiel.load_game("python_sixty_six(rules=schnapsen;target:11)").rules == \
        SCHNAPSEN.replace(target=11)
    # Actions and chance outcomes keep their codes; the hand is shorter (S2.2: 5 draws).
    assert (game.num_distinct_actions(), game.max_chance_outcomes()) == (56, 24)
    assert game.max_chance_nodes_in_history() == 20
    assert game.max_game_length() == max_game_length(SCHNAPSEN) == 20 + 5 + 3
    assert max_game_length(Rules.preset("classic")) == MAX_GAME_LENGTH
    layout = info_state_layout(SCHNAPSEN)
    assert [(name, shape) for name, shape, _ in layout] == [
        ("my_deal", (24,)), ("my_draws", (5, 24)), ("history", (28, 58))]
    assert layout[0][2] == "the five cards I was dealt (private)"
    extra = sum(int(np.prod(shape)) for _, shape, _ in layout)
    assert game.information_state_tensor_shape() == [OBSERVATION_SIZE + extra]
    assert game.observation_tensor_shape() == [OBSERVATION_SIZE]
    assert info_state_layout(Rules.preset("classic")) == INFO_STATE_LAYOUT


@pytest.mark.parametrize("rules", SCHNAPSEN_RULE_SETS)
@pytest.mark.parametrize("dealer", [0, 1])
def test_schnapsen_passes_openspiel_random_simulation_test(rules: str, dealer: int) -> None:
    pyspiel.random_sim_test(load(rules, dealer), num_sims=15, serialize=True, verbose=False)


def test_schnapsen_chance_deals_the_20_cards_top_first_uniformly() -> None:
    game = load("schnapsen", dealer=0)
    state = game.new_initial_state()
    dealt: list[int] = []
    rng = random.Random(7)
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert sorted(code for code, _ in outcomes) == [c for c in PACK20 if c not in dealt]
        assert all(p == pytest.approx(1 / (20 - len(dealt))) for _, p in outcomes)
        code = rng.choice(outcomes)[0]
        state.apply_action(code)
        dealt.append(code)
    assert len(dealt) == 20 and len(state.history()) == 20
    # S2.1: the hand is the engine's deal of that pack, top first; the non-dealer leads (S2.3).
    hand = Hand.deal([CARDS[c] for c in dealt], 0, SCHNAPSEN)
    assert state.hand is not None and state.hand.key() == hand.key()
    assert state.current_player() == 1
    assert len(state.hand.cards(0)) == len(state.hand.cards(1)) == 5
    assert state.hand.stock_size == 10


@pytest.mark.parametrize("nine", ["9C", "9H"])
def test_schnapsen_deals_no_nine(nine: str) -> None:
    state = load("schnapsen").new_initial_state()
    code = Card.parse(nine).index
    assert code not in [c for c, _ in state.chance_outcomes()]
    with pytest.raises(ValueError, match="20-card pack"):
        state.apply_action(code)
    assert state.history() == []


def test_schnapsen_deal_is_observed_card_by_card() -> None:
    """S2.1: three to each, the 7th card turned up, then two to each."""
    game = load("schnapsen", dealer=0)
    state = game.new_initial_state()
    for code in PACK20[:6]:
        state.apply_action(code)
    assert "turned up" not in state.observation_string(0)
    assert "dealt to me so far: JC QC KC" in state.information_state_string(1)
    assert "dealt to me so far: TC AC JD" in state.information_state_string(0)
    state.apply_action(PACK20[6])  # QD, trumps are diamonds
    assert "turned up: QD" in state.observation_string(0)
    assert list(np.flatnonzero(state.observation_tensor(1)[block("trump_suit")])) == [1]
    for code in PACK20[7:11]:
        state.apply_action(code)
    assert "dealt to me so far: JC QC KC KD TD" in state.information_state_string(1)
    assert "dealt to me so far: TC AC JD AD JH" in state.information_state_string(0)
    mine = np.asarray(state.observation_tensor(1))
    assert [str(CARDS[i]) for i in np.flatnonzero(mine[block("my_hand")])] == \
        ["JC", "QC", "KC", "KD", "TD"]
    for code in PACK20[11:]:
        state.apply_action(code)
    assert state.hand is not None
    assert state.hand.cards(1) == frozenset(Card.parse(c) for c in ("JC", "QC", "KC", "KD", "TD"))
    info = np.asarray(state.information_state_tensor(1))
    my_deal = info[OBSERVATION_SIZE:OBSERVATION_SIZE + 24]
    assert sorted(np.flatnonzero(my_deal)) == sorted(c.index for c in state.hand.cards(1))


@pytest.mark.parametrize("rules", SCHNAPSEN_RULE_SETS)
def test_schnapsen_legal_actions_and_returns_are_the_engines(rules: str) -> None:
    rng = random.Random(13)
    engine_rules = Rules.parse(rules.replace(";", ",").replace(":", "="))
    reasons: Counter[str] = Counter()
    for dealer in (0, 1):
        game = load(rules, dealer)
        for _ in range(15):
            deck = schnapsen_deck(rng)
            state = deal(game, deck)
            hand = Hand.deal([CARDS[c] for c in deck], dealer, engine_rules)
            while not hand.is_over():
                assert state.current_player() == hand.to_act
                assert state.legal_actions() == sorted(a.code for a in hand.legal_actions())
                action = rng.choice(hand.legal_actions())
                state.apply_action(action.code)
                hand.push(action)
            assert state.is_terminal()
            result = hand.result()
            assert result is not None
            reasons[result.reason] += 1
            expected = [0.0, 0.0] if result.winner is None else [
                float(result.game_points if seat == result.winner else -result.game_points)
                for seat in (0, 1)]
            assert state.returns() == expected
            assert len(state.history()) - 20 <= game.max_game_length()
    assert len(reasons) >= 2, reasons  # the returns were compared for more than one kind of ending


def test_schnapsen_returns_of_a_hand_played_out() -> None:
    """S6.3 (played_out=last_trick): a hand played to the end that nobody declared is won by
    whoever took the last trick, 1 game point, or as a declaration (S9) with 66."""
    rng = random.Random(3)
    game = load("schnapsen", dealer=1)
    points: Counter[int] = Counter()
    for _ in range(60):
        state = deal(game, schnapsen_deck(rng))
        while not state.is_terminal():
            cards_only = [a for a in state.legal_actions() if a < 48]  # never declare, close or exchange
            state.apply_action(rng.choice(cards_only or state.legal_actions()))
        hand = state.hand
        assert hand is not None
        result = hand.result()
        assert result is not None and result.reason == "played_out"
        winner = hand.view(0).tricks[-1].winner
        assert winner is not None
        loser = 1 - winner
        if hand.score(winner) < 66:
            expected = 1
        else:
            expected = 3 if hand.tricks_won(loser) == 0 else 2 if hand.score(loser) < 33 else 1
        assert state.returns()[winner] == expected and state.returns()[loser] == -expected
        points[expected] += 1
    # Mostly one game point, sometimes more: both kinds of ending are seen.
    assert points[1] > 0 and points[2] + points[3] > 0, points


def _info_block(game: Any, state: SixtySixState, seat: int, name: str) -> Any:
    """One block of ``seat``'s information-state tensor, in its shape."""
    info = np.asarray(state.information_state_tensor(seat))
    start = OBSERVATION_SIZE
    for block_name, shape, _ in info_state_layout(game.rules):
        size = int(np.prod(shape))
        if block_name == name:
            return info[start:start + size].reshape(shape)
        start += size
    raise KeyError(name)


@pytest.mark.slow
def test_schnapsen_draws_are_told_to_the_seat_that_drew_them() -> None:
    """The card a seat's information state says it drew is the card that came into its hand,
    including the trump jack taken by the last draw after an exchange (S4.1)."""
    rng = random.Random(17)
    game = load("schnapsen")
    jack_drawn = 0
    for _ in range(40):
        state = deal(game, schnapsen_deck(rng))
        hand = state.hand
        assert hand is not None
        while not state.is_terminal():
            before = [hand.cards(seat) for seat in (0, 1)]
            drawn = [int(_info_block(game, state, seat, "my_draws").sum()) for seat in (0, 1)]
            legal = state.legal_actions()
            actor = state.current_player()
            # Exchange whenever possible; never close or declare, so that the stock runs out.
            action = 48 if 48 in legal else rng.choice([a for a in legal if a < 48 or a == 50] or legal)
            state.apply_action(action)
            for seat in (0, 1):
                draws = _info_block(game, state, seat, "my_draws")
                came = hand.cards(seat) - before[seat]
                if draws.sum() == drawn[seat]:
                    # No draw: nothing came, but the turned-up trump to who exchanged (S4.1).
                    assert came == ({hand.dealt_trump_card} if action == 48 and seat == actor else set())
                    continue
                assert draws.sum() == drawn[seat] + 1
                told = CARDS[int(np.flatnonzero(draws[drawn[seat]])[0])]
                assert came == {told}
                if told == Card(hand.trump, Rank.JACK) and hand.stock_size == 0:
                    jack_drawn += 1
        assert hand.view(0).stock_size == 0  # five draws each (S2.2)
        for seat in (0, 1):
            assert _info_block(game, state, seat, "my_draws").sum() == 5
    assert jack_drawn > 0


def _swap_hidden20(deck: list[int], dealer: int, seat: int) -> list[int]:
    """The same 20-card pack with the opponent's last card swapped with the last card of the
    stock but the trump (position 19, drawn with it at the 5th trick, S2.1-S2.2)."""
    opponent_positions = (3, 4, 5, 9, 10) if 1 - seat == dealer else (0, 1, 2, 7, 8)
    other = deck[:]
    position = opponent_positions[-1]
    other[position], other[19] = other[19], other[position]
    return other


@pytest.mark.parametrize("seat", [0, 1])
@pytest.mark.parametrize("seed", range(4))
def test_schnapsen_hidden_cards_stay_hidden(seat: int, seed: int) -> None:
    game = load("schnapsen", dealer=seed % 2)
    rng = random.Random(seed)
    deck = schnapsen_deck(rng)
    other = _swap_hidden20(deck, seed % 2, seat)
    kept = other[19]  # the opponent's card in the first pack, deep in the stock in the second
    a, b = deal(game, deck), deal(game, other)
    steps = 0
    while not a.is_terminal() and a.hand is not None and a.hand.stock_size > 2:
        for observe in ("information_state_string", "information_state_tensor",
                        "observation_string", "observation_tensor"):
            assert getattr(a, observe)(seat) == getattr(b, observe)(seat), (observe, steps)
        both = sorted(set(a.legal_actions()) & set(b.legal_actions()) - {kept, kept + 24})
        quiet = [code for code in both if code < 48 or code == 50]
        if not quiet:
            break
        action = rng.choice(quiet)
        a.apply_action(action)
        b.apply_action(action)
        steps += 1
    assert steps >= 4
    assert a.hand is not None and b.hand is not None
    assert a.hand.cards(1 - seat) != b.hand.cards(1 - seat)
    assert a.information_state_string(1 - seat) != b.information_state_string(1 - seat)


@pytest.mark.parametrize("rules", ["schnapsen", "schnapsen;close_before_draw:true"])
def test_schnapsen_resampled_states_keep_the_seats_information(rules: str) -> None:
    rng = random.Random(23)
    game = load(rules, dealer=1)
    hidden_changed = 0
    checked = 0
    for _ in range(5):
        states = schnapsen_walk(game, rng)
        for state in states:
            if not state.is_terminal():
                for seat in (0, 1):
                    other = state.resample_from_infostate(seat, rng.random)
                    assert sorted(other.history()[:20]) == PACK20  # a 20-card deal, no nine
        n, changed = check_resampling(states, rng, 20)
        checked += n
        hidden_changed += changed
    assert checked > 50 and hidden_changed > checked // 2


def test_an_exchange_uses_the_packs_lowest_trump() -> None:
    """What resampling knows an exchanger held: the trump nine (R4.1), or jack (S4.1)."""
    hearts = Suit.HEARTS
    exchange, marriage = Action.parse("X"), Action.parse("KS+")
    assert exchange.code == 48 and marriage.code == Card.parse("KS").index + 24
    assert shown_cards(exchange, hearts, Rules.preset("classic")) == [Card.parse("9H")]
    assert shown_cards(exchange, hearts, SCHNAPSEN) == [Card.parse("JH")]
    assert shown_cards(marriage, hearts, SCHNAPSEN) == [Card.parse("KS"), Card.parse("QS")]


def test_schnapsen_resampling_is_uniform_at_the_first_lead() -> None:
    game = load("schnapsen")
    rng = random.Random(35)
    state = deal(game, schnapsen_deck(rng))
    seat = state.current_player()
    unseen = state.view(seat).unseen()
    assert len(unseen) == 14  # 20 less my five and the turned-up trump
    counts: Counter[Any] = Counter()
    n = 420
    for _ in range(n):
        other = state.resample_from_infostate(seat, rng.random)
        assert other.hand is not None
        counts.update(other.hand.cards(1 - seat))
    # Five of the 14 unseen cards are in the opponent's hand: 150 each of 420.
    assert set(counts) == set(unseen)
    assert all(100 < counts[card] < 200 for card in unseen), counts


def test_schnapsen_resampling_during_the_deal() -> None:
    game = load("schnapsen", dealer=0)
    rng = random.Random(9)
    deck = schnapsen_deck(rng)
    state = deal(game, deck[:12])
    seen = set()
    for _ in range(20):
        other = state.resample_from_infostate(1, rng.random)
        history = other.history()
        assert other.information_state_string(1) == state.information_state_string(1)
        # The non-dealer's cards (S2.1: positions 0-2, 7-8) and the trump (6) stay put.
        assert [history[p] for p in (0, 1, 2, 6, 7, 8)] == [deck[p] for p in (0, 1, 2, 6, 7, 8)]
        assert len(history) == 12 and set(history) <= set(PACK20)
        seen.add(tuple(history))
    assert len(seen) > 1


def test_schnapsen_openspiel_ismcts_and_rl_environment_run() -> None:
    game = load("schnapsen")
    rng = random.Random(5)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(5)),
                           uct_c=2.0, max_simulations=20, random_state=np.random.RandomState(5))
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, rng.random))
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        elif state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert len(state.history()) > 20 and sum(state.returns()) == 0 and state.returns()[0] != 0
    sampler = rl_environment.ChanceEventSampler(seed=1)
    env = rl_environment.Environment(GAME_NAME, chance_event_sampler=sampler, rules="schnapsen")
    assert env.observation_spec()["info_state"] == (game.information_state_tensor_shape()[0],)
    step = env.reset()
    while not step.last():
        player = step.observations["current_player"]
        step = env.step([rng.choice(step.observations["legal_actions"][player])])
    assert sum(step.rewards) == 0 and step.rewards == env.get_state.returns()
