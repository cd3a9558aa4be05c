"""Every rule option of every edition in words, English and Russian, for the box's OLED menu of a new game.

An option's name and each of its values are words a player reads, in the rulebooks' terms
(the Russian Elite rulebook's for the Millionaire family: круговой доход, НАЛОГОВАЯ ИНСПЕКЦИЯ,
полис, ПУНКТ, ФОРТУНА; companion/words/glossary.toml spells them); `option_line` puts the two
together ("Circle income: 200"), short enough for two lines of the 128-pixel screen.

Names and choice words are general (`OPTION_NAMES`, `CHOICE_WORDS`: the Millionaire family's,
Elite first), with overrides where an option means something else in an edition
(`EDITION_OPTION_NAMES`, `EDITION_CHOICE_WORDS`: Monopoly's Jail and GO salary). They are keyed by
the edition's id; an edition file whose id has none takes those of its rules module (a table's
copy of monopoly.toml under another id still reads "Jail").

`settable_options` lists what a table sets from the box, house rules and the rulebook's variants
first. It leaves out (`NOT_SET_AT_THE_BOX`) what is no rule a family argues about but a fact of the
box or of the edition file, which the box's buttons could only break:

- `undo_window`: how far back `undo` reaches, a memory bound, not a rule of play;
- `dice`: the number of dice the box holds (doubles need two; Mad Millionaire rolls one);
- `land_checks_distance`, `check_moves`: guards against a mistyped landing or move;
- `movement_deck`, `central_industry`, `discard_decks`: which deck or industry of the file plays a
  part (the FORTUNE pile is the rulebook's, not a variant), ids of the file;
- `monopoly_rent_multiplier`: checked against the file's rent rows, so a game started with
  another value is refused until the file is edited;
- `sale_faces`, `face_up`: lists of the printed dice pictures and the set-up table, edited in the
  file to match the box.

Every other option is listed; one a rules module adds later comes after the known ones, so the box
never hides a rule nobody sorted. Those left out have their words too, for any screen that lists a
game's options.
"""

from functools import lru_cache
from typing import Any

from companion.editions import load_edition
from companion.engine.board import MONEY_MAX
from companion.engine.rulesets import RULESETS
from companion.words.grammar import plural
from companion.words.messages import FACES, LANGUAGES, deck_name, industry_name, joined

# the OLED's grouping of a sum (companion/daemon/screens.money, which this layer may not import) with
# the separator its THOUSANDS says it is, a thin no-break space: "13 750". (The character there is a
# plain space, at which the OLED's wrap can split a sum; wrap never breaks at this one.)
THOUSANDS = "\u202f"
# Russian writes a space before the per cent sign («20 %», the Elite rulebook); it never breaks there
PERCENT = {"en": "{n}%", "ru": "{n}\u00a0%"}
# money as the edition's catalogue shows it: Mad Millionaire's is dollars ("$10 000")
CURRENCY = {"madmillionaire": "${}"}

YES_NO = {"en": {True: "yes", False: "no"}, "ru": {True: "да", False: "нет"}}
NONE = {"en": "none", "ru": "нет"}

