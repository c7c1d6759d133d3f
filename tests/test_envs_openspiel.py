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

from sixtysix import CARDS, Hand, Rules  # noqa: E402
from sixtysix.envs.observation import OBSERVATION_SIZE, encode  # noqa: E402
from sixtysix.envs.openspiel import (  # noqa: E402
    GAME_NAME,
    INFO_STATE_LAYOUT,
    MAX_GAME_LENGTH,
    SixtySixState,
)
from sixtysix.errors import IllegalActionError, ParseError  # noqa: E402

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


def walk(game: Any, rng: random.Random) -> list[SixtySixState]:
    """A random hand (uniform chance, uniform legal actions): every state from the first decision."""
    state = deal(game, random_deck(rng))
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
    ({"rules": "schnapsen"}, ValueError),  # not yet: the 24-card pack only
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
    the same actions give ``seat`` the same information state all the way (DESIGN.md §5)."""
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
@pytest.mark.parametrize("rules", RULE_SETS)
def test_resampled_states_agree_with_the_information_state(rules: str) -> None:
    rng = random.Random(21)
    game = load(rules, dealer=0)
    hidden_changed = 0
    checked = 0
    for _ in range(6):
        for state in walk(game, rng):
            if state.is_terminal():
                continue
            for seat in (0, 1):
                other = state.resample_from_infostate(seat, rng.random)
                assert other.information_state_string(seat) == state.information_state_string(seat)
                assert other.information_state_tensor(seat) == state.information_state_tensor(seat)
                assert other.observation_string(seat) == state.observation_string(seat)
                assert other.history()[24:] == state.history()[24:]
                assert other.legal_actions() == state.legal_actions() or state.current_player() != seat
                assert other.hand is not None and state.hand is not None
                hidden_changed += other.hand.cards(1 - seat) != state.hand.cards(1 - seat)
                checked += 1
                # The resampled state is a real state: it plays on to the end.
                while not other.is_terminal():
                    other.apply_action(rng.choice(other.legal_actions()))
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
