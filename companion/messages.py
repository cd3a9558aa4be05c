"""Turn message codes (notes and refusals) into English or Russian text at the edge.

The engine speaks in codes with parameters; the OLED, the phone page and the
command line call `render` with the language they show. A code without a
template still renders (as the code and its parameters), and a test checks
that every code the engine emits has a template in every language.
"""

EN = {
    # ----- what happened ------------------------------------------------------
    "game_started": "New game of {edition}: {players}",
    "rolled": "{player} rolled {dice}",
    "landed": "{player} lands on {cell}",
    "offer": "{player} may buy {plot} for {price}",
    "bought": "{player} bought {plot} for {price}",
    "declined": "{player} declined {plot}",
    "own_plot": "{player} is on their own plot {plot}",
    "no_rent_mortgaged": "{plot} is mortgaged: no rent",
    "rent_paid": "{player} paid {amount} rent to {to} for {plot}",
    "circle_income": "{player} passed START: +{amount}",
    "circle_tax": "{player} paid circle tax {amount}",
    "tax_paid": "{player} paid tax {amount}",
    "card_paid": "{player} paid {amount} ({card})",
    "card_received": "{player} received {amount} ({card})",
    "debt": "{player} owes {amount} to {to} ({reason}) but has {cash}: raise money or go bankrupt",
    "debt_paid": "{player} paid the {amount} owed to {to}",
    "turn": "{player}'s turn",
    "turn_skipped": "{player} misses this turn",
    "will_skip": "{player} will miss a turn",
    "three_doubles": "{player} rolled three doubles",
    "detained": "{player} is held at {cell}",
    "still_detained": "{player} stays (try {tries})",
    "released_by_double": "{player} leaves with a double",
    "released_by_card": "{player} leaves using card {card}",
    "fine_paid": "{player} paid the fine of {amount}",
    "draw_card": "{player}: draw a {deck} card",
    "card": "{player} drew {card}",
    "card_kept": "{player} keeps card {card}",
    "deck_empty": "The {deck} deck is empty",
    "choose_cell": "{player}: choose {cells}",
    "auction_opened": "Auction of {plot} (seller {seller}), opening {opening}",
    "auction_opening": "Opening price for {plot}: {opening}",
    "bid": "{player} bids {amount} for {plot}",
    "auction_won": "{player} wins {plot} for {amount}",
    "auction_no_bids": "No bids: {plot} stays where it was",
    "bid_lapsed": "{player} can no longer pay {amount}: the bid lapses, bidding reopens for {plot}",
    "auction_roll_needed": "{player}: roll three times to choose the plot for auction",
    "auction_selected": "The dice choose {plot}",
    "auction_cancelled": "Auction cancelled ({reason})",
    "built": "{player} built on {plot} (level {level}) for {cost}",
    "building_sold": "{player} sold a building on {plot} for {amount}",
    "mortgaged": "{player} mortgaged {plot} for {amount}",
    "redeemed": "{player} redeemed {plot} for {amount}",
    "traded": "{player} and {other} traded: gave {gave} + {paid}, got {got} + {received}",
    "paid": "{player} paid {amount} to {to}",
    "bankrupt_paid": "{player} owed {amount} to {to}, paid {from_debtor}",
    "bankrupt": "{player} is bankrupt and leaves the game",
    "wealth_count": "Wealth: {wealth}",
    "winner": "{player} wins!",
    "undone": "Event {event} ({command}) reversed",
    "shares_bought": "{player} bought {count} shares at {price} ({amount})",
    "shares_sold": "{player} sold {count} shares at {price} ({amount})",
    "share_price": "Share price {old} -> {new}",
    "on_exchange": "{player} is on the EXCHANGE",
    "commission_paid": "{player} paid {amount} commission to {to}",
    "policy_expired": "{player}'s {policy} policy expired",
    "insured": "{player} bought a {policy} policy for {amount}",
    "policy_used": "{player} used a {policy} policy ({reason})",
    "policy_covered": "{player}'s {policy} policy covers this",
    "policy_claim": "{player} owes {amount} ({card}): use an ORANGE or RED policy, or keep it and pay?",
    "policy_question": "{player}'s plot {plot} is up for auction: use an ORANGE or RED policy, or keep it?",
    "policy_kept": "{player} keeps their policy",
    "insurer_paid": "The insurer pays {player} {amount}",
    "detained_stays": "{player} is held at {cell}: without a double the token stays there",
    "plot_under_auction": "{plot} is being decided on (auction or policy): it stays as it is until then",
    "not_a_roll": "{player} cannot reach {cell} with this roll ({steps} cells)",
    "tax_exemption": "{player} will skip the next circle tax",
    "tax_exempted": "{player} is exempt from this circle tax",
    "fortune_in_force": "Card {card} is in force until the next FORTUNE card",
    "jackpot_offered": "{player} may play the JACKPOT",
    "jackpot_played": "{player} bet {bet}: {symbols}",
    "jackpot_won": "{player} wins {amount} on the JACKPOT",
    "jackpot_lost": "{player} lost the bet of {bet}",
    # ----- refusals -------------------------------------------------------------
    "empty_command": "Empty command",
    "unknown_command": "Unknown command '{verb}'",
    "usage": "Usage: {usage}",
    "unknown_player": "No player named {player}",
    "player_out": "{player} is out of the game",
    "unknown_plot": "No plot called {plot}",
    "unknown_cell": "No cell called {cell}",
    "unknown_policy": "No policy colour {policy}",
    "not_a_number": "{what} must be a number, not '{value}'",
    "out_of_range": "{what} {value} is outside {low}..{high}",
    "dice_count": "Give {count} dice: {usage}",
    "player_count": "This edition takes {min} to {max} players, not {given}",
    "bad_player_name": "'{name}' cannot be a player's name",
    "duplicate_player": "Two players have the same name",
    "game_over": "The game is over ({winner} won)",
    "game_already_started": "A game is already running",
    "bad_seed": "The deck seed must be a whole number from 0 to {high}, not {seed}",
    "request_reused": "Request {request_id} was already used for `{stored}`, so it cannot carry `{submitted}`: send a new request id",
    "not_the_table": "Only the table acts for now; '{actor}' cannot",
    "bad_request_id": "A request id is 1 to {limit} printable characters",
    "debt_first": "{player} must first pay {amount} to {creditor} (sell, mortgage, or go bankrupt)",
    "pending_first": "First settle the {pending} ({player})",
    "already_rolled": "{player} has already rolled",
    "roll_first": "{player} must roll first",
    "roll_again": "{player} rolled a double and rolls again",
    "insufficient_funds": "{player} has {cash}, not the {amount} needed ({what})",
    "no_offer": "Nothing is offered for sale now",
    "no_auction": "No auction is running",
    "auction_has_bids": "The auction already has bids",
    "bid_too_low": "A bid of {amount} is too low: at least {minimum}",
    "plot_unowned": "{plot} has no owner",
    "not_buildable": "Nothing may be built on {plot}",
    "need_monopoly": "{player} must own the whole industry {industry}, none mortgaged",
    "fully_built": "{plot} is fully built",
    "build_evenly": "Build evenly: other plots of {industry} come first",
    "sell_evenly": "Sell evenly: take buildings off the other plots of {industry} first",
    "supply_out": "The box has no more {kind}",
    "no_building": "There is no building on {plot}",
    "already_mortgaged": "{plot} is already mortgaged",
    "sell_buildings_first": "Sell the buildings on {plot} first",
    "not_mortgaged": "{plot} is not mortgaged",
    "before_own_turn_only": "{player} may {action} only before their own move",
    "before_roll_only": "{player} may do this only before rolling",
    "trade_cash_both_ways": "Money can go one way in a trade, not both",
    "not_owner": "{player} does not own {plot}",
    "plot_built": "{plot} has buildings: sell them first",
    "plot_mortgaged": "{plot} is mortgaged and cannot change hands",
    "no_draw": "No card is to be drawn now",
    "card_not_in_deck": "Card {card} is not in the {deck} deck",
    "card_not_held": "{player} does not hold card {card}",
    "card_not_usable": "Card {card} cannot be used that way",
    "no_choice": "There is nothing to choose now",
    "not_an_option": "{cell} is not one of the choices",
    "not_detained": "{player} is not held",
    "not_in_debt": "{player} owes nothing",
    "no_such_event": "There is no event {event}",
    "cannot_undo_start": "The start of the game cannot be undone",
    "cannot_undo_undo": "Event {event} is itself an undo: repeat the command instead",
    "already_undone": "Event {event} is already undone",
    "too_old_to_undo": "Event {event} is too old to undo (the last {window} can be)",
    "undo_blocked": "Event {event} cannot be undone: event {by} ({command}) depends on it; undo that first",
    "no_share_window": "{player} may buy shares only before the game, on passing START or on the EXCHANGE",
    "bank_not_selling": "The share price is 0: the bank sells no shares",
    "exchange_trade_used": "{player} has used the {stage} trade on the EXCHANGE",
    "not_enough_shares": "{player} holds {held} shares, not {count}",
    "nobody_on_exchange": "Nobody is on the EXCHANGE",
    "commission_self": "{player} is on the EXCHANGE and trades directly",
    "commission_used": "{player} has already bought through the EXCHANGE this visit",
    "not_on_exchange": "{player} is not on the EXCHANGE",
    "exchange_played": "{player} has already played the EXCHANGE",
    "policy_not_for_debt": "Only an ORANGE or RED policy can be used this way (not {policy})",
    "no_policy": "{player} holds no {policy} policy",
    "nothing_to_cover": "{player} has nothing a policy could cover now",
    "no_auction_roll": "No AUCTION roll is due",
    "not_on_jackpot": "{player} is not on the JACKPOT",
    # ----- the command line itself (companion/engine/command.py) -------------------------
    "line_too_long": "The line has {length} characters; at most {limit} are read",
    "bad_character": "Invisible or control character {char} at position {position}: type plain text",
    "unbalanced_quote": "The quote at position {position} is never closed",
    "stray_quote": "A quote at position {position} inside a word: quotes enclose whole words",
    "empty_word": "Empty quotes at position {position}: write a word between them",
    "trade_one_amount": "One amount per side of a trade, not {amounts}",
}

