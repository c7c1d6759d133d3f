"""The ISMCTS bots: ``ismcts`` and the ``santase-ismcts`` baseline.

Small iteration budgets keep these fast; nothing here measures time.
"""

from __future__ import annotations

import random

import pytest

from helpers import deal, play
from sixtysix import Action, Card, Hand, Rules
from sixtysix.bots import make_bot
from sixtysix.bots.ismcts import ISMCTSBot, Worlds
from sixtysix.bots.rollout import outcome_value, playout, policy_code
from sixtysix.bots.santase_ismcts import SantaseISMCTSBot, fixed_action, should_close
from sixtysix.errors import ParseError
from sixtysix.game.actions import ACTIONS, DECLARE, DECLARE_MARRIAGE
from sixtysix.game.worlds import Constraints, count_layouts
from sixtysix.kernel import _pure
from sixtysix.kernel.tables import config
from sixtysix.play.runner import play_hand
from test_kernel_diff import compiled

RULE_SETS = {
    "classic": Rules(),
    "santase": Rules.preset("santase"),
    "table": Rules(enforce_follow=False),
    "schnapsen": Rules.preset("schnapsen"),
    "course": Rules.preset("course"),
    # Pending marriages with closing and declaring by hand.
    "next-trick": Rules.preset("schnapsen").replace(marriage_counts="next_trick", marriage_lead="king"),
}

# Positions found by exact search over every layout the view allows (stock 2):
# the action named is strictly best in every world, by 2 game points.
#: Seat 0 should close (C).
CLOSE_DECK = "KC JS AC 9H TS TC 9C JC KD TH TD QH AD AS AH QD KH QC JH JD 9D QS KS 9S"
CLOSE_ACTIONS = "9C TC D 9H AH D QD+ TD D QH+ JC D KH JS D"
#: Seat 0 should exchange the trump nine (X).
EXCHANGE_DECK = "QD QH 9S JH AS 9H TS KS JD QS JC 9D TD AD JS KC AC KD QC 9C TC AH KH TH"
EXCHANGE_ACTIONS = "9S AS D JC JS D KC AC D QD+ 9H D 9C TC D"


def position(deck: str, actions: str, rules: Rules | None = None) -> Hand:
    return play(Hand.deal(deck, 0, rules if rules is not None else Rules()), actions)


def decide(bot: object, hand: Hand) -> Action:
    seat = hand.to_act
    assert seat is not None
    view = hand.view(seat)
    action = bot.choose(view, view.legal)  # type: ignore[attr-defined]
    assert isinstance(action, Action)
    assert hand.is_legal(action)
    return action


def declaring_position(seed: int) -> Hand:
    """A hand in which the leader may declare and holds 66 or more counted points:
    played by the playout policy with its declarations held back."""
    rng = random.Random(seed)
    hand = Hand.random(seed=seed)
    while not hand.is_over():
        p = hand.to_act
        legal = hand.legal_mask()
        if legal >> DECLARE & 1 and hand.score(p) >= 66 and hand.state == "lead":  # type: ignore[arg-type]
            return hand
        code = policy_code(hand, rng)
        if code >= DECLARE:
            cards = [a for a in hand.legal_actions() if a.code < DECLARE and a.code != 49]
            code = cards[0].code
        hand.push_code(code)
    raise AssertionError("no declaring position")


# The playout policy ---------------------------------------------------------------
@pytest.mark.parametrize("rules", RULE_SETS.values(), ids=RULE_SETS.keys())
def test_playout_policy_is_legal_and_never_declares_falsely(rules: Rules) -> None:
    rng = random.Random(3)
    for seed in range(40):
        hand = Hand.random(seed=seed, rules=rules)
        while not hand.is_over():
            code = policy_code(hand, rng, 0.2)
            assert hand.legal_mask() >> code & 1
            if code >= DECLARE:
                p = hand.to_act
                assert p is not None
                extra = 0
                if code >= DECLARE_MARRIAGE:
                    extra = 40 if code - DECLARE_MARRIAGE == hand.trump else 20
                assert hand.score(p) + extra >= 66
            hand.push_code(code)
        result = hand.result()
        assert result is not None
        assert result.reason not in ("false_declaration", "revoke")