# ----- option names ------------------------------------------------------------------------------
OPTION_NAMES: dict[str, dict[str, str]] = {
    "en": {
        # every rules module
        "undo_window": "Undo depth",
        "dice": "Dice",
        "three_doubles_detain": "Three doubles in a row",
        "detention_fine": "TAX INSPECTION fine",
        "detention_tries": "Tries to leave by a double",
        "detention_third_miss": "No double on the last try",
        "monopoly_broken_by_mortgage": "Mortgaged plot ends monopoly",
        "mortgage_needs_empty_industry": "Before a mortgage, sell",
        "redeem_interest_percent": "Redemption interest",
        "redeem_interest_base": "Interest counted on",
        "building_sale_percent": "Buildings sell back at",
        "decline_opens_auction": "Plot not bought",
        "auction_opening_percent": "Auction opening price",
        "card_move_collects": "CHANCE card past START",
        "circle_income": "Circle income",
        "discard_decks": "Cards not returned",
        "land_checks_distance": "Check landings by dice",
        # the Millionaire family
        "start_jackpot": "JACKPOT cash box at start",
        "inspection_landing_detains": "Stopping on TAX INSPECTION",
        "jackpot_min_bet": "JACKPOT bet at least",
        "jackpot_max_bet": "JACKPOT bet at most",
        # Classic and Deluxe
        "movement_deck": "Deck with no circle income",
        "movement_collects": "MOVEMENT card past START",
        "monopoly_rent_multiplier": "Monopoly rent",
        "black_business_fine": "BLACK BUSINESS fine",
        "black_business_lands_on_fund": "BLACK BUSINESS",
        "unpayable_card_kept": "Cannot pay a CHANCE card",
        # Deluxe
        "rating_top_wins": "Top of the rating scale",
        "rating_step_value": "Rating step worth, timed game",
        "rating_down_when_sent": "Sent to TAX INSPECTION",
        # Elite
        "share_start_price": "Share price at start",
        "share_point": "Share price point",
        "dividend_percent": "Dividend on shares",
        "share_tax": "Tax per share",
        "circle_tax_when_sent": "Sent to TAX INSPECTION",
        "tax_on_mortgaged": "Tax on mortgaged plots",
        "sell_shares_in_debt": "Debtor may sell shares",
        "wealth_counts_shares": "Timed game counts shares",
        "policy_green": "GREEN policy price",
        "policy_blue": "BLUE policy price",
        "policy_orange": "ORANGE policy price",
        "policy_red": "RED policy price",
        "long_term_policies": "Long-term policies",
        "red_policy_pays_owner": "Rent a RED policy cancels",
        "central_industry": "Central industry",
        "central_tax": "Central industry tax",
        "fortune_sets": "FORTUNE rent or tax",
        # Monopoly
        "hotel_after_houses": "Houses before a hotel",
        "end_at_bankruptcy": "Game ends",
        "start_deal": "Deeds dealt at start",
        "bankrupt_to_bank": "Bankrupt to the bank",
        "transfer_interest_percent": "Interest on a mortgaged lot received",
        "trade_mortgaged": "Trade mortgaged lots",
        "card_utility_roll": "Card to a utility",
        "building_shortage_auction": "Auction houses when short",
        "free_parking_pot": "Free Parking pot",
        "go_landing_bonus": "Bonus for landing on GO",
        "jail_blocks_rent": "Owner in Jail",
        # Mad Millionaire
        "target": "Cash to win",
        "signs": "SOLD signs each",
        "stunt_unit": "Stunt income per business",
        "six_rule": "Rolling a six",
        "six_bonus": "Bonus for a six",
        "sale_faces": "Sale price by die 1 to 6",
        "sale_round": "Half price rounded up to",
        "face_up": "Stunts face up by players",
        "finish_exact": "FINISH needs the exact roll",
        "one_way": "ONE WAY sign",
        "check_moves": "Check moves on the map",
        "finish_late_cash": "Cash raised later on FINISH",
    },
    "ru": {
        "undo_window": "Глубина отмены",
        "dice": "Число кубиков",
        "three_doubles_detain": "Три дубля подряд",
        "detention_fine": "НАЛОГОВАЯ ИНСПЕКЦИЯ, штраф",
        "detention_tries": "Попыток выйти дублем",
        "detention_third_miss": "Последний промах",
        "monopoly_broken_by_mortgage": "Залог лишает монополии",
        "mortgage_needs_empty_industry": "Перед залогом продать",
        "redeem_interest_percent": "Надбавка при выкупе",
        "redeem_interest_base": "Надбавка считается от",
        "building_sale_percent": "Продажа построек в БАНК",
        "decline_opens_auction": "Отказ от покупки",
        "auction_opening_percent": "Стартовая цена аукциона",
        "card_move_collects": "ШАНС через СТАРТ",
        "circle_income": "Круговой доход",
        "discard_decks": "Колоды без возврата",
        "land_checks_distance": "Сверять клетку с броском",
        "start_jackpot": "Касса «Джекпот» в начале",
        "inspection_landing_detains": "Попал на НАЛОГОВУЮ ИНСПЕКЦИЮ",
        "jackpot_min_bet": "Ставка в ДЖЕКПОТ не меньше",
        "jackpot_max_bet": "Ставка в ДЖЕКПОТ не больше",
        "movement_deck": "Колода без кругового дохода",
        "movement_collects": "ПЕРЕМЕЩЕНИЕ через СТАРТ",
        "monopoly_rent_multiplier": "Аренда монополиста",
        "black_business_fine": "Штраф «ЧЁРНОГО» БИЗНЕСА",
        "black_business_lands_on_fund": "«ЧЁРНЫЙ» БИЗНЕС",
        "unpayable_card_kept": "Нечем оплатить ШАНС",
        "rating_top_wins": "Вершина шкалы рейтинга",
        "rating_step_value": "Цена ступени рейтинга",
        "rating_down_when_sent": "Отправлен в НАЛОГОВУЮ ИНСПЕКЦИЮ",
        "share_start_price": "Первоначальная цена акции",
        "share_point": "ПУНКТ курса акций",
        "dividend_percent": "Проценты по акциям",
        "share_tax": "Налог с каждой акции",
        "circle_tax_when_sent": "Отправлен в НАЛОГОВУЮ ИНСПЕКЦИЮ",
        "tax_on_mortgaged": "Налог с заложенных участков",
        "sell_shares_in_debt": "Должник продаёт акции",
        "wealth_counts_shares": "Акции в подсчёте капитала",
        "policy_green": "Цена ЗЕЛЁНОГО полиса",
        "policy_blue": "Цена СИНЕГО полиса",
        "policy_orange": "Цена ОРАНЖЕВОГО полиса",
        "policy_red": "Цена КРАСНОГО полиса",
        "long_term_policies": "Долговременные полисы",
        "red_policy_pays_owner": "КРАСНЫЙ полис, аренда",
        "central_industry": "Центральная отрасль",
        "central_tax": "Налог с центральных",
        "fortune_sets": "Аренда и налог ФОРТУНЫ",
        "hotel_after_houses": "Домов до отеля",
        "end_at_bankruptcy": "Конец игры",
        "start_deal": "Раздача участков в начале",
        "bankrupt_to_bank": "Банкрот перед БАНКОМ",
        "transfer_interest_percent": "Проценты за полученный залог",
        "trade_mortgaged": "Торговля заложенными участками",
        "card_utility_roll": "Коммунальные по карточке",
        "building_shortage_auction": "Аукцион при нехватке построек",
        "free_parking_pot": "Копилка Бесплатной стоянки",
        "go_landing_bonus": "Премия за остановку на ВПЕРЁД",
        "jail_blocks_rent": "Владелец в тюрьме",
        "target": "Сумма для победы",
        "signs": "Табличек SOLD у игрока",
        "stunt_unit": "Доход с предприятия за акцию",
        "six_rule": "Выпала шестёрка",
        "six_bonus": "Премия за шестёрку",
        "sale_faces": "Цена продажи по кубику",
        "sale_round": "Полцены округляется до",
        "face_up": "Открытых акций по игрокам",
        "finish_exact": "На ФИНИШ только точным броском",
        "one_way": "Одностороннее движение",
        "check_moves": "Сверять ходы с картой",
        "finish_late_cash": "Деньги позже на ФИНИШЕ",
    },
}

