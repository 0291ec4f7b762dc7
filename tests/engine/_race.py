"""Several racers on one deal, and checks of every spectator board against what
each racer still racing has seen of the deal at that moment.

The checks keep their own record of what each racer has seen, accumulated
move by move from the racer's states (how deep the stock and reserve have
ever been turned, the foundations as they stood before each redeal), apart
from `engine.seen`, which reads it off the current state alone.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from engine import (
    HIDDEN_CARD,
    Outcome,
    Rules,
    TrackedGame,
    View,
    find_variant,
    legal_moves,
    outcome,
    seen_by_all,
    spectator_view,
    view,
)
from engine._foundation import cards_on
from engine._origins import Layout
from engine.cards import format_card, parse_card
from engine.deal import shuffled_cards
from engine.state import EMPTY


@dataclass
class Racer:
    game: TrackedGame
    racing: bool = True
    stock_turned: int = 0
    reserve_turned: int = 0
    tops_before_redeal: list[tuple[int, ...]] = field(default_factory=list)
    """Foundation tops just before each redeal, first redeal first."""

    def __post_init__(self) -> None:
        self._note()

    def play(self, pick: int) -> bool:
        """Play the legal move ``pick`` points at; False when none is left."""
        legal = legal_moves(self.game.state)
        if not legal:
            self.racing = False
            return False
        move = legal[pick % len(legal)]
        if move.action == "redeal":
            self.tops_before_redeal.append(self.game.state.foundations)
        self.game = self.game.apply(move)
        self._note()
        if outcome(self.game.state) != Outcome.PLAYING:
            self.racing = False
        return True

    def _note(self) -> None:
        state, rules = self.game.state, find_variant(self.game.state.variant)
        stock_size = rules.total - Layout.of(rules).reserve_end
        self.stock_turned = max(self.stock_turned, stock_size - len(state.stock))
        reserve_up = rules.reserve - len(state.reserve) + (1 if state.reserve else 0)
        self.reserve_turned = max(self.reserve_turned, reserve_up)


@dataclass
class Race:
    variant: str
    seed: bytes
    racers: list[Racer]
    hidden_seen: Counter[str] = field(default_factory=Counter)
    """How many cards were hidden, by where they lay (so a run shows it checked something)."""

    @classmethod
    def start(cls, variant: str, seed: bytes, players: int) -> Race:
        racers = [Racer(TrackedGame.start(variant, seed)) for _ in range(players)]
        return cls(variant, seed, racers)

    def run(self, rng: random.Random, steps: int, quit_chance: float = 0.01) -> None:
        """Racers move in turn, the first ones more often; each check runs after every move."""
        weights = [len(self.racers) - i for i in range(len(self.racers))]
        for _ in range(steps):
            live = [i for i, racer in enumerate(self.racers) if racer.racing]
            if not live:
                return
            who = rng.choices(live, [weights[i] for i in live])[0]
            if rng.random() < quit_chance:
                self.racers[who].racing = False
            else:
                self.racers[who].play(rng.randrange(10_000))
            self.check()

    def check(self) -> None:
        known = seen_by_all(racer.game.state for racer in self.racers if racer.racing)
        for racer in self.racers:
            board = spectator_view(racer.game, known)
            check_counts_kept(board, view(racer.game.state))
            check_origins(self, racer.game)
            check_positions(self, racer, board)
            check_card_counts(self, board)
            check_redeals(self, racer, board)
            self.hidden_seen.update(_hidden_places(board))

    def common(self) -> tuple[int, int, int] | None:
        """Stock and reserve positions turned, and redeals made, by every racer still racing."""
        live = [racer for racer in self.racers if racer.racing]
        if not live:
            return None
        return (
            min(racer.stock_turned for racer in live),
            min(racer.reserve_turned for racer in live),
            min(len(racer.tops_before_redeal) for racer in live),
        )

    def public_positions(self) -> set[int] | None:
        """Positions of the first deal every racer still racing has seen."""
        common = self.common()
        if common is None:
            return None
        stock, reserve, _ = common
        layout = Layout.of(find_variant(self.variant))
        found = set(range(layout.face_up))
        found |= {layout.reserve_end - 1 - i for i in range(reserve)}
        found |= {layout.reserve_end + i for i in range(stock)}
        return found

    def deal(self) -> list[int]:
        rules = find_variant(self.variant)
        return shuffled_cards(self.seed, self.variant, "deal/0", rules.decks)


def check_counts_kept(board: View, full: View) -> None:
    """The masked board differs from the player's own only by hidden card texts."""
    assert len(board.tableau) == len(full.tableau)
    for masked, pile in zip(board.tableau, full.tableau, strict=True):
        _same_but_hidden(masked, pile)
    _same_but_hidden(board.waste, full.waste)
    _same_but_hidden(board.foundations, full.foundations)
    _same_but_hidden((board.reserve,), (full.reserve,))
    assert (board.stock, board.reserve_hidden, board.passes_left) == (
        full.stock,
        full.reserve_hidden,
        full.passes_left,
    )
    assert (board.progress, board.outcome, board.base_rank) == (
        full.progress,
        full.outcome,
        full.base_rank,
    )