@pytest.mark.parametrize("rules", [*RULE_SETS.values(), Rules(close_before_draw=False)],
                         ids=[*RULE_SETS.keys(), "no-draw-state"])
def test_the_kernel_playout_takes_the_policys_actions(rules: Rules) -> None:
    """The kernel's playout loop takes, one by one, the actions its policy gives, and
    every one of them is legal: its history, pushed through the checked hand, ends in
    the same place; without random cards it is the policy asked step by step."""
    for seed in range(60):
        base = Hand.random(seed=seed, rules=rules)
        rng = random.Random(seed)
        for _ in range(rng.randrange(16)):
            codes = [a.code for a in base.legal_actions() if not a.is_declaration]
            if base.is_over() or not codes:
                break
            base.push_code(rng.choice(codes))
        if base.is_over():
            continue
        start = base.kernel.depth()
        for epsilon, stop, fair, close in [(0.0, -1, False, False), (0.3, -1, True, False),
                                           (0.2, 4, False, False), (0.1, 6, True, False),
                                           (0.0, -1, False, True), (0.1, 4, True, True)]:
            fast = base.copy()
            playout(fast, random.Random(seed), epsilon, stop_cards=stop, fair=fair, close=close)
            replayed = base.copy()
            for code, _ in fast.kernel.history()[start:]:
                replayed.push(ACTIONS[code])  # type: ignore[arg-type]
            assert replayed.key() == fast.key()
            assert fast.is_over() or (not fast.stock_open and len(fast.cards(fast.to_act)) <= stop)
            if epsilon == 0.0:
                stepped = base.copy()
                while not stepped.is_over() and not (
                        stop >= 0 and not stepped.stock_open and len(stepped.cards(stepped.to_act)) <= stop):
                    stepped.push(ACTIONS[policy_code(stepped, fair=fair, close=close)])  # type: ignore[arg-type]
                assert stepped.key() == fast.key()



def played(seed: int, rules: Rules) -> Hand:
    """A hand played on by the playout policy (marriages, exchanges, closes and all) to
    a position where a seat is to act."""
    rng = random.Random(seed)
    while True:
        hand = Hand.random(rules=rules, rng=rng)
        for _ in range(rng.randrange(0, 18)):
            if hand.is_over():
                break
            hand.push_code(policy_code(hand, rng))
        if not hand.is_over():
            return hand


@pytest.mark.parametrize("seed", range(60))
def test_the_fair_policy_reads_only_what_the_seat_to_act_can_see(seed: int) -> None:
    """The other seat's hand and the stock swapped around (a state the acting seat cannot
    tell from the real one): the playout policy judging fairly (what progressive bias asks)
    gives the acting seat the same answer in both kernels."""
    hand = played(seed, Rules.preset(("classic", "schnapsen", "santase", "course")[seed % 4]))
    rng = random.Random(seed)
    acting = hand.to_act
    assert acting is not None
    other = 1 - acting
    hidden = [c for c in range(24) if hand.kernel.hand(other) >> c & 1] + hand.kernel.stock_cards()[:-1]
    for impl in (compiled(), _pure):
        real = impl.State.deal([c.index for c in hand.deck], hand.dealer, config(hand.rules))
        for _, action in hand.view(acting).history:
            real.push(action.code)
        swapped = real.copy()
        shuffled = hidden[:]
        rng.shuffle(shuffled)
        n = hand.kernel.hand(other).bit_count()
        stock = [*shuffled[n:], *hand.kernel.stock_cards()[-1:]]
        swapped.deal_hidden(other, sum(1 << c for c in shuffled[:n]), stock[:len(hand.kernel.stock_cards())])
        assert real.policy_code(True) == swapped.policy_code(True)