# where an option means something else in an edition (by edition id; see the docstring)
EDITION_OPTION_NAMES: dict[str, dict[str, dict[str, str]]] = {
    "monopoly": {
        "en": {
            "detention_fine": "Fine to leave Jail",
            "detention_tries": "Tries for doubles in Jail",
            "redeem_interest_percent": "Unmortgage interest",
            "monopoly_broken_by_mortgage": "Mortgage stops double rent",
            "decline_opens_auction": "Property not bought",
            "card_move_collects": "Card move past GO",
            "circle_income": "GO salary",
        },
        "ru": {
            "detention_fine": "Штраф за выход из тюрьмы",
            "detention_tries": "Попыток выйти из тюрьмы дублем",
            "monopoly_broken_by_mortgage": "Залог отменяет двойную аренду",
            "card_move_collects": "Карточка через ВПЕРЁД",
            "circle_income": "Зарплата на поле ВПЕРЁД",
        },
    },
}

# ----- the words of a value ------------------------------------------------------------------------
# text choices (OPTION_CHOICES) and the yes/no options a phrase says better than yes or no
CHOICE_WORDS: dict[str, dict[str, dict[Any, str]]] = {
    "en": {
        "detention_third_miss": {"pay_next_turn": "pay on the next turn", "pay_and_move": "pay and move at once"},
        "redeem_interest_base": {"price": "the plot's price", "mortgage": "the mortgage"},
        "long_term_policies": {"ask": "holder decides when", "auto": "used at the first chance"},
        "central_tax": {"per_plot": "on each plot", "per_owner": "once per owner"},
        "fortune_sets": {"value": "exactly as written", "printed": "multiplied by tables"},
        "bankrupt_to_bank": {"auction": "lots auctioned", "return": "lots back to the bank"},
        "three_doubles_detain": {True: "to TAX INSPECTION", False: "roll again"},
        "mortgage_needs_empty_industry": {True: "the industry's buildings", False: "the plot's buildings"},
        "decline_opens_auction": {True: "goes to auction", False: "stays unsold"},
        "card_move_collects": {True: "circle income", False: "no circle income"},
        "movement_collects": {True: "circle income", False: "no circle income"},
        "inspection_landing_detains": {True: "held there", False: "not held"},
        "black_business_lands_on_fund": {True: "fine, then take the fund", False: "fine only"},
        "unpayable_card_kept": {True: "keep it until able", False: "owe the sum"},
        "rating_top_wins": {True: "wins the game", False: "play goes on"},
        "rating_down_when_sent": {True: "rating step down", False: "rating stays"},
        "circle_tax_when_sent": {True: "pays circle tax", False: "no circle tax"},
        "red_policy_pays_owner": {True: "the bank pays the owner", False: "the owner gets nothing"},
        "card_utility_roll": {True: "throw again for rent", False: "use the throw made"},
        "jail_blocks_rent": {True: "collects no rent", False: "still collects rent"},
        "six_rule": {True: "bonus or a missed turn", False: "nothing extra"},
        "one_way": {True: "obeyed", False: "ignored"},
        "finish_late_cash": {True: "wins too", False: "does not count"},
    },
    "ru": {
        "detention_third_miss": {"pay_next_turn": "штраф в следующий ход", "pay_and_move": "штраф и сразу ход"},
        "redeem_interest_base": {"price": "цены участка", "mortgage": "суммы залога"},
        "long_term_policies": {"ask": "решает владелец", "auto": "в первом же случае"},
        "central_tax": {"per_plot": "с каждого участка", "per_owner": "раз с владельца"},
        "fortune_sets": {"value": "как написано", "printed": "по таблицам"},
        "bankrupt_to_bank": {"auction": "участки на аукцион", "return": "участки в БАНК"},
        "three_doubles_detain": {True: "НАЛОГОВАЯ ИНСПЕКЦИЯ", False: "ещё ход"},
        "mortgage_needs_empty_industry": {True: "постройки всей отрасли", False: "постройки участка"},
        "decline_opens_auction": {True: "участок на аукцион", False: "участок свободен"},
        "card_move_collects": {True: "с круговым доходом", False: "без кругового дохода"},
        "movement_collects": {True: "с доходом", False: "без дохода"},
        "inspection_landing_detains": {True: "задержан", False: "свободен"},
        "black_business_lands_on_fund": {True: "штраф и забрать фонд", False: "только штраф в фонд"},
        "unpayable_card_kept": {True: "карточка ждёт у игрока", False: "сумма в долг"},
        "rating_top_wins": {True: "победа", False: "игра дальше"},
        "rating_down_when_sent": {True: "шаг вниз", False: "на месте"},
        "circle_tax_when_sent": {True: "с налогом", False: "без налога"},
        "red_policy_pays_owner": {True: "БАНК платит владельцу", False: "владелец без аренды"},
        "card_utility_roll": {True: "новый бросок", False: "тот же бросок"},
        "jail_blocks_rent": {True: "аренду не получает", False: "получает аренду"},
        "six_rule": {True: "премия или пропуск хода", False: "обычный ход"},
        "one_way": {True: "соблюдается", False: "не действует"},
        "finish_late_cash": {True: "тоже победа", False: "не в счёт"},
    },
}