def _same_but_hidden(masked: tuple[str | None, ...], true: tuple[str | None, ...]) -> None:
    assert len(masked) == len(true)
    for shown, card in zip(masked, true, strict=True):
        assert shown == card or (shown == HIDDEN_CARD and card is not None)


def check_origins(race: Race, game: TrackedGame) -> None:
    """Every card's recorded origin holds that very card, and every origin appears once."""
    rules, state, origins = find_variant(race.variant), game.state, game.origins
    deal = race.deal()
    places = [
        *zip(state.tableau, origins.tableau, strict=True),
        (state.stock, origins.stock),
        (state.waste, origins.waste),
        (state.reserve, origins.reserve),
    ]
    for index, top in enumerate(state.foundations):
        home = cards_on(rules, state.base_rank, index, top) if top != EMPTY else []
        places.append((tuple(home), origins.foundations[index]))
    everything: list[int] = []
    for cards, where in places:
        assert len(cards) == len(where)
        for card, origin in zip(cards, where, strict=True):
            if origin < rules.total:
                assert deal[origin] == card
        everything += where
    assert len(everything) == len(set(everything)) == rules.total


def check_positions(race: Race, racer: Racer, board: View) -> None:
    """A card is shown exactly when its place of origin is public (first deal only)."""
    public = race.public_positions()
    rules = find_variant(race.variant)
    origins = racer.game.origins
    pairs = [*zip(board.tableau, origins.tableau, strict=True), (board.waste, origins.waste)]
    if board.reserve is not None:
        pairs.append(((board.reserve,), origins.reserve[-1:]))
    for texts, where in pairs:
        for text, origin in zip(texts, where, strict=True):
            if origin < rules.total:
                assert (text != HIDDEN_CARD) == (public is None or origin in public)
    home = [origin for pile in origins.foundations for origin in pile]
    if all(origin < rules.total for origin in home):
        allowed = public is None or all(origin in public for origin in home)
        for top in board.foundations:
            assert top is None or (top != HIDDEN_CARD) == allowed


def check_card_counts(race: Race, board: View) -> None:
    """No card is shown more often than the public places of the deal hold it
    (foundation tops expanded); needs no record of where cards came from."""
    public = race.public_positions()
    if public is None:
        return
    deal = race.deal()
    allowed = Counter(deal[position] for position in public)
    shown = Counter(_shown_cards(find_variant(race.variant), board))
    assert not shown - allowed, f"shown without being public: {shown - allowed}"


def _shown_cards(rules: Rules, board: View) -> list[int]:
    texts = [text for pile in (*board.tableau, board.waste) for text in pile]
    if board.reserve is not None:
        texts.append(board.reserve)
    cards = [parse_card(text) for text in texts if text != HIDDEN_CARD]
    for index, top in enumerate(board.foundations):
        if top is not None and top != HIDDEN_CARD:
            cards += cards_on(rules, board.base_rank, index, parse_card(top))
    return cards


def check_redeals(race: Race, racer: Racer, board: View) -> None:
    """Little Billie: after a redeal none of the other racing players has made,
    no fan card is shown, nor any foundation once one has grown since."""
    common = race.common()
    made = len(racer.tops_before_redeal)
    if not find_variant(race.variant).redeals:
        return
    if common is None or made <= common[2]:
        assert board == view(racer.game.state)
        return
    assert all(text == HIDDEN_CARD for pile in board.tableau for text in pile)
    grown = racer.tops_before_redeal[common[2]] != racer.game.state.foundations
    for top, now in zip(board.foundations, racer.game.state.foundations, strict=True):
        expected = None if now == EMPTY else format_card(now)
        assert top == (HIDDEN_CARD if grown and expected else expected)


def _hidden_places(board: View) -> list[str]:
    places = ["tableau" for pile in board.tableau for text in pile if text == HIDDEN_CARD]
    places += ["waste" for text in board.waste if text == HIDDEN_CARD]
    places += ["foundation" for top in board.foundations if top == HIDDEN_CARD]
    places += ["reserve" for top in (board.reserve,) if top == HIDDEN_CARD]
    return places