RU = {
    "game_started": "Новая игра {edition}: {players}",
    "rolled": "{player}: выпало {dice}",
    "landed": "{player} на клетке {cell}",
    "offer": "{player} может купить {plot} за {price}",
    "bought": "{player} купил(а) {plot} за {price}",
    "declined": "{player} отказался(ась) от {plot}",
    "own_plot": "{player} на своём участке {plot}",
    "no_rent_mortgaged": "{plot} заложен: аренда не платится",
    "rent_paid": "{player} заплатил(а) {amount} аренды {to} за {plot}",
    "circle_income": "{player} прошёл(ла) СТАРТ: +{amount}",
    "circle_tax": "{player} заплатил(а) круговой налог {amount}",
    "tax_paid": "{player} заплатил(а) налог {amount}",
    "card_paid": "{player} заплатил(а) {amount} ({card})",
    "card_received": "{player} получил(а) {amount} ({card})",
    "debt": "{player} должен(на) {amount} ({to}, {reason}), а есть {cash}: продайте, заложите или объявите банкротство",
    "debt_paid": "{player} выплатил(а) долг {amount} ({to})",
    "turn": "Ход: {player}",
    "turn_skipped": "{player} пропускает ход",
    "will_skip": "{player} пропустит ход",
    "three_doubles": "{player}: три дубля подряд",
    "detained": "{player} задержан(а): {cell}",
    "still_detained": "{player} остаётся (попытка {tries})",
    "released_by_double": "{player} выходит по дублю",
    "released_by_card": "{player} выходит по карточке {card}",
    "fine_paid": "{player} заплатил(а) штраф {amount}",
    "draw_card": "{player}: возьмите карточку {deck}",
    "card": "{player} вытянул(а) {card}",
    "card_kept": "{player} сохраняет карточку {card}",
    "deck_empty": "Колода {deck} пуста",
    "choose_cell": "{player}: выберите {cells}",
    "auction_opened": "Аукцион: {plot} (продавец {seller}), стартовая цена {opening}",
    "auction_opening": "Стартовая цена {plot}: {opening}",
    "bid": "{player} предлагает {amount} за {plot}",
    "auction_won": "{player} получает {plot} за {amount}",
    "auction_no_bids": "Ставок нет: {plot} остаётся на месте",
    "bid_lapsed": "{player} уже не может заплатить {amount}: ставка снята, торги за {plot} продолжаются",
    "auction_roll_needed": "{player}: три броска кубика выбирают участок для аукциона",
    "auction_selected": "Кубики выбрали {plot}",
    "auction_cancelled": "Аукцион отменён ({reason})",
    "built": "{player} построил(а) на {plot} (уровень {level}) за {cost}",
    "building_sold": "{player} продал(а) постройку на {plot} за {amount}",
    "mortgaged": "{player} заложил(а) {plot} за {amount}",
    "redeemed": "{player} выкупил(а) {plot} за {amount}",
    "traded": "{player} и {other}: отдано {gave} + {paid}, получено {got} + {received}",
    "paid": "{player} заплатил(а) {amount} игроку {to}",
    "bankrupt_paid": "{player} был(а) должен(на) {amount} ({to}), отдано {from_debtor}",
    "bankrupt": "{player} банкрот и выходит из игры",
    "wealth_count": "Состояние: {wealth}",
    "winner": "Победитель: {player}!",
    "undone": "Событие {event} ({command}) отменено",
    "shares_bought": "{player} купил(а) {count} акций по {price} ({amount})",
    "shares_sold": "{player} продал(а) {count} акций по {price} ({amount})",
    "share_price": "Курс акций {old} -> {new}",
    "on_exchange": "{player} на БИРЖЕ",
    "commission_paid": "{player} заплатил(а) {amount} посреднических {to}",
    "policy_expired": "{player}: полис {policy} истёк",
    "insured": "{player} купил(а) полис {policy} за {amount}",
    "policy_used": "{player} использовал(а) полис {policy} ({reason})",
    "policy_covered": "{player}: полис {policy} покрывает это",
    "policy_claim": "{player} должен(на) {amount} ({card}): использовать ОРАНЖЕВЫЙ или КРАСНЫЙ полис или сохранить его и заплатить?",
    "policy_question": "Участок {plot} игрока {player} выставляется на аукцион: использовать ОРАНЖЕВЫЙ или КРАСНЫЙ полис или сохранить его?",
    "policy_kept": "{player} сохраняет полис",
    "insurer_paid": "Страховая компания платит {player} {amount}",
    "detained_stays": "{player} задержан(а) на {cell}: без дубля фишка остаётся там",
    "plot_under_auction": "{plot} сейчас решается (аукцион или полис): участок не меняется до решения",
    "not_a_roll": "{player} не может попасть на {cell} этим броском ({steps} клеток)",
    "tax_exemption": "{player} освобождён(а) от следующего кругового налога",
    "tax_exempted": "{player} не платит этот круговой налог",
    "fortune_in_force": "Карточка {card} действует до следующей карточки ФОРТУНЫ",
    "jackpot_offered": "{player} может сыграть в ДЖЕКПОТ",
    "jackpot_played": "{player}: ставка {bet}, выпало {symbols}",
    "jackpot_won": "{player} выигрывает {amount} в ДЖЕКПОТ",
    "jackpot_lost": "{player} проиграл(а) ставку {bet}",
    "empty_command": "Пустая команда",
    "unknown_command": "Неизвестная команда '{verb}'",
    "usage": "Формат: {usage}",
    "unknown_player": "Нет игрока {player}",
    "player_out": "{player} выбыл(а) из игры",
    "unknown_plot": "Нет участка {plot}",
    "unknown_cell": "Нет клетки {cell}",
    "unknown_policy": "Нет полиса цвета {policy}",
    "not_a_number": "{what}: нужно число, а не '{value}'",
    "out_of_range": "{what} {value} вне пределов {low}..{high}",
    "dice_count": "Нужно {count} кубика: {usage}",
    "player_count": "В эту игру играют от {min} до {max} игроков, а не {given}",
    "bad_player_name": "'{name}' не может быть именем игрока",
    "duplicate_player": "У двух игроков одно имя",
    "game_over": "Игра окончена (победитель {winner})",
    "game_already_started": "Игра уже идёт",
    "bad_seed": "Число для тасовки колод — целое от 0 до {high}, а не {seed}",
    "request_reused": "Запрос {request_id} уже использован для «{stored}» и не может нести «{submitted}»: нужен новый номер запроса",
    "not_the_table": "Пока действует только стол; «{actor}» не может",
    "bad_request_id": "Номер запроса — от 1 до {limit} печатных символов",
    "debt_first": "{player} сначала должен(на) заплатить {amount} ({creditor}): продайте, заложите или объявите банкротство",
    "pending_first": "Сначала завершите: {pending} ({player})",
    "already_rolled": "{player} уже бросил(а) кубики",
    "roll_first": "{player} должен(на) сначала бросить кубики",
    "roll_again": "{player}: дубль, бросайте ещё раз",
    "insufficient_funds": "У {player} {cash}, а нужно {amount} ({what})",
    "no_offer": "Сейчас ничего не продаётся",
    "no_auction": "Аукцион не идёт",
    "auction_has_bids": "На аукционе уже есть ставки",
    "bid_too_low": "Ставка {amount} мала: минимум {minimum}",
    "plot_unowned": "У {plot} нет владельца",
    "not_buildable": "На {plot} строить нельзя",
    "need_monopoly": "{player} должен(на) владеть всей отраслью {industry} без залогов",
    "fully_built": "{plot} застроен полностью",
    "build_evenly": "Стройте равномерно: сначала другие участки отрасли {industry}",
    "sell_evenly": "Продавайте равномерно: сначала с других участков отрасли {industry}",
    "supply_out": "В коробке больше нет: {kind}",
    "no_building": "На {plot} нет построек",
    "already_mortgaged": "{plot} уже заложен",
    "sell_buildings_first": "Сначала продайте постройки на {plot}",
    "not_mortgaged": "{plot} не заложен",
    "before_own_turn_only": "{player}: {action} можно только перед своим ходом",
    "before_roll_only": "{player}: это можно только до броска",
    "trade_cash_both_ways": "Деньги в сделке идут только в одну сторону",
    "not_owner": "{player} не владеет {plot}",
    "plot_built": "На {plot} есть постройки: сначала продайте их",
    "plot_mortgaged": "{plot} заложен и не может менять владельца",
    "no_draw": "Сейчас не нужно тянуть карточку",
    "card_not_in_deck": "Карточки {card} нет в колоде {deck}",
    "card_not_held": "У {player} нет карточки {card}",
    "card_not_usable": "Карточку {card} так использовать нельзя",
    "no_choice": "Сейчас нечего выбирать",
    "not_an_option": "{cell} не из предложенных",
    "not_detained": "{player} не задержан(а)",
    "not_in_debt": "{player} никому не должен(на)",
    "no_such_event": "Нет события {event}",
    "cannot_undo_start": "Начало игры отменить нельзя",
    "cannot_undo_undo": "Событие {event} само является отменой: повторите команду",
    "already_undone": "Событие {event} уже отменено",
    "too_old_to_undo": "Событие {event} слишком давнее (можно отменить последние {window})",
    "undo_blocked": "Событие {event} отменить нельзя: от него зависит событие {by} ({command}); отмените сначала его",
    "no_share_window": "{player} может купить акции только до игры, проходя СТАРТ или на БИРЖЕ",
    "bank_not_selling": "Курс акций 0: банк не продаёт акции",
    "exchange_trade_used": "{player}: сделка на БИРЖЕ ({stage}) уже совершена",
    "not_enough_shares": "У {player} {held} акций, а не {count}",
    "nobody_on_exchange": "На БИРЖЕ никого нет",
    "commission_self": "{player} на БИРЖЕ и торгует напрямую",
    "commission_used": "{player} уже покупал(а) через БИРЖУ в этот раз",
    "not_on_exchange": "{player} не на БИРЖЕ",
    "exchange_played": "{player} уже сыграл(а) на БИРЖЕ",
    "policy_not_for_debt": "Так можно использовать только ОРАНЖЕВЫЙ или КРАСНЫЙ полис (не {policy})",
    "no_policy": "У {player} нет полиса {policy}",
    "nothing_to_cover": "{player}: полису сейчас нечего покрывать",
    "no_auction_roll": "Бросок для АУКЦИОНА не нужен",
    "not_on_jackpot": "{player} не на ДЖЕКПОТЕ",
    "line_too_long": "В строке {length} символов, а читается не больше {limit}",
    "bad_character": "Невидимый или управляющий символ {char} в позиции {position}: наберите обычный текст",
    "unbalanced_quote": "Кавычка в позиции {position} не закрыта",
    "stray_quote": "Кавычка в позиции {position} внутри слова: в кавычки берут слово целиком",
    "empty_word": "Пустые кавычки в позиции {position}: напишите слово между ними",
    "trade_one_amount": "В сделке одна сумма с каждой стороны, а не {amounts}",
}