EDITION_CHOICE_WORDS: dict[str, dict[str, dict[str, dict[Any, str]]]] = {
    "monopoly": {
        "en": {
            "three_doubles_detain": {True: "go to Jail", False: "roll again"},
            "mortgage_needs_empty_industry": {True: "the group's houses", False: "the lot's houses"},
            "redeem_interest_base": {"price": "the lot's price", "mortgage": "the mortgage"},
            "decline_opens_auction": {True: "auctioned", False: "stays with the bank"},
            "card_move_collects": {True: "collect salary", False: "no salary"},
        },
        "ru": {
            "three_doubles_detain": {True: "в тюрьму", False: "ещё ход"},
            "mortgage_needs_empty_industry": {True: "постройки всей группы", False: "постройки участка"},
            "card_move_collects": {True: "с зарплатой", False: "без зарплаты"},
        },
    },
}

# whole numbers said with their unit; {n} the number (money grouped, per cent signed), {nth} its ordinal
NUMBER_WORDS = {
    "en": {
        "undo_window": "{n} event|{n} events",
        "auction_opening_percent": "{n} of the price",
        "monopoly_rent_multiplier": "printed ×{n}",
        "end_at_bankruptcy": "at the {nth} bankruptcy",
        "start_deal": "{n} each",
    },
    "ru": {
        "undo_window": "{n} событие|{n} события|{n} событий",
        "auction_opening_percent": "{n} цены",
        "monopoly_rent_multiplier": "×{n}",
        "end_at_bankruptcy": "после {nth} банкротства",
        "start_deal": "по {n} каждому",
    },
}
# what a zero means where it switches a rule off or leaves a choice open
ZERO_WORDS = {
    "en": {
        "undo_window": "no undo",
        "auction_opening_percent": "any",
        "end_at_bankruptcy": "one player left",
        "start_deal": "none",
        "go_landing_bonus": "none",
        "sale_round": "no rounding",
    },
    "ru": {
        "undo_window": "без отмены",
        "auction_opening_percent": "любая",
        "end_at_bankruptcy": "остался один",
        "start_deal": "нет",
        "go_landing_bonus": "нет",
        "sale_round": "без округления",
    },
}
# Mad Millionaire's sale prices for the die's faces, as multiples of the buy price
FACE_SIGNS = {"half": "×½", "full": "×1", "double": "×2", "triple": "×3"}