def test_playout_plays_to_the_end_and_scores_for_seat_zero() -> None:
    hand = Hand.random(seed=11)
    playout(hand, random.Random(1))
    result = hand.result()
    assert result is not None
    value = outcome_value(hand)
    if result.winner is None:
        assert value == 0
    else:
        assert value == (result.game_points if result.winner == 0 else -result.game_points)


# Worlds -----------------------------------------------------------------------------
def test_worlds_agree_with_the_view() -> None:
    hand = Hand.random(seed=21)
    for _ in range(3):
        code = policy_code(hand, random.Random(0))
        hand.push_code(code)
    seat = hand.to_act
    assert seat is not None
    view = hand.view(seat)
    worlds = Worlds(view, random.Random(5))
    constraints = Constraints.from_view(view)
    for _ in range(20):
        world = worlds.world()
        assert world.view(seat) == view
        assert constraints.admits(world.cards(1 - seat), world.stock)


def test_worlds_enumerate_small_layout_counts() -> None:
    hand = position(CLOSE_DECK, CLOSE_ACTIONS)
    view = hand.view(0)
    n = count_layouts(view)
    worlds = Worlds(view, random.Random(1), enumerate_below=n)
    assert worlds.layouts is not None and len(worlds.layouts) == n
    seen = {worlds.layout()[0] for _ in range(n)}
    assert len(seen) == n  # a round robin deals every layout once


# Legality -----------------------------------------------------------------------------
@pytest.mark.parametrize("rules", RULE_SETS.values(), ids=RULE_SETS.keys())
@pytest.mark.parametrize("spec", ["ismcts:iterations=40", "santase-ismcts:iterations=40"])
def test_bots_always_play_legal_actions(spec: str, rules: Rules) -> None:
    for seed in range(2):
        hand = Hand.random(seed=seed, rules=rules)
        bots = [make_bot(spec, seed=seed), make_bot("random", seed=seed)]
        if seed:
            bots.reverse()
        play_hand(hand, bots)  # raises BotError on an illegal action
        assert hand.is_over()


def test_registry_options() -> None:
    bot = make_bot("ismcts:iterations=10,time=0.5,c=0.3", seed=1)
    assert isinstance(bot, ISMCTSBot)
    assert (bot.config.iterations, bot.config.time, bot.config.c) == (10, 0.5, 0.3)
    baseline = make_bot("santase-ismcts:time=0.1", seed=1)
    assert isinstance(baseline, SantaseISMCTSBot)
    assert baseline.config.c == 0.2 and baseline.config.time == 0.1 and baseline.config.cards_only
    with pytest.raises(ValueError, match="epsilon must be between 0 and 1"):
        ISMCTSBot(epsilon=1.5)
    with pytest.raises(ValueError):
        SantaseISMCTSBot(playout="clever")


def test_a_single_legal_action_is_returned_at_once() -> None:
    hand = Hand.random(seed=2)
    view = hand.view(hand.to_act)  # type: ignore[arg-type]
    only = view.legal[:1]
    bot = ISMCTSBot(seed=1, iterations=5)
    assert bot.choose(view, only) is only[0]
    assert bot.last_iterations == 0


# Determinism and hidden information ------------------------------------------------
@pytest.mark.parametrize("cls", [ISMCTSBot, SantaseISMCTSBot])
def test_same_seed_and_iterations_same_move(cls: type) -> None:
    for seed in (1, 4, 9):
        hand = Hand.random(seed=seed)
        rng = random.Random(seed)
        for _ in range(seed):
            hand.push_code(policy_code(hand, rng))
        moves = {decide(cls(seed=7, iterations=120), hand) for _ in range(2)}
        assert len(moves) == 1


def hidden_variant(deck: str, seed: int) -> str:
    """The deck with the cards hidden from the non-dealer (seat 1) moved around.

    Kept in place: the non-dealer's six cards, the turned-up trump, the
    dealer's first card and the first two cards of the stock.
    """
    cards = deck.split()
    keep = {0, 1, 2, 6, 7, 8, 12, 3, 13, 14}
    free = [i for i in range(24) if i not in keep]
    moved = [cards[i] for i in free]
    random.Random(seed).shuffle(moved)
    for i, card in zip(free, moved, strict=True):
        cards[i] = card
    return " ".join(cards)