# words for the `reason` parameter, which carries a code too
REASONS = {
    "en": {
        "rent_paid": "rent", "circle_tax": "circle tax", "card_paid": "a card", "tax_paid": "tax",
        "fine_paid": "a fine", "black_business_fine": "BLACK BUSINESS fine",
        "transfer_interest": "10% interest on a mortgaged lot", "fortune": "a FORTUNE card",
        "auction": "an auction", "side": "the die chose no side", "mortgaged": "the plot is mortgaged",
        "built": "the plot has buildings", "insured": "the owner is insured",
        "revealed": "a new stunt card shows this spot", "duplicate": "another face-up card shows this spot",
    },
    "ru": {
        "rent_paid": "аренда", "circle_tax": "круговой налог", "card_paid": "карточка", "tax_paid": "налог",
        "fine_paid": "штраф", "black_business_fine": "штраф ЧЁРНОГО БИЗНЕСА",
        "transfer_interest": "10% за заложенный участок", "fortune": "карточка ФОРТУНЫ",
        "auction": "аукцион", "side": "кубик не выбрал сторону", "mortgaged": "участок заложен",
        "built": "на участке есть постройки", "insured": "владелец застрахован",
        "revealed": "открыта карточка трюка на этом месте", "duplicate": "это место есть на другой открытой карточке",
    },
}