def _lang(language: str) -> str:
    return language if language in LANGUAGES else "en"


@lru_cache(maxsize=None)
def _shipped(edition_id: str):
    return load_edition(edition_id)


def _edition(edition):
    """An Edition, from itself or a shipped edition's id."""
    return _shipped(edition) if isinstance(edition, str) else edition


def _override(table: dict, ed, lang: str) -> dict:
    """The edition's entries of an override table: by its id, else by its rules module."""
    entry = table.get(ed.id) or table.get(ed.rules) or {}
    return entry.get(lang, {})


def option_name(edition, key: str, language: str = "en") -> str:
    """An option's name as a player reads it: "Circle income", «Круговой доход»."""
    ed, lang = _edition(edition), _lang(language)
    own = _override(EDITION_OPTION_NAMES, ed, lang)
    if key in own:
        return own[key]
    return OPTION_NAMES[lang].get(key) or OPTION_NAMES["en"].get(key) or key


def _choice(ed, key: str, value, lang: str) -> str | None:
    if not isinstance(value, (bool, str)):
        return None
    for table in (_override(EDITION_CHOICE_WORDS, ed, lang), CHOICE_WORDS[lang]):
        words = table.get(key, {})
        if value in words and type(value) is type(next(iter(words))):
            return words[value]
    return None


def money(amount: int, edition=None) -> str:
    """A sum as the OLED shows it, digits in groups of three ("13 750"; "$10 000" in Mad Millionaire)."""
    digits = ("-" if amount < 0 else "") + f"{abs(amount):,}".replace(",", THOUSANDS)
    return CURRENCY.get(getattr(edition, "rules", ""), "{}").format(digits)


def _ordinal(n: int, lang: str) -> str:
    if lang == "ru":
        return f"{n}-го"
    suffix = "th" if 11 <= n % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _number(ed, key: str, value: int, lang: str) -> str:
    if value == 0 and key in ZERO_WORDS[lang]:
        return ZERO_WORDS[lang][key]
    high = RULESETS[ed.rules].OPTION_RANGES.get(key, (0, 0))[1]
    if key.endswith("_percent"):
        shown = PERCENT[lang].format(n=value)
    elif high == MONEY_MAX:
        shown = money(value, ed)
    else:
        shown = str(value)
    template = NUMBER_WORDS[lang].get(key)
    if template is None:
        return shown
    return plural(value, template).format(n=shown, nth=_ordinal(value, lang))