@pytest.mark.parametrize("deal_seed", [1, 2, 5])
def test_decisions_depend_only_on_the_view(deal_seed: int) -> None:
    # Two deals that differ only in cards hidden from seat 1 (the dealer's hand
    # and the stock): the same public actions leave seat 1 the same view.
    deck_a = " ".join(str(c) for c in Hand.random(seed=deal_seed).deck)
    deck_b = hidden_variant(deck_a, deal_seed)
    hands = [Hand.deal(deck_a, 0), Hand.deal(deck_b, 0)]
    assert hands[0].cards(1) == hands[1].cards(1)
    assert hands[0].cards(0) != hands[1].cards(0)
    lead, answer = deck_a.split()[0], deck_a.split()[3]
    for hand in hands:
        play(hand, f"{lead} {answer}")
        if hand.state == "draw":
            play(hand, "D")
    views = [hand.view(1) for hand in hands]
    assert views[0] == views[1]
    assert hands[0].key() != hands[1].key()
    assert hands[0].to_act == 1  # the seeds are chosen so that seat 1 won the trick
    for cls in (ISMCTSBot, SantaseISMCTSBot):
        moves = [decide(cls(seed=3, iterations=150), hand) for hand in hands]
        assert moves[0] == moves[1]


# Declaring -------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_declares_a_correct_66(seed: int) -> None:
    hand = declaring_position(seed)
    action = decide(ISMCTSBot(seed=seed, iterations=300), hand)
    assert action.is_declaration
    hand.push(action)
    result = hand.result()
    assert result is not None and result.reason == "declared"


def test_never_declares_falsely() -> None:
    # After winning the first trick with few points the leader may declare, falsely.
    hand = Hand.random(seed=5)
    rng = random.Random(0)
    while not (hand.state == "lead" and hand.legal_mask() >> DECLARE & 1):
        hand.push_code(policy_code(hand, rng))
    assert hand.score(hand.to_act) < 66  # type: ignore[arg-type]
    for cls in (ISMCTSBot, SantaseISMCTSBot):
        assert not decide(cls(seed=2, iterations=200), hand).is_declaration


# Closing and the exchange by search ----------------------------------------------------
def test_finds_the_winning_close() -> None:
    hand = position(CLOSE_DECK, CLOSE_ACTIONS)
    assert hand.to_act == 0 and hand.stock_size == 2
    assert str(decide(ISMCTSBot(seed=1, iterations=600), hand)) == "C"


def test_finds_the_winning_exchange() -> None:
    hand = position(EXCHANGE_DECK, EXCHANGE_ACTIONS)
    assert hand.to_act == 0 and hand.stock_size == 2
    assert str(decide(ISMCTSBot(seed=1, iterations=600), hand)) == "X"


def test_solves_an_exhausted_stock_exactly() -> None:
    from sixtysix.search.solver import solve

    rng = random.Random(4)
    checked = 0
    for seed in range(30):
        hand = Hand.random(seed=seed)
        while not hand.is_over() and (hand.stock_open or hand.state != "lead"):
            hand.push_code(policy_code(hand, rng))
        if hand.is_over() or len(hand.legal_actions()) < 2:
            continue
        action = decide(ISMCTSBot(seed=1, iterations=50), hand)
        assert action in solve(hand).best
        checked += 1
    assert checked >= 5


# The santase baseline's fixed rules ------------------------------------------------------
def test_baseline_exchanges_whenever_it_may() -> None:
    hand = position(EXCHANGE_DECK, EXCHANGE_ACTIONS)
    assert str(decide(SantaseISMCTSBot(seed=1, iterations=20), hand)) == "X"


def test_baseline_declares_at_66() -> None:
    hand = declaring_position(0)
    action = decide(SantaseISMCTSBot(seed=1, iterations=20), hand)
    assert action.is_declaration