CATALOGS = {"en": EN, "ru": RU}
LANGUAGES = tuple(CATALOGS)


def _name(edition, ref):
    if edition is None or not isinstance(ref, str):
        return ref
    cell = edition.cell(ref)
    return cell.name if cell is not None else ref


def _show(value):
    if isinstance(value, (list, tuple)):
        return ", ".join(str(_show(v)) for v in value) or "-"
    if isinstance(value, dict):
        return ", ".join(f"{k} {v}" for k, v in value.items())
    return value


def render(code, params, language="en", edition=None):
    """One line of text for a message code; plot and cell ids become their names."""
    shown = {}
    for key, value in params.items():
        if key in ("plot", "cell"):
            value = _name(edition, value)
        elif key == "reason":
            words = REASONS.get(language, REASONS["en"])
            if value in words:
                value = words[value]
            elif edition is not None and value in edition.cards:
                value = edition.cards[value].text       # a card as the reason (Deluxe rating)
            else:
                value = _name(edition, value)             # a cell as the reason
        elif key in ("gave", "got", "cells") and isinstance(value, list):
            value = [_name(edition, v) for v in value]
        elif key in ("card",) and edition is not None and value in edition.cards:
            value = edition.cards[value].text
        shown[key] = _show(value)
    template = CATALOGS.get(language, EN).get(code) or EN.get(code)
    if template is None:
        return code + (" " + ", ".join(f"{k}={v}" for k, v in shown.items()) if shown else "")
    try:
        return template.format(**shown)
    except (KeyError, IndexError):
        return code + " " + ", ".join(f"{k}={v}" for k, v in shown.items())


def render_error(exc, language="en", edition=None):
    return render(exc.code, exc.params, language, edition)


def _merge_edition_messages():
    """Each rules module may carry MESSAGES = {"en": {...}, "ru": {...}} for its own codes."""
    from companion.engine.rulesets import RULESETS
    for cls in RULESETS.values():
        for language, templates in getattr(cls, "MESSAGES", {}).items():
            for code, text in templates.items():
                CATALOGS.setdefault(language, {}).setdefault(code, text)


_merge_edition_messages()
