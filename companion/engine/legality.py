"""Who may issue a command, and every command legal now, with the caches that keep the answers."""

from collections.abc import Callable, Collection, Iterable
from typing import Any

from companion.engine.actions import TABLE, Action
from companion.engine.base import RulesBase
from companion.engine.board import Cell
from companion.engine.command import Command
from companion.engine.state import State
from companion.errors import BadCommand, RuleViolation


class Legality(RulesBase):
    """Who may act, what is legal now, and the board-keyed caches of the answers (docs/actors.md)."""

    # Who besides the table may issue each verb (the table may issue every one):
    #   turn: the player whose turn it is; pending: the player the open decision is about;
    #   named: the player the first argument names (a player may name only themselves);
    #   owner: the owner of the plot the first argument names; offer_to / offer_from: the
    #   player a trade offer is made to / by; drawer: the pending player drawing the deck's
    #   next card (naming a physical card is the table's); table: the table alone.
    # A stored event is replayed as its actor without this check (apply's `trusted`): it was
    # checked when it was submitted, and an electronic draw is stored naming the card it drew.
    WHO = {
        "roll": "turn",
        "end": "turn",
        "buy": "pending",
        "decline": "pending",
        "bid": "named",
        "opening": "table",
        "hammer": "table",
        "build": "owner",
        "sell_building": "owner",
        "mortgage": "owner",
        "redeem": "owner",
        "trade": "named",
        "accept": "offer_to",
        "reject": "offer_to",
        "withdraw": "offer_from",
        "pay": "named",
        "draw": "drawer",
        "choose": "pending",
        "pay_fine": "turn",
        "use_card": "turn",
        "land": "table",
        "bankrupt": "named",
        "end_game": "table",
    }

    def party(self, s: State, cmd: Command) -> str | None:
        """The player who may issue cmd now besides the table; None: the table alone (or nobody)."""
        who = self.WHO[cmd.verb]
        args = cmd.args
        try:
            if who == "turn":
                return s.turn
            if who == "pending":
                return s.pending.player if s.pending is not None else None
            if who == "named":
                return self.player_arg(s, args[0])
            if who == "owner":
                return s.owner.get(self.plot_arg(args[0]).id)
            if who == "offer_to":
                return self.offer_arg(s, args[0]).other
            if who == "offer_from":
                return self.offer_arg(s, args[0]).proposer
            if who == "drawer":
                return self.drawer(s, args)
        except (BadCommand, RuleViolation):
            return None
        return None

    def check_actor(self, s: State, cmd: Command, actor: str) -> None:
        """Refuse cmd from a player it does not belong to, saying who may issue it."""
        if actor not in s.players:
            raise BadCommand("unknown_actor", actor=actor, players=", ".join(s.players))
        party = self.party(s, cmd)
        if party == actor:
            return
        if party is None:
            # the table's alone, or nobody's now: the command's own refusal says more, if it has one
            getattr(self, self.COMMANDS[cmd.verb])(s.copy(), cmd.args)
            raise RuleViolation("table_only", actor=actor, verb=cmd.verb)
        who = self.WHO[cmd.verb]
        if who == "named":  # the player named another: each acts only for themselves
            raise RuleViolation("for_yourself", actor=actor, verb=cmd.verb, player=party)
        if who == "owner":
            raise RuleViolation(
                "owner_only", actor=actor, verb=cmd.verb, player=party, plot=self.plot_arg(cmd.args[0]).id
            )
        raise RuleViolation("not_yours", actor=actor, verb=cmd.verb, player=party)

    def legal(self, state: State, actor: str = TABLE, verbs: Collection[str] | None = None) -> list[Action]:
        """Every command `actor` may issue now, as patterns with exact bounds (engine/actions.py).

        Derived from the rules' own checks, never by trying lines through apply; the
        table sees every action, each marked with the player it belongs to.
        verbs: only these verbs' actions (the reader asks about a few, and a tap is
        booked within milliseconds); the order stays the rules' own.
        """
        if state.phase == "over":
            return []
        out: list[Action] = []
        fresh = state.memo is None
        if fresh:
            # facts derived from the board, shared by the verbs' checks during this call and kept
            # for later states with the same board (State.memo, board_bucket)
            state.memo = self.board_bucket(state)
        try:
            for verb, derive, reads in self.legal_plan():
                if verbs is not None and verb not in verbs:
                    continue
                if state.debts and verb not in self.DEBT_COMMANDS:
                    continue
                if actor != TABLE and not self.may_be_party(state, verb, actor):
                    continue  # none of this verb's actions can be the actor's: skip deriving them
                if reads is None:
                    out.extend(derive(state))
                    continue
                key = (verb, self.reads_key(state, reads))
                cache = self.board_bucket(state)
                found = cache.get(key)
                if found is None:
                    found = cache[key] = tuple(derive(state))
                out.extend(found)
        finally:
            if fresh:
                state.memo = None
        if actor != TABLE:
            out = [a for a in out if a.party == actor]
        return out

    def legal_plan(self) -> list[tuple[str, Callable[[State], list[Action]], tuple[str, ...] | None]]:
        """(verb, its legal_ method, what a cached answer is kept by) in COMMANDS order, made once."""
        plan = self.__dict__.get("_legal_plan")
        if plan is None:
            plan = self.__dict__["_legal_plan"] = [
                (verb, getattr(self, "legal_" + verb), self.LEGAL_READS.get(verb)) for verb in self.COMMANDS
            ]
        return plan

    def may_be_party(self, s: State, verb: str, actor: str) -> bool:
        """False when no action of verb can belong to actor now, judged by WHO alone (cheap).

        An action's party is the player `party` names for its commands (docs/actors.md), so
        a table-only verb is never a player's, a turn verb only the player on turn's, and a
        decision's verbs only the pending player's.
        """
        who = self.WHO[verb]
        if who == "table":
            return False
        if who == "turn":
            return s.turn == actor
        if who == "pending" or who == "drawer":
            return s.pending is not None and s.pending.player == actor
        return True

    # What each plot check reads besides the board (owner, level, mortgaged), the open decision
    # (pending) and the options. Consecutive states mostly share all of it, so plots_passing
    # keeps the checks' answers by these values (board_bucket): a check that starts
    # reading another field must name it here, or it would be answered from an older state.
    PLOT_CHECK_READS: dict[str, tuple[str, ...]] = {
        "build_terms": (),  # check_build but the cash (legal_build compares it)
        "redeem_terms": ("turn", "phase"),  # check_redeem but the cash; Millionaire: before one's own turn
        "check_sell_building": (),
        "check_mortgage": (),
        "tradable": (),  # check_not_under_hammer and check_tradable
    }

    # The same for whole verbs whose actions derive from the board and these fields alone: legal
    # lists them from the cache when a state agrees on all of it (an edition that overrides one of
    # these legal_ methods, or the checks under it, names what its version reads).
    LEGAL_READS: dict[str, tuple[str, ...]] = {
        "sell_building": (),
        "mortgage": (),
        "trade": ("alive", "balances", "debts", "kept"),
        "pay": ("alive", "balances"),
    }

    BOARD_CACHE_SIZE = 512

    # Open decisions no plot check reads: an offer to buy is no auction (check_not_under_hammer),
    # a card to draw or a cell to choose names no plot. States with one of them share the cache of
    # the same board with no decision open; any other decision is part of the board's key (a verb
    # that reads even these names "pending" in LEGAL_READS).
    BOARD_NEUTRAL_PENDINGS = frozenset({"offer", "draw", "choose"})

    def board_bucket(self, s: State) -> dict[Any, Any]:
        """The cached answers and derived facts for states with s's board (owner, level, mortgaged, pending).

        During a legal call it is the state's memo (found once, so the board is hashed once).
        """
        if s.memo is not None:
            return s.memo
        pending = s.pending
        if pending is not None and pending.kind in self.BOARD_NEUTRAL_PENDINGS:
            pending = None
        board = (tuple(s.owner.items()), tuple(s.level.items()), s.mortgaged, pending)
        cache = self.__dict__.get("_board_cache")
        if cache is None or len(cache) > self.BOARD_CACHE_SIZE:
            cache = self.__dict__["_board_cache"] = {}  # simply dropped when full: states move on
        bucket = cache.get(board)
        if bucket is None:
            bucket = cache[board] = {}
        return bucket

    def reads_key(self, s: State, reads: tuple[str, ...]) -> tuple[Any, ...]:
        """The values of these fields of s (PLOT_CHECK_READS, LEGAL_READS), hashable."""
        out = []
        for name in reads:
            value = getattr(s, name)
            out.append(tuple(value.items()) if isinstance(value, dict) else value)
        return tuple(out)

    def plots_passing(
        self, s: State, check: Callable[[State, Cell], Any], plots: Iterable[str]
    ) -> list[tuple[str, str]]:
        """(plot, owner) of each of these owned plots `check(s, cell)` lets through (board order)."""
        return [(pid, s.owner[pid]) for pid, _ in self.plots_answers(s, check, plots)]

    def plots_answers(
        self, s: State, check: Callable[[State, Cell], Any], plots: Iterable[str]
    ) -> list[tuple[str, Any]]:
        """(plot, what check returned) of each of these plots `check(s, cell)` lets through (board order).

        Kept by the values the check reads (PLOT_CHECK_READS) when it names them.
        """
        reads = self.PLOT_CHECK_READS.get(check.__name__)
        key = cache = None
        if reads is not None:
            key = (check.__name__, tuple(plots), self.reads_key(s, reads))
            cache = self.board_bucket(s)
            found: list[tuple[str, Any]] | None = cache.get(key)
            if found is not None:
                return found
        out = []
        for pid in plots:
            try:
                answer = check(s, self.edition.plots[pid])
            except RuleViolation:
                continue
            out.append((pid, answer))
        if cache is not None:
            cache[key] = out
        return out