def test_baseline_always_draws_before_closing() -> None:
    hand = Hand.random(seed=3)
    rng = random.Random(1)
    while hand.state != "draw":
        hand.push_code(policy_code(hand, rng))
    assert str(decide(SantaseISMCTSBot(seed=1, iterations=20), hand)) == "D"


def test_baseline_close_rule() -> None:
    # Seat 1 (non-dealer) holds five trumps (spades): the rule closes at the first lead.
    hand = deal("AS TS KS QS JS 9H", "AC TC KC QC JC 9C", "9S")
    assert should_close(hand)
    assert str(decide(SantaseISMCTSBot(seed=1, iterations=20), hand)) == "C"
    # Four trumps without the marriage and nothing counted: no close.
    hand = deal("AS TS KS JS 9H 9D", "AC TC KC QC JC 9C", "9S")
    assert not should_close(hand)
    assert fixed_action(hand) == -1
    # Four trumps with the marriage, the trump ace in hand: close.
    hand = deal("AS KS QS JS 9H 9D", "AC TC KC QC JC 9C", "9S")
    assert should_close(hand)


def test_baseline_announces_marriages_it_leads() -> None:
    hand = deal("KH QH 9C 9D JD JC", "AC TC KC QC AD TD", "9S")
    card = Card.parse("KH")
    bot = SantaseISMCTSBot(seed=1, iterations=200)
    action = decide(bot, hand)
    if action.card in (card, Card.parse("QH")):
        assert action.kind.value == "marriage"


# Root parallelism -------------------------------------------------------------------

def test_workers_add_the_helpers_visits_and_stay_deterministic() -> None:
    hand = Hand.random(seed=4)
    view = hand.view(hand.to_act)  # type: ignore[arg-type]
    bots = [ISMCTSBot(seed=3, iterations=300, workers=2) for _ in range(2)]
    try:
        choices = [bot.choose(view, view.legal) for bot in bots]
        assert choices[0] == choices[1]
        pool = bots[0]._helpers()
        assert pool is not None and len(pool) == 1
        pool.start(view)
        own = bots[0].root_stats(view)
        (helper,) = pool.collect()
        # Each process ran its whole iteration budget on the same root actions.
        assert sum(entry[0] for entry in own.values()) == 300
        assert sum(entry[0] for entry in helper.values()) == 300
        assert set(helper) <= {a.code for a in view.legal}
    finally:
        for bot in bots:
            bot.close()


def test_a_dead_helper_leaves_the_bot_searching_alone() -> None:
    hand = Hand.random(seed=5)
    view = hand.view(hand.to_act)  # type: ignore[arg-type]
    bot = ISMCTSBot(seed=1, iterations=200, workers=2)
    try:
        bot.choose(view, view.legal)
        pool = bot._helpers()
        assert pool is not None
        for process in pool._processes:
            process.kill()
            process.wait()
        assert bot.choose(view, view.legal) in view.legal
        assert len(pool) == 0
    finally:
        bot.close()


def test_run_off_counts_top_trumps_then_plain_tops_once_his_trumps_are_gone() -> None:
    from sixtysix.kernel._pure_search import CLOSE_SLACK as _CLOSE_SLACK
    from sixtysix.kernel._pure_search import run_off as _run_off

    def mask(*cards: str) -> int:
        return sum(Card.parse(c).mask for c in cards)

    clubs = 0  # trump suit index of clubs
    # AC TC beat his KC 9C and draw both; then AH is above his TH: three tricks.
    assert _run_off(mask("AC", "TC", "AH"), mask("KC", "9C", "TH"), clubs) == 11 + 10 + 11 + 3 * _CLOSE_SLACK
    # With a third trump (JC) left to him after two rounds, AH can be trumped: only the trumps count.
    assert _run_off(mask("AC", "TC", "AH"), mask("KC", "9C", "JC", "TH"), clubs) == 21 + 2 * _CLOSE_SLACK
    # A trump below his best wins nothing.
    assert _run_off(mask("QC"), mask("KC"), clubs) == 0


