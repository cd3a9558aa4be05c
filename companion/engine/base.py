"""What every part of the rules shares: the attributes of `Rules` the mixins read, and their calls.

`Rules` (engine/core.py) is one class made of mixins, one module per concern (turns.py, money.py,
plots.py, ...). Each mixin derives from RulesBase, so the type checker knows the state every part
reads and the methods one part calls on another; at run time RulesBase holds no method, so the
order of the mixins never decides which method runs (each name is defined once). A part that
starts calling a method of another part declares it below with the same signature (mypy asks).
"""

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from companion.engine.board import MONEY_MAX

if TYPE_CHECKING:
    from companion.engine.board import Cell, Edition
    from companion.engine.state import Offer, State

# The largest number a command may carry: money amounts, bids, fees, share counts; the same
# bound as every amount in an edition file, so a slip of the finger (an extra 000) is refused.
MAX_AMOUNT = MONEY_MAX


class RulesBase:
    """The attributes Rules sets up (core.py) and the tables its parts read; declarations only."""

    edition: "Edition"
    opt: dict[str, Any]
    cells: "tuple[Cell, ...]"
    n_cells: int
    LANDINGS: dict[str, Callable[..., None]]
    COMMANDS: dict[str, str]
    ARITY: dict[str, tuple[int, int | None, str]]
    DICE_VERBS: dict[str, tuple[int, int]]
    DEBT_COMMANDS: set[str]
    WHO: dict[str, str]
    EFFECTS: dict[str, tuple[str, ...]]
    EFFECT_NUMBERS: dict[str, tuple[int, int]]
    EFFECT_OPTIONAL: dict[str, tuple[str, ...]]
    CELL_PARAMS: dict[str, dict[str, tuple[int, int]]]
    READS_SLOT: bool
    EXTRA_KEYS: tuple[str, ...]
    SYSTEM_ACCOUNTS: tuple[str, ...]
    PLOT_CHECK_READS: dict[str, tuple[str, ...]]
    LEGAL_READS: dict[str, tuple[str, ...]]
    BOARD_CACHE_SIZE: int
    BOARD_NEUTRAL_PENDINGS: frozenset[str]
    SHORT_SALE_NOTE: str

    if TYPE_CHECKING:
        # the methods one part calls on another (defined once, in the module named beside)
        def advance(self, s: State, p: str, steps: int) -> None: ...  # turns.py
        def affords(self, s: State, player: str, amount: int) -> bool: ...  # money.py
        def board_bucket(self, s: State) -> dict[Any, Any]: ...  # legality.py
        def charge(
            self, s: State, debtor: str, creditor: str, amount: int, reason: str, **params: Any
        ) -> None: ...  # money.py
        def check_afford(self, s: State, player: str, amount: int, what: str) -> None: ...  # money.py
        def check_not_under_hammer(self, s: State, cell: Cell) -> None: ...  # plots.py
        def dice_args(self, args: tuple[str, ...], count: int, usage: str) -> tuple[int, ...]: ...  # core.py
        def drawer(self, s: State, args: tuple[str, ...]) -> str | None: ...  # cards.py
        def int_arg(self, text: str, what: str = "amount", low: int = 0, high: int | None = None) -> int: ...  # core.py
        def lapse_offers(self, s: State, turn_over: bool = False) -> None: ...  # trades.py
        def levels(self, s: State, industry_id: str | None) -> list[int]: ...  # plots.py
        def move_to(
            self, s: State, p: str, index: int, collect: bool = True, forward: bool = True
        ) -> None: ...  # turns.py
        def need(self, args: tuple[str, ...], n: int, usage: str) -> None: ...  # core.py
        def next_turn(self, s: State) -> None: ...  # turns.py
        def offer_arg(self, s: State, word: str) -> Offer: ...  # trades.py
        def open_auction(self, s: State, cell: Cell, seller: str) -> None: ...  # auctions.py
        def owner_of(self, s: State, cell: Cell) -> str: ...  # plots.py
        def place(self, s: State, p: str, index: int) -> None: ...  # turns.py
        def player_arg(self, s: State, name: str) -> str: ...  # core.py
        def plot_arg(self, ref: str) -> Cell: ...  # core.py
        def plots_answers(
            self, s: State, check: Callable[[State, Cell], Any], plots: Iterable[str]
        ) -> list[tuple[str, Any]]: ...  # legality.py
        def plots_passing(
            self, s: State, check: Callable[[State, Cell], Any], plots: Iterable[str]
        ) -> list[tuple[str, str]]: ...  # legality.py
        def reads_key(self, s: State, reads: tuple[str, ...]) -> tuple[Any, ...]: ...  # legality.py
        def require_turn_free(self, s: State) -> None: ...  # turns.py
        def return_kept_card(self, s: State, p: str, card_id: str) -> None: ...  # cards.py
        def send_to_detention(self, s: State, p: str) -> None: ...  # turns.py
        def spend(self, s: State, player: str, to: str, amount: int, what: str) -> None: ...  # money.py
        def transfer(self, s: State, frm: str, to: str, amount: int) -> None: ...  # money.py