def value_words(edition, key: str, value, language: str = "en") -> str:
    """An option's value in words: yes/no or a phrase, a number with its unit, deck names, never an id."""
    ed, lang = _edition(edition), _lang(language)
    chosen = _choice(ed, key, value, lang)
    if chosen is not None:
        return chosen
    if isinstance(value, bool):
        return YES_NO[lang][value]
    if isinstance(value, int):
        return _number(ed, key, value, lang)
    if key in ("movement_deck", "discard_decks"):
        decks = [value] if isinstance(value, str) else list(value)
        return joined([str(deck_name(ed, d, lang)) for d in decks], lang) if decks else NONE[lang]
    if key == "central_industry":
        return str(industry_name(ed, value, lang))
    if key == "face_up":
        return "/".join(str(v) for v in value)  # one number per player count: 2/2/2/3/4/4
    if key == "sale_faces":
        return " ".join(FACE_SIGNS.get(face, FACES[lang].get(face, face)) for face in value)
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value) if value else NONE[lang]
    return str(value)


def option_line(edition, key: str, value, language: str = "en") -> str:
    """One menu line: "GO salary: 200", «Круговой доход: 200»."""
    return f"{option_name(edition, key, language)}: {value_words(edition, key, value, language)}"


# ----- what a table sets from the box ------------------------------------------------------------
# house rules and the rulebook's variants first, then the figures of the rules, then the fine print
SETTABLE_ORDER = (
    # Monopoly's house rules and short game
    "free_parking_pot",
    "go_landing_bonus",
    "jail_blocks_rent",
    "end_at_bankruptcy",
    "start_deal",
    "hotel_after_houses",
    # Mad Millionaire's RULE VARIATIONS
    "target",
    "finish_exact",
    "one_way",
    "six_rule",
    # the readings a family argues about
    "three_doubles_detain",
    "inspection_landing_detains",
    "monopoly_broken_by_mortgage",
    "decline_opens_auction",
    "auction_opening_percent",
    "card_move_collects",
    "movement_collects",
    "black_business_lands_on_fund",
    "unpayable_card_kept",
    "rating_top_wins",
    "rating_down_when_sent",
    "circle_tax_when_sent",
    "tax_on_mortgaged",
    "fortune_sets",
    "central_tax",
    "long_term_policies",
    "red_policy_pays_owner",
    "sell_shares_in_debt",
    "wealth_counts_shares",
    "bankrupt_to_bank",
    "trade_mortgaged",
    "building_shortage_auction",
    "card_utility_roll",
    "finish_late_cash",
    # the rules' figures
    "circle_income",
    "start_jackpot",
    "jackpot_min_bet",
    "jackpot_max_bet",
    "share_start_price",
    "share_point",
    "dividend_percent",
    "share_tax",
    "policy_green",
    "policy_blue",
    "policy_orange",
    "policy_red",
    "detention_fine",
    "detention_tries",
    "detention_third_miss",
    "black_business_fine",
    "rating_step_value",
    "signs",
    "stunt_unit",
    "six_bonus",
    "sale_round",
    # mortgage and sale terms
    "mortgage_needs_empty_industry",
    "redeem_interest_percent",
    "redeem_interest_base",
    "transfer_interest_percent",
    "building_sale_percent",
)
NOT_SET_AT_THE_BOX = (
    "undo_window",
    "dice",
    "land_checks_distance",
    "check_moves",
    "movement_deck",
    "central_industry",
    "discard_decks",
    "monopoly_rent_multiplier",
    "sale_faces",
    "face_up",
)


def settable_options(rules: Any) -> list[str]:
    """The options a table sets from the box for a new game of these rules (a class or an instance),
    in the menu's order; see the module's docstring for those left out."""
    options = rules.OPTIONS  # a class attribute: the same on the class and on an instance
    known = [key for key in SETTABLE_ORDER if key in options]
    later = [key for key in options if key not in SETTABLE_ORDER and key not in NOT_SET_AT_THE_BOX]
    return known + later