def test_closing_playouts_close_and_are_scored_as_closed() -> None:
    closed = 0
    for seed in range(200):
        hand = Hand.random(seed=seed)
        playout(hand, random.Random(seed), close=True)
        result = hand.result()
        assert result is not None
        if result.closed_by is not None:
            closed += 1
            assert result.reason in ("closed_succeeded", "closed_failed")
    assert closed > 0
    for seed in range(50):
        hand = Hand.random(seed=seed)
        playout(hand, random.Random(seed))
        assert hand.result().closed_by is None  # type: ignore[union-attr]


# Heuristic knowledge in the search ------------------------------------------------------

@pytest.mark.parametrize("seed", range(6))
def test_bias_expands_the_policys_action_first(seed: int) -> None:
    # With ``bias`` the first child of the root is the playout policy's action in the
    # first world, judged fairly (the policy sees only what the player to act sees).
    hand = Hand.random(seed=seed)
    view = hand.view(hand.to_act)  # type: ignore[arg-type]
    bot = ISMCTSBot(seed=2, iterations=1, bias=1.0)
    root = bot.search(bot._prepare(view), view.seat)
    assert root.prior in {a.code for a in view.legal}
    assert list(root.children) == [root.prior]


def test_without_bias_no_prior_is_computed() -> None:
    hand = Hand.random(seed=3)
    view = hand.view(hand.to_act)  # type: ignore[arg-type]
    bot = ISMCTSBot(seed=2, iterations=50)
    root = bot.search(bot._prepare(view), view.seat)
    assert root.prior == -2


def test_bias_is_an_option_and_removed_options_are_refused() -> None:
    bot = make_bot("ismcts:iterations=20,bias=2.0", seed=1)
    assert isinstance(bot, ISMCTSBot) and bot.config.bias == 2.0
    for removed in ("anchor=heuristic", "gate=1.5", "closes=true", "fair=true", "closed=tree",
                    "solve_cards=3", "pimc_below=10", "net_infer=1", "net_value=1", "net_tree=2",
                    "infer=1", "infer_model=net", "infer_epsilon=0.2", "infer_mix=0.3", "infer_pool=8",
                    "infer_draws=8", "endgame=alphamu"):
        with pytest.raises(ParseError, match="the search has no option"):
            make_bot(f"ismcts:iterations=20,{removed}")


@pytest.mark.parametrize("rules", [Rules.preset("course"),
                                   Rules.preset("schnapsen").replace(auto_declare=True),
                                   Rules.preset("santase").replace(close_before_draw=False),
                                   Rules(auto_declare=True, close_before_draw=False)],
                         ids=["course", "schnapsen-auto", "santase-draw-at-once", "classic-auto"])
def test_the_kernel_random_playout_is_the_random_player_step_by_step(rules: Rules) -> None:
    """The kernel's random playout makes the choices of a random player stepping through
    the checked hand with the same random numbers (the k-th legal action, k uniform)."""
    from sixtysix.bots.rollout import random_playout
    from sixtysix.kernel import Rng

    endings = set()
    for seed in range(300):
        base = Hand.random(seed=seed, rules=rules, dealer=seed % 2)
        rng = random.Random(seed)
        for _ in range(rng.randrange(14)):
            if base.is_over():
                break
            base.push(rng.choice(base.legal_actions()))
        if base.is_over():
            continue
        fast, slow = base.copy(), base.copy()
        seed64 = random.Random(seed).getrandbits(64)
        random_playout(fast, random.Random(seed))
        numbers = Rng(seed64)
        while not slow.is_over():
            legal = slow.legal_actions()
            slow.push(sorted(legal, key=lambda a: a.code)[numbers.below(len(legal))])
        assert fast.is_over()
        assert fast.result() == slow.result()
        assert fast.key() == slow.key()
        endings.add(fast.result().reason)  # type: ignore[union-attr]
    assert {"declared", "played_out"} <= endings


