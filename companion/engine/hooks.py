"""The hooks: the methods and tables of `Rules` an edition module may override, and when each is used.

An edition (elite.py, monopoly.py, ...) subclasses `Rules` and changes the game only through
these names, the way python-chess's chess/variant.py gives each variant a handful of named
overrides on one board class. Everything else in engine/ is the shared game and is not
overridden; an edition may add methods of its own (new commands, cell kinds, effects).
tests/test_engine_hooks.py holds every edition to this list and every hook to its annotations
on `Rules`; a new hook is added here, with the one line that says when the engine calls it.
"""

# concern -> {method: when the engine calls it}
HOOKS: dict[str, dict[str, str]] = {
    "setup": {
        "__init__": "once, when the rules are made for an edition: per-edition tables (LANDINGS, ...)",
        "check_edition": "when an edition file loads, after its own shape is read: what these rules read from it",
        "setup": "once, at the start of a game, after the start cash: extra money or items handed out",
    },
    "the kernel": {
        "after_command": "after every command, before the invariants: debts settled, offers lapsed, the winner",
        "check_invariants": "after every command and at the start: assertions that stay on",
        "board_changes": "for an undo: what to put back on the physical board, one note per item",
        "party": "when a player (not the table) issues a command: who besides the table may issue it now",
    },
    "turns and movement": {
        "cmd_roll": "the `roll` command: the dice of the player on turn",
        "legal_roll": "when legal() lists the actions: whether and how the player on turn may roll",
        "move_started": "as a move of the player on turn begins, before the token moves",
        "move_to": "a card's move to a cell: forward (passing cells) or straight back",
        "on_pass": "for every cell a token passes without landing",
        "pass_start": "when a token passes or lands on START: the circle income is paid",
        "circle_income_parts": "by pass_start: (the fixed sum, a dividend) of the circle income",
        "land_start": "when a token lands on the START cell",
        "turn_started": "as the next player's turn begins",
        "send_to_detention": "when a player goes to detention (a cell, a card, three doubles)",
        "fine_account": "the account a detention fine is paid to",
        "tax_account": "the account a tax cell's amount is paid to",
    },
    "plots and buildings": {
        "land_plot": "when a token lands on a plot: the offer to buy, or the rent",
        "rent": "by land_plot: the rent a visitor owes on an owned plot",
        "cmd_buy": "the `buy` command: the pending offer taken at the price",
        "legal_buy": "when legal() lists the actions: whether the offer may be bought",
        "cmd_decline": "the `decline` command: the pending offer refused (an auction, if the option says)",
        "legal_decline": "when legal() lists the actions: whether the offer may be declined",
        "cmd_build": "the `build` command: one more building on a plot",
        "build_terms": "by check_build and legal_build: (owner, cost) of one more building, or a refusal",
        "build_price": "by build_terms: what the next building on a plot costs",
        "max_level": "the highest building level a plot may reach",
        "count_buildings": "(small, large) buildings that plots at given levels hold",
        "small_top": "the small buildings a plot holds before its large one",
        "small_left": "the small buildings still in the box",
        "player_buildings": "(small, large) buildings a player owns (cards that charge per building)",
    },
    "mortgages": {
        "cmd_redeem": "the `redeem` command: a mortgaged plot bought back",
        "check_redeem_time": "by redeem_terms: refuses a redemption at the wrong time of the turn",
    },
    "cards": {
        "cmd_draw": "the `draw` command: the pending deck's next card, or a named one",
        "legal_draw": "when legal() lists the actions: the draws the pending player may make",
        "draw_card": "by cmd_draw: the card taken from the deck, kept or applied",
        "apply_card": "by draw_card: a drawn card's effects, in order",
        "apply_effect": "by apply_card: one effect of a card",
    },
    "auctions": {
        "auction": "by every auction command: the auction under way, or a refusal",
        "may_bid": "when legal() lists bids: whether a player may bid at this auction at all",
        "cmd_bid": "the `bid` command",
        "cmd_hammer": "the `hammer` command: the auction closes, the highest bid wins",
    },
    "trades": {
        "cmd_trade": "the `trade` command (the table's trade, or an accepted offer)",
        "check_tradable": "for each plot a trade hands over: refuses one that may not change hands",
        "tradable_cards": "when legal() lists trades: the kept cards a player may hand over",
    },
    "money, bankruptcy and the end": {
        "raisable": "by check_bankrupt and legal_bankrupt: what a debtor could raise now",
        "cmd_bankrupt": "the `bankrupt` command: a debtor who cannot pay leaves the game",
        "liquidate": "by cmd_bankrupt: the debtor's cash and holdings go to the creditors and the bank",
        "wealth": "by cmd_end_game: a player's wealth when a timed game ends",
    },
}

# Every hook's name.
HOOK_NAMES: frozenset[str] = frozenset(name for group in HOOKS.values() for name in group)

# The class-level tables an edition replaces or extends (usually {**Rules.X, ...}).
TABLES: dict[str, str] = {
    "OPTIONS": "the edition options and their defaults",
    "OPTION_RANGES": "the range of each whole-number option",
    "OPTION_CHOICES": "the values a text option may take",
    "CELL_KINDS": "the cell kinds an edition file may use",
    "CELL_PARAMS": "the parameters a non-plot cell kind reads",
    "SUPPLY": "the [supply] items the rules count",
    "EFFECTS": "card effect verbs and their required arguments",
    "EFFECT_NUMBERS": "effect arguments that are whole numbers, with their ranges",
    "EFFECT_OPTIONAL": "the optional arguments of each effect",
    "READS_SLOT": "whether the edition reads a [slot] table",
    "EXTRA_KEYS": "the [extra] keys the rules read",
    "SYSTEM_ACCOUNTS": "the accounts besides the players (bank, jackpot, ...)",
    "PLOTS_PAY_RENT": "whether plots must list their rent",
    "COMMANDS": "verb -> the method that runs it",
    "ARITY": "verb -> (fewest, most arguments, usage)",
    "DICE_VERBS": "verbs whose dice the table or the reader supplies",
    "DEBT_COMMANDS": "what a player in debt may still do",
    "WHO": "who besides the table may issue each verb (docs/actors.md)",
    "PLOT_CHECK_READS": "the state fields each cached plot check reads (legality.py)",
    "LEGAL_READS": "the state fields each cached verb's legal actions read (legality.py)",
    "SHORT_SALE_NOTE": "the note a large building sold short is told by",
}
