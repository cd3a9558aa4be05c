"""Turn message codes (notes and refusals) into English or Russian text at the edge.

The engine speaks in codes with parameters; the OLED, the phone page and the
command line call `render` with the language they show. A code without a
template still renders (as the code and its parameters), and a test checks
that every code the engine emits has a template in every language.

Russian is written as a player reads it (tests/test_words.py holds every template to it):
a name is never declined (a player's name is the subject of a present-tense verb, which has
no gender, or stands before a colon or an arrow: «Аня → Боря: 120, аренда за участок
«Пекарня»»; a plot's, cell's or card's name stands «quoted» after a noun that takes the
case); numbers take their noun's plural form (`{count:p:акцию|акции|акций}`, CLDR rules in
companion/words/grammar.py); no «(а)» patches; the game's terms as the rulebooks spell them, from
companion/words/glossary.toml; every code a parameter carries (a pending decision, a debt's
reason, a policy's colour, a building kind, ...) shown in words, never as its id.
"""

import re

from companion.engine.board import in_language
from companion.words.grammar import Formatter, Word, plural_category, term
from companion.words.head import head_words

EN = {
    # ----- what happened ------------------------------------------------------
    "game_started": "New game of {edition}: {players}",
    "rolled": "{player} rolls {dice}",
    "dice_thrown": "Dice: {dice}",  # issue 22: a dice command the table typed (the EXCHANGE, AUCTION, JACKPOT)
    "landed": "{player} lands on {on_cell}",
    "offer": "{player} may buy {plot} for {price}",
    "bought": "{player} buys {plot} for {price}",
    "declined": "{player} does not buy {plot}",
    "own_plot": "{player} owns {plot}: no rent",
    "no_rent_mortgaged": "{plot} is mortgaged: no rent",
    "rent_paid": "{player} pays {to} {amount} rent for {plot}",
    "circle_income": "{player} passes {start_cell} and collects {amount}{parts}",
    "circle_tax": "{player} pays {amount} circle tax",
    "tax_paid": "{player} pays {amount} tax",
    "card_paid": "{player} pays {to} {amount}, as the card says",
    "card_received": "{player} collects {amount}, as the card says",
    "nothing_to_pay": "{player} has no buildings: nothing to pay",
    "debt": "{player} owes {to} {amount} ({reason}) but has only {cash}. {ways}",
    "debt_paid": "{player} pays off the {amount} owed to {to}",
    "turn": "{player}'s turn",
    "turn_skipped": "{player} misses this turn",
    "will_skip": "{player} will miss a turn",
    "three_doubles": "{player} rolls three doubles",
    "detained": "{player} is held {jail_in}",
    "still_detained": "{player}: no double, stays {jail_in} (try {tries})",
    "released_by_double": "{player} rolls a double and leaves {jail_from}",
    "released_by_card": "{player} leaves {jail_from} with a kept card",
    "fine_paid": "{player} pays the {amount} fine",
    "draw_card": "{player}: draw a {deck} card",
    "card": "{player} draws \u201c{card}\u201d",
    "card_kept": "{player} keeps the card",
    "deck_empty": "The {deck} deck is empty",
    "choose_cell": "{player}: choose {cells}",
    "auction_opened": "{plot} goes up for auction (sold by {seller}); bidding starts at {opening}",
    "auction_opening": "Opening price for {plot}: {opening}",
    "bid": "{player} bids {amount} for {plot}",
    "auction_won": "{player} wins {plot} for {amount}",
    "auction_no_bids": "No bids: {plot} stays unsold",
    "bid_lapsed": "{player} can no longer pay {amount}: the bid lapses, bidding reopens for {plot}",
    "auction_roll_needed": "{player}: roll three times to choose the plot for auction",
    "auction_selected": "The dice pick {plot}",
    "auction_cancelled": "The auction is off ({reason})",
    "built": "{player} builds {a_building} on {plot} for {cost}",
    "building_sold": "{player} sells {a_building} on {plot} back to the bank for {amount}",
    "mortgaged": "{player} mortgages {plot} for {amount}",
    "redeemed": "{player} redeems {plot} for {amount}",
    "traded": "{player} and {other} trade: {player} {gave_all}; {other} {got_all}",
    "paid": "{player} pays {to} {amount}",
    "bankrupt_paid": "{player} owes {to} {amount} and pays {from_debtor}",
    "bankrupt": "{player} is bankrupt and leaves the game",
    "wealth_count": "Wealth: {wealth}",
    "winner": "{player} wins!",
    "winners": "{winners} share the win!",
    "undone": "Event {event} ({command}) reversed",
    "offer_made": "Trade offer {number}: {player} offers {other} {gave} for {got}",
    "offer_open": "Open trade offer {number}: {player} would give {other} {gave} and get {got}",
    "offer_accepted": "{player} accepts trade offer {number} from {other}",
    "offer_rejected": "{player} rejects trade offer {number} from {other}",
    "offer_withdrawn": "{player} withdraws trade offer {number} to {other}",
    "offer_lapsed": "Trade offer {number} ({player} to {other}) lapses ({reason})",
    "shares_bought": "{player} buys {count:p:share|shares} at {price} ({amount})",
    "shares_sold": "{player} sells {count:p:share|shares} at {price} ({amount})",
    "share_price": "Share price: {old} \u2192 {new}",
    "on_exchange": "{player} may play the EXCHANGE",
    "commission_paid": "{player} pays {to} {amount} commission",
    "policy_expired": "{player}: {expired}",
    "insured": "{player} buys a {policy} policy for {amount}",
    "policy_used": "{player} uses a {policy} policy ({reason})",
    "policy_covered": "{player}'s {policy} policy covers this",
    "policy_claim": "{player} owes {amount} ({card}): use an ORANGE or RED policy, or keep it and pay?",
    "policy_question": "{player}'s plot {plot} is up for auction: use an ORANGE or RED policy, or keep it?",
    "policy_kept": "{player} keeps their policy",
    "insurer_paid": "The insurer pays {player} {amount}",
    "detained_stays": "{player} is held at {cell}: without a double the token stays there",
    "plot_under_auction": "{plot} is being decided on (auction or policy): it stays as it is until then",
    "not_a_roll": "{player} cannot reach {cell} with this roll ({steps:p:cell|cells})",
    "tax_exemption": "{player} will skip the next circle tax",
    "tax_exempted": "{player} pays no circle tax this time (tax exemption)",
    "fortune_in_force": "This card is in force until the next FORTUNE card",
    "jackpot_offered": "{player} may play the JACKPOT",
    "jackpot_played": "{player} bets {bet}: {symbols}",
    "jackpot_won": "{player} wins {amount} on the JACKPOT",
    "jackpot_bet_back": "{player} takes the bet of {bet} back from the JACKPOT cash box",
    "jackpot_lost": "{player} loses the bet of {bet}: it stays in the JACKPOT cash box",
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
    "out_of_range": "{what} {value} is out of range: {bounds}",
    "dice_count": "Give {count:p:die|dice}: {usage}",
    "player_count": "This edition takes {min} to {max} players, not {given}",
    "bad_player_name": "'{name}' cannot be a player's name",
    "duplicate_player": "Two players have the same name",
    "game_over": "The game is over (winner: {winner})",
    "game_already_started": "A game is already running",
    "bad_seed": "The deck seed must be a whole number from 0 to {high}, not {seed}",
    "request_reused": "Request {request_id} was already used for `{stored}`, so it cannot carry `{submitted}`: send a new request id",
    "table_only": "Only the banker (the table) may {verb}, not {actor}",
    "not_yours": "Only {player} may {verb} now, not {actor}",
    "for_yourself": "{actor} may {verb} only for themselves, not for {player}",
    "owner_only": "Only {player}, the owner of {plot}, may {verb}, not {actor}",
    "unknown_actor": "No player called '{actor}' at this table ({players})",
    "no_such_offer": "There is no open trade offer {number}",
    "bad_request_id": "A request id is 1 to {limit:p:printable character|printable characters}",
    "debt_first": "{player} must first pay {creditor} {amount}. {ways}",
    "pending_first": "First settle {pending}{whose}",
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
    "need_monopoly": "{player} must own the whole {group} {industry}, none mortgaged",
    "fully_built": "{plot} is fully built",
    "build_evenly": "Build evenly: other plots of the {group} {industry} come first",
    "sell_evenly": "Sell evenly: take buildings off the other plots of the {group} {industry} first",
    "supply_out": "The box has no more {kind:gen_pl}",
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
    "too_old_to_undo": "Event {event} is too old to undo (the last {window:p:event|events} can be)",
    "undo_blocked": "Event {event} cannot be undone: event {by} ({command}) depends on it; undo that first",
    "no_share_window": "{player} may buy shares only before the game, on passing START or on the EXCHANGE",
    "bank_not_selling": "The share price is 0: the bank sells no shares",
    "exchange_trade_used": "{player} has used the {stage} trade on the EXCHANGE",
    "not_enough_shares": "{player} holds {held:p:share|shares}, not {count}",
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
    "line_too_long": "The line has {length:p:character|characters}; at most {limit} are read",
    "bad_character": "Invisible or control character {char} at position {position}: type plain text",
    "unbalanced_quote": "The quote at position {position} is never closed",
    "stray_quote": "A quote at position {position} inside a word: quotes enclose whole words",
    "empty_word": "Empty quotes at position {position}: write a word between them",
    "trade_one_amount": "One amount per side of a trade, not {amounts}",
}

RU = {
    # Names are never declined: a player's name stands as typed (the subject of a verb in the
    # present tense, which has no gender, or before a colon or an arrow), a plot's or a card's
    # name in «quotes» after a noun that takes the case (участок «Пекарня», по карточке «...»).
    "game_started": "Новая игра «{edition}»: {players}",
    "rolled": "{player}: выпало {dice}",
    "dice_thrown": "Кубики: {dice}",  # issue 22: кубики БИРЖИ, АУКЦИОНА, ДЖЕКПОТА, набранные за столом
    "landed": "{player} на {on_cell}",
    "offer": "{player} может купить участок «{plot}» за {price}",
    "bought": "{player} покупает участок «{plot}» за {price}",
    "declined": "{player} отказывается от участка «{plot}»",
    "own_plot": "{player}: участок «{plot}» свой, аренды нет",
    "no_rent_mortgaged": "Участок «{plot}» заложен: аренда не платится",
    "rent_paid": "{player} → {to}: аренда {amount} за участок «{plot}»",
    "circle_income": "{player} проходит {start_cell}: круговой доход {amount}{parts}",
    "circle_tax": "{player} платит круговой налог: {amount}",
    "tax_paid": "{player} платит налог: {amount}",
    "card_paid": "{player} → {to}: {amount} по карточке",
    "card_received": "{player} получает {amount} по карточке",
    "nothing_to_pay": "{player}: построек нет, платить нечего",
    "debt": "{player} → {to}: долг {amount} ({reason}), а наличных только {cash}. {ways}",
    "debt_paid": "{player} → {to}: долг {amount} погашен",
    "turn": "Ход: {player}",
    "turn_skipped": "{player} пропускает ход",
    "will_skip": "{player} пропустит ход",
    "three_doubles": "{player}: три дубля подряд",
    "detained": "{player} задерживается {jail_in}",
    "still_detained": "{player}: дубля нет, остаётся {jail_in} (попытка {tries})",
    "released_by_double": "{player} выбрасывает дубль и выходит {jail_from}",
    "released_by_card": "{player} выходит {jail_from} по сохранённой карточке",
    "fine_paid": "{player} платит штраф {amount}",
    "draw_card": "{player}: возьмите карточку {deck:gen}",  # карточку ФОРТУНЫ, «Шанс»
    "card": "{player} тянет карточку «{card}»",
    "card_kept": "{player} оставляет карточку у себя",
    "deck_empty": "Колода {deck} пуста",
    "choose_cell": "{player}: выберите клетку — {cells}",
    "auction_opened": "На аукцион выставлен участок «{plot}» (продаёт {seller}), стартовая цена {opening}",
    "auction_opening": "Стартовая цена участка «{plot}»: {opening}",
    "bid": "{player} предлагает {amount} за участок «{plot}»",
    "auction_won": "{player} получает участок «{plot}» за {amount}",
    "auction_no_bids": "Ставок нет: участок «{plot}» остаётся непроданным",
    "bid_lapsed": "{player} уже не может заплатить {amount}: ставка снята, торги за участок «{plot}» продолжаются",
    "auction_roll_needed": "{player}: бросьте кубик три раза, чтобы выбрать участок для АУКЦИОНА",
    "auction_selected": "Выпал участок «{plot}»",
    "auction_cancelled": "Аукцион отменяется: {reason}",
    "built": "{player} строит {a_building:acc} на участке «{plot}» за {cost}",
    "building_sold": "{player} продаёт в БАНК {a_building:acc} с участка «{plot}» за {amount}",
    "mortgaged": "{player} закладывает участок «{plot}» за {amount}",
    "redeemed": "{player} выкупает участок «{plot}» за {amount}",
    "traded": "Сделка: {player} {gave_all}; {other} {got_all}",
    "paid": "{player} → {to}: {amount}",
    "bankrupt_paid": "{player} → {to}: долг {amount}, отдано {from_debtor}",
    "bankrupt": "{player} — банкрот и выходит из игры",
    "wealth_count": "Подсчёт состояния: {wealth}",
    "winner": "Победитель: {player}!",
    "winners": "Победители: {winners}!",
    "undone": "Событие {event} (`{command}`) отменено",
    "offer_made": "Предложение сделки {number}: {player} → {other}: {gave} в обмен на {got}",
    "offer_open": "Открытое предложение сделки {number}: {player} → {other}: {gave} в обмен на {got}",
    "offer_accepted": "Предложение сделки {number} ({other} → {player}) принято",
    "offer_rejected": "Предложение сделки {number} ({other} → {player}) отклонено",
    "offer_withdrawn": "Предложение сделки {number} ({player} → {other}) отозвано",
    "offer_lapsed": "Предложение сделки {number} ({player} → {other}) больше не действует: {reason}",
    "shares_bought": "{player} покупает {count:p:акцию|акции|акций} по {price} (всего {amount})",
    "shares_sold": "{player} продаёт {count:p:акцию|акции|акций} по {price} (всего {amount})",
    "share_price": "Курс акций: {old} → {new}",
    "on_exchange": "{player} может сыграть на БИРЖЕ",
    "commission_paid": "{player} → {to}: {amount}, посреднический процент",
    "policy_expired": "{player}: {expired}",
    "insured": "{player} покупает {policy} полис за {amount}",
    "policy_used": "{player} использует {policy} полис: {reason}",
    "policy_covered": "{player}: {policy} полис страхует от этого",
    "policy_claim": "{player}: к оплате {amount} по карточке «{card}» — использовать ОРАНЖЕВЫЙ или КРАСНЫЙ полис или сохранить его и заплатить?",
    "policy_question": "Участок «{plot}» (владелец {player}) выставляется на аукцион: использовать ОРАНЖЕВЫЙ или КРАСНЫЙ полис или сохранить его?",
    "policy_kept": "{player} сохраняет полис",
    "insurer_paid": "Страховая компания → {player}: {amount}",
    "detained_stays": "{player} на клетке {cell}: без дубля фишка остаётся на месте",
    "plot_under_auction": "Судьба участка «{plot}» сейчас решается (аукцион или полис): до решения он не меняется",
    "not_a_roll": "{player} не может попасть на клетку {cell} этим броском ({steps:p:клетка|клетки|клеток})",
    "tax_exemption": "{player} освобождается от следующего кругового налога",
    "tax_exempted": "{player} не платит круговой налог: действует освобождение от налога",
    "fortune_in_force": "Эта карточка действует до следующей карточки ФОРТУНЫ",
    "jackpot_offered": "{player} может сыграть в ДЖЕКПОТ",
    "jackpot_played": "{player}: ставка {bet}, выпало: {symbols}",
    "jackpot_won": "{player} выигрывает {amount} в ДЖЕКПОТ",
    "jackpot_bet_back": "{player} забирает свою ставку {bet} из кассы «Джекпот»",
    "jackpot_lost": "{player} теряет ставку {bet}: она остаётся в кассе «Джекпот»",
    "empty_command": "Пустая команда",
    "unknown_command": "Неизвестная команда `{verb}`",
    "usage": "Формат: {usage}",
    "unknown_player": "Нет игрока с именем {player}",
    "player_out": "{player} уже вне игры",
    "unknown_plot": "Нет участка «{plot}»",
    "unknown_cell": "Нет клетки {cell}",
    "unknown_policy": "Нет полиса цвета «{policy}»",
    "not_a_number": "{what}: нужно число, а не «{value}»",
    "out_of_range": "{what}: {value} — вне пределов, нужно {bounds}",
    "dice_count": "Нужно {count:p:кубик|кубика|кубиков}: {usage}",
    "player_count": "Игроков в этой игре — от {min} до {max}, а не {given}",
    "bad_player_name": "«{name}» не может быть именем игрока",
    "duplicate_player": "У двух игроков одно имя",
    "game_over": "Игра окончена, победитель: {winner}",
    "game_already_started": "Игра уже идёт",
    "bad_seed": "Число для тасовки колод — целое от 0 до {high}, а не {seed}",
    "request_reused": "Запрос {request_id} уже использован для `{stored}` и не может нести `{submitted}`: нужен новый номер запроса",
    "table_only": "Только банкир (стол) может {verb}, а не {actor}",
    "not_yours": "Сейчас {verb} может только {player}, а не {actor}",
    "for_yourself": "{actor} может {verb} только за себя, а в команде назван игрок {player}",
    "owner_only": "Только {player}, владелец участка «{plot}», может {verb}, а не {actor}",
    "unknown_actor": "За столом нет игрока «{actor}» (игроки: {players})",
    "no_such_offer": "Нет открытого предложения сделки {number}",
    "bad_request_id": "Номер запроса — от 1 до {limit:p:печатного символа|печатных символов|печатных символов}",
    "debt_first": "{player} → {creditor}: сначала долг {amount}. {ways}",
    "pending_first": "Сначала завершите: {pending}{whose}",
    "already_rolled": "{player}: кубики уже брошены",
    "roll_first": "{player}: сначала бросьте кубики",
    "roll_again": "{player}: дубль, бросайте ещё раз",
    "insufficient_funds": "{player}: наличных {cash}, а нужно {amount} ({what})",
    "no_offer": "Сейчас ничего не продаётся",
    "no_auction": "Аукцион не идёт",
    "auction_has_bids": "На аукционе уже есть ставки",
    "bid_too_low": "Ставка {amount} мала: нужно не меньше {minimum}",
    "plot_unowned": "У участка «{plot}» нет владельца",
    "not_buildable": "На участке «{plot}» строить нельзя",
    "need_monopoly": "{player}: строить можно, только владея всей {group} «{industry}» без заложенных участков",
    "fully_built": "Участок «{plot}» застроен полностью",
    "build_evenly": "Стройте равномерно: сначала другие участки {group} «{industry}»",
    "sell_evenly": "Продавайте равномерно: сначала постройки с других участков {group} «{industry}»",
    "supply_out": "В БАНКЕ больше нет {kind:gen_pl}",
    "no_building": "На участке «{plot}» нет построек",
    "already_mortgaged": "Участок «{plot}» уже заложен",
    "sell_buildings_first": "Сначала продайте постройки на участке «{plot}»",
    "not_mortgaged": "Участок «{plot}» не заложен",
    "before_own_turn_only": "{player}: {action} можно только перед своим ходом",
    "before_roll_only": "{player}: это можно только до броска",
    "trade_cash_both_ways": "Деньги в сделке идут только в одну сторону",
    "not_owner": "{player} не владеет участком «{plot}»",
    "plot_built": "На участке «{plot}» есть постройки: сначала продайте их",
    "plot_mortgaged": "Участок «{plot}» заложен и не может сменить владельца",
    "no_draw": "Сейчас не нужно тянуть карточку",
    "card_not_in_deck": "Карточки «{card}» нет в колоде {deck}",
    "card_not_held": "{player}: карточки «{card}» на руках нет",
    "card_not_usable": "Карточку «{card}» так использовать нельзя",
    "no_choice": "Сейчас нечего выбирать",
    "not_an_option": "Клетка {cell} не из предложенных",
    "not_detained": "{player}: задержания нет",
    "not_in_debt": "{player}: долгов нет",
    "no_such_event": "Нет события {event}",
    "cannot_undo_start": "Начало игры отменить нельзя",
    "cannot_undo_undo": "Событие {event} само является отменой: повторите команду",
    "already_undone": "Событие {event} уже отменено",
    "too_old_to_undo": "Событие {event} слишком давнее (отменить можно только последние события, глубина отмены — {window:p:событие|события|событий})",
    "undo_blocked": "Событие {event} отменить нельзя: от него зависит событие {by} (`{command}`); сначала отмените его",
    "no_share_window": "{player} может купить акции только до начала игры, проходя СТАРТ или на БИРЖЕ",
    "bank_not_selling": "Курс акций 0: БАНК не продаёт акции",
    "exchange_trade_used": "{player}: сделка на БИРЖЕ {stage} уже совершена",
    "not_enough_shares": "{player}: на руках {held:p:акция|акции|акций}, а нужно {count}",
    "nobody_on_exchange": "На БИРЖЕ никого нет",
    "commission_self": "{player} на БИРЖЕ и торгует напрямую",
    "commission_used": "{player}: покупка через БИРЖУ в этот раз уже была",
    "not_on_exchange": "{player} не на БИРЖЕ",
    "exchange_played": "{player}: игра на БИРЖЕ уже была",
    "policy_not_for_debt": "Так можно использовать только ОРАНЖЕВЫЙ или КРАСНЫЙ полис, а не {policy}",
    "no_policy": "{player}: {policy:gen} полиса нет",
    "nothing_to_cover": "{player}: полису сейчас нечего покрывать",
    "no_auction_roll": "Бросок для АУКЦИОНА не нужен",
    "not_on_jackpot": "{player} не на клетке ДЖЕКПОТ",
    "line_too_long": "В строке {length:p:символ|символа|символов}, а читается не больше {limit}",
    "bad_character": "Невидимый или управляющий символ `{char}` в позиции {position}: наберите обычный текст",
    "unbalanced_quote": "Кавычка в позиции {position} не закрыта",
    "stray_quote": "Кавычка в позиции {position} внутри слова: в кавычки берут слово целиком",
    "empty_word": "Пустые кавычки в позиции {position}: напишите слово между ними",
    "trade_one_amount": "В сделке одна сумма с каждой стороны, а не {amounts}",
}

# ===== the editions' own codes, each edition's English and Russian side by side =====
# They join EN and RU below; a code already there keeps its text (test_messages checks that
# no edition's code is shadowed so).

# ----- Millionaire Classic (engine/classic.py); Deluxe uses these too ------------------------
CLASSIC = {
    "en": {
        "fund_taken": "{player} takes {amount} from the CHARITY FUND",
        "fund_empty": "The CHARITY FUND is empty: {player} takes nothing",
        "black_business": "{player}: BLACK BUSINESS, off to the CHARITY FUND",
        "black_business_fine": "{player} pays a fine of {amount} into the CHARITY FUND",
        "no_circle_income": "{player} moves to {cell}: no circle income",
    },
    "ru": {
        "fund_taken": "{player} забирает {amount} из БЛАГОТВОРИТЕЛЬНОГО ФОНДА",
        "fund_empty": "БЛАГОТВОРИТЕЛЬНЫЙ ФОНД пуст: {player} ничего не получает",
        "black_business": "{player}: «ЧЁРНЫЙ» БИЗНЕС, переход в БЛАГОТВОРИТЕЛЬНЫЙ ФОНД",
        "black_business_fine": "{player} платит штраф {amount} в БЛАГОТВОРИТЕЛЬНЫЙ ФОНД",
        "no_circle_income": "{player} переходит на клетку {cell}: без кругового дохода",
    },
}


# ----- Millionaire Deluxe (engine/deluxe.py): the rating scale -------------------------------
DELUXE = {
    "en": {
        "rating_up": "{player} moves up to step {step} of the rating scale ({reason})",
        "rating_down": "{player} moves down to step {step} of the rating scale ({reason})",
        "rating_blocked": "{player} stays on step {step}: every place on step {target} is taken ({reason})",
        "rating_bottom": "{player} is already at the foot of the rating scale ({reason})",
        "rating_top": "{player} reaches the top of the rating scale",
    },
    "ru": {
        "rating_up": "{player} поднимается на ступень {step} шкалы рейтинга ({reason})",
        "rating_down": "{player} опускается на ступень {step} шкалы рейтинга ({reason})",
        "rating_blocked": "{player} остаётся на ступени {step}: все места ступени {target} заняты ({reason})",
        "rating_bottom": "{player} уже у подножия шкалы рейтинга ({reason})",
        "rating_top": "{player} достигает вершины шкалы рейтинга",
    },
}


# ----- Monopoly (engine/monopoly.py) ---------------------------------------------------------
MONOPOLY = {
    "en": {
        "rent_roll_needed": "{player}: throw the dice for the rent of {plot} ({times} x the throw)",
        "rent_dice": "{player} throws {dice} for the rent",
        "card_rent_multiplied": "{player} pays {times} x the rent of {plot} (card)",
        "no_rent_jailed": "{player} is in jail: no rent for {plot}",
        "house_auction_opened": "Building shortage: one {kind} at auction ({left} left), opening {opening}",
        "house_bid": "{player} bids {amount} for a {kind}",
        "house_bid_lapsed": "{player} can no longer pay {amount}: the bid lapses, bidding for the {kind} reopens",
        "house_auction_won": "{player} wins a {kind} for {amount}: place it with `build`",
        "house_auction_no_bids": "No bids: the {kind} stays in the bank",
        "place_declined": "{player} does not take the {kind}",
        "hotels_sold_short": "{player} sells the hotels of {industry} without enough houses in the bank: +{amount}",
        "mortgage_transfer_due": "{player} receives mortgaged {plot}: redeem it now for {redeem}, or `keep_mortgage` and pay {interest} interest",
        "transfer_interest": "{player} pays {amount} interest on mortgaged {plot}",
        "bankrupt_to_player": "{player} is bankrupt to {to}, who takes {cash} cash, {plots} and {cards}",
        "bankrupt_to_bank": "{player} is bankrupt to the bank: {plots} return to the bank",
        "debt_lapsed": "The {amount} {player} owed to {to} is lost in the bankruptcy",
        "cards_traded": "{player} and {other} trade cards: {player} {gave_all}; {other} {got_all}",
        "pot_collected": "{player} collects the Free Parking pot: {amount}",
        "go_bonus": "{player} lands right on GO: {amount} more",
        "go_salary": "{player} passes {start_cell} and collects {amount}",
        "dealt": "{player} is dealt {plot} and pays {price}",
        "group_mortgaged": "A lot of {industry} is mortgaged: no building on {plot} until it is redeemed",
        "group_built": "{industry} has buildings: sell them to the bank before trading {plot}",
        "cannot_place": "{player} has no lot where a {kind} can go now",
        "place_won_building": "{player} first places the {kind} won at auction (`build`) or declines it",
        "no_rent_roll": "No rent throw is due",
        "no_mortgage_transfer": "No decision on mortgaged {plot} is due",
    },
    "ru": {
        "rent_roll_needed": "{player}: бросьте кубики для аренды за участок «{plot}» ({times} × сумма очков)",
        "rent_dice": "{player}: для аренды выпало {dice}",
        "card_rent_multiplied": "{player} платит аренду за участок «{plot}» в {times:p:раз|раза|раз} больше (карточка)",
        "no_rent_jailed": "{player} в тюрьме: аренда за участок «{plot}» не взимается",
        "house_auction_opened": "Нехватка построек: на аукционе {kind} (в БАНКЕ осталось: {left}), стартовая цена {opening}",
        "house_bid": "{player} предлагает {amount} за {kind:acc}",
        "house_bid_lapsed": "{player} уже не может заплатить {amount}: ставка снята, торги за {kind:acc} продолжаются",
        "house_auction_won": "{player} получает {kind:acc} за {amount}: поставьте его командой `build`",
        "house_auction_no_bids": "Ставок нет: {kind} остаётся в БАНКЕ",
        "place_declined": "{player} отказывается от {kind:gen}",
        "hotels_sold_short": "{player} продаёт отели группы «{industry}» при нехватке домов в БАНКЕ: +{amount}",
        "mortgage_transfer_due": "{player} получает заложенный участок «{plot}»: выкупите его сейчас за {redeem} или оставьте в залоге (`keep_mortgage`) и заплатите проценты: {interest}",
        "transfer_interest": "{player} платит проценты {amount} за заложенный участок «{plot}»",
        "bankrupt_to_player": "{player} — банкрот; кредитор {to} получает наличные {cash}, участки: {plots}; карточки: {cards}",
        "bankrupt_to_bank": "{player} — банкрот перед БАНКОМ; участки возвращаются в БАНК: {plots}",
        "debt_lapsed": "{player} → {to}: долг {amount} списан при банкротстве",
        "cards_traded": "Обмен карточками: {player} {gave_all}, {other} {got_all}",
        "pot_collected": "{player} забирает копилку Бесплатной стоянки: {amount}",
        "go_bonus": "{player} останавливается на клетке ВПЕРЁД: ещё {amount}",
        "go_salary": "{player} проходит клетку {start_cell} и получает {amount}",
        "dealt": "{player} получает участок «{plot}» и платит {price}",
        "group_mortgaged": "Участок группы «{industry}» заложен: строить на участке «{plot}» нельзя до выкупа",
        "group_built": "В группе «{industry}» есть постройки: продайте их в БАНК, прежде чем продавать участок «{plot}»",
        "cannot_place": "{player}: нет участка, куда сейчас можно поставить {kind:acc}",
        "place_won_building": "{player} сначала ставит выигранный {kind} (`build`) или отказывается от него",
        "no_rent_roll": "Бросок для аренды не нужен",
        "no_mortgage_transfer": "Решение по заложенному участку «{plot}» не требуется",
    },
}


# ----- Mad Millionaire (engine/madmillionaire.py) --------------------------------------------
MAD_MILLIONAIRE = {
    "en": {
        "small_claimed": "{player} takes {plot} free of charge",
        "stunt_revealed": "Publicity stunt: {card}",
        "stunts_reshuffled": "The publicity stunt cards are shuffled and reused",
        "sent_home": "{player} goes back to START ({reason})",
        "stunt_completed": "{player} completes the stunt at {cell}: +${amount} (runs {runs})",
        "business_offer": "{player} may buy {plot} for ${price} or lease it for ${lease}",
        "business_offer_taken": "{plot} is {holder}'s ({tenure})",
        "real_estate_offer": "{player} may buy or lease one business anywhere, or sell one",
        "business_leased": "{player} leases {plot} for ${price}",
        "lease_bought_out": "{player}'s lease on {plot} ends: refund ${amount}",
        "lease_converted": "{player} buys their leased {plot} for the difference ${amount}",
        "lease_ended": "{player} ends the lease on {plot}: refund ${amount}",
        "business_abandoned": "{player} takes the SOLD sign off {plot} without selling",
        "business_sold": "{player} sells {plot} at {face} (die {die}) for ${amount}",
        "six_rolled": "{player} rolls a six: take ${amount} or choose an opponent to miss a turn",
        "six_bonus": "{player} takes the ${amount} bonus",
        "finish_short": "{player} is on FINISH with ${cash}, needs ${target}",
        "claim_setup_only": "A free small business is chosen before the first roll",
        "claim_first": "Every player first chooses a free small business ({players})",
        "not_small": "{plot} is not one of the small single buildings",
        "already_claimed": "{player} already has a free business",
        "business_taken": "{plot} already has a SOLD sign on it",
        "unknown_business": "No business called {plot}",
        "no_reveal": "No publicity stunt card is to be turned over now",
        "no_move": "There is no move to make now",
        "unreachable": "A roll of {steps} cannot stop on {cell}",
        "no_sign_left": "{player} has no SOLD sign left: end a lease or take a sign off first",
        "already_bought": "{plot} is bought by {holder} and cannot be bought or leased",
        "not_offered": "{player} cannot buy or lease {plot} now",
        "no_lease_price": "{plot} has no lease price",
        "own_business": "{player} already holds {plot}",
        "not_your_lease": "{player} does not lease {plot}",
        "not_bought_by_you": "{player} has not bought {plot}",
        "sell_not_now": "{player} may sell only instead of moving or on a Real Estate space",
        "no_six": "No six to use now",
        "miss_self": "{player} must choose an opponent",
        "already_missing": "{player} is already waiting to miss a turn",
    },
    "ru": {
        "small_claimed": "{player} бесплатно получает предприятие «{plot}»",
        "stunt_revealed": "Рекламная акция: «{card}»",
        "stunts_reshuffled": "Карточки рекламных акций перетасованы и снова в игре",
        "sent_home": "{player} возвращается на СТАРТ: {reason}",
        "stunt_completed": "{player} проводит рекламную акцию на клетке {cell}: +${amount} (ряды предприятий: {runs})",
        "business_offer": "{player} может купить предприятие «{plot}» за ${price} или арендовать за ${lease}",
        "business_offer_taken": "Предприятие «{plot}» занято: {holder}, {tenure}",
        "real_estate_offer": "{player} может купить или арендовать любое предприятие или продать одно",
        "business_leased": "{player} арендует предприятие «{plot}» за ${price}",
        "lease_bought_out": "{player}: аренда предприятия «{plot}» окончена, возврат ${amount}",
        "lease_converted": "{player} выкупает арендованное предприятие «{plot}», доплата ${amount}",
        "lease_ended": "{player} прекращает аренду предприятия «{plot}»: возврат ${amount}",
        "business_abandoned": "{player} снимает табличку SOLD с предприятия «{plot}» без продажи",
        "business_sold": "{player} продаёт предприятие «{plot}» {face} (кубик {die}): ${amount}",
        "six_rolled": "{player}: шестёрка! Взять ${amount} или выбрать соперника, который пропустит ход",
        "six_bonus": "{player} берёт премию ${amount}",
        "finish_short": "{player} на ФИНИШЕ: ${cash}, а нужно ${target}",
        "claim_setup_only": "Бесплатное малое предприятие выбирают до первого броска",
        "claim_first": "Сначала каждый выбирает бесплатное малое предприятие (ещё не выбрали: {players})",
        "not_small": "Предприятие «{plot}» — не из шести малых отдельных зданий",
        "already_claimed": "{player}: бесплатное предприятие уже выбрано",
        "business_taken": "На предприятии «{plot}» уже стоит табличка SOLD",
        "unknown_business": "Нет предприятия «{plot}»",
        "no_reveal": "Сейчас не нужно открывать карточку рекламной акции",
        "no_move": "Сейчас нет хода",
        "unreachable": "Бросок {steps}: на клетке {cell} не остановиться",
        "no_sign_left": "{player}: табличек SOLD не осталось — прекратите аренду или снимите табличку",
        "already_bought": "Предприятие «{plot}» уже куплено (владелец: {holder}): его нельзя купить или арендовать",
        "not_offered": "{player} не может сейчас купить или арендовать предприятие «{plot}»",
        "no_lease_price": "У предприятия «{plot}» нет цены аренды",
        "own_business": "{player}: предприятие «{plot}» уже ваше",
        "not_your_lease": "{player} не арендует предприятие «{plot}»",
        "not_bought_by_you": "Предприятие «{plot}» не куплено игроком {player}",
        "sell_not_now": "{player} продаёт только вместо хода или на клетке «Недвижимость»",
        "no_six": "Сейчас нет шестёрки",
        "miss_self": "{player}: пропустить ход должен соперник",
        "already_missing": "{player} уже пропускает ход",
    },
}

EDITIONS = {"madmillionaire": MAD_MILLIONAIRE, "classic": CLASSIC, "deluxe": DELUXE, "monopoly": MONOPOLY}
for _texts in EDITIONS.values():
    for _code, _text in _texts["en"].items():
        EN.setdefault(_code, _text)
    for _code, _text in _texts["ru"].items():
        RU.setdefault(_code, _text)

# words for the `reason` parameter, which carries a code too
REASONS = {
    "en": {
        "rent_paid": "rent",
        "circle_tax": "circle tax",
        "card_paid": "a card",
        "tax_paid": "tax",
        "fine_paid": "a fine",
        "black_business_fine": "BLACK BUSINESS fine",
        "transfer_interest": "10% interest on a mortgaged lot",
        "fortune": "a FORTUNE card",
        "auction": "an auction",
        "side": "a 5 or 6 on the first roll",
        "mortgaged": "the plot is mortgaged",
        "built": "the plot has buildings",
        "insured": "the owner is insured",
        "revealed": "a new stunt card shows this spot",
        "duplicate": "another face-up card shows this spot",
        "replaced": "a newer offer replaces it",
        "holdings": "what one side holds has changed",
        "turn": "the turn is over",
    },
    "ru": {
        "rent_paid": "аренда",
        "circle_tax": "круговой налог",
        "card_paid": "карточка",
        "tax_paid": "налог",
        "fine_paid": "штраф",
        "black_business_fine": "штраф ЧЁРНОГО БИЗНЕСА",
        "transfer_interest": "10% за заложенный участок",
        "fortune": "карточка ФОРТУНЫ",
        "auction": "аукцион",
        "side": "при первом броске выпало 5 или 6",
        "mortgaged": "участок заложен",
        "built": "на участке есть постройки",
        "insured": "владелец застрахован",
        "revealed": "открыта карточка трюка на этом месте",
        "duplicate": "это место есть на другой открытой карточке",
        "replaced": "его сменило новое предложение",
        "holdings": "у одной из сторон изменилось имущество",
        "turn": "ход закончился",
    },
}

# what each command does, for refusals that name a command ("Only Anna may roll the dice now")
VERBS = {
    "en": {
        "roll": "roll the dice",
        "end": "end the turn",
        "buy": "buy the plot",
        "decline": "decline the plot",
        "bid": "bid",
        "opening": "set the opening price",
        "hammer": "close the auction",
        "build": "build",
        "sell_building": "sell a building",
        "mortgage": "mortgage a plot",
        "redeem": "redeem a plot",
        "trade": "propose a trade",
        "accept": "accept the offer",
        "reject": "reject the offer",
        "withdraw": "withdraw the offer",
        "pay": "pay",
        "draw": "draw the card",
        "choose": "choose the cell",
        "pay_fine": "pay the fine",
        "use_card": "use the card",
        "land": "say where the token landed",
        "bankrupt": "declare bankruptcy",
        "end_game": "end the game",
        "undo": "undo an event",
        "jackpot": "play the JACKPOT",
        "buy_shares": "buy shares",
        "sell_shares": "sell shares",
        "commission": "buy shares through the broker",
        "exchange": "play the EXCHANGE",
        "insure": "buy a policy",
        "use_policy": "use a policy",
        "skip_policy": "keep the policy",
        "auction_roll": "roll for the AUCTION",
        "rent_roll": "roll for the rent",
        "house_auction": "auction a building",
        "keep_mortgage": "keep the lot mortgaged",
        "claim": "take a free business",
        "reveal": "turn over a stunt card",
        "move": "say where the car stopped",
        "lease": "lease a business",
        "end_lease": "end a lease",
        "abandon": "take a SOLD sign off",
        "sell": "sell a business",
        "bonus": "take the bonus",
        "miss": "choose who misses a turn",
    },
    "ru": {
        "roll": "бросить кубики",
        "end": "закончить ход",
        "buy": "купить участок",
        "decline": "отказаться от участка",
        "bid": "делать ставку",
        "opening": "назначить стартовую цену",
        "hammer": "закрыть торги",
        "build": "строить",
        "sell_building": "продать постройку",
        "mortgage": "заложить участок",
        "redeem": "выкупить участок",
        "trade": "предложить сделку",
        "accept": "принять предложение",
        "reject": "отклонить предложение",
        "withdraw": "отозвать предложение",
        "pay": "платить",
        "draw": "взять карточку",
        "choose": "выбрать клетку",
        "pay_fine": "заплатить штраф",
        "use_card": "использовать карточку",
        "land": "указать, куда встала фишка",
        "bankrupt": "объявить себя банкротом",
        "end_game": "закончить игру",
        "undo": "отменить событие",
        "jackpot": "играть в ДЖЕКПОТ",
        "buy_shares": "покупать акции",
        "sell_shares": "продавать акции",
        "commission": "покупать акции через маклера",
        "exchange": "играть на БИРЖЕ",
        "insure": "покупать страховой полис",
        "use_policy": "применить полис",
        "skip_policy": "сохранить полис",
        "auction_roll": "бросить кубики для АУКЦИОНА",
        "rent_roll": "бросить кубики для аренды",
        "house_auction": "выставить постройку на аукцион",
        "keep_mortgage": "оставить участок в залоге",
        "claim": "взять бесплатное предприятие",
        "reveal": "открыть карточку рекламной акции",
        "move": "указать, где остановилась машина",
        "lease": "арендовать предприятие",
        "end_lease": "прекратить аренду",
        "abandon": "снять табличку SOLD",
        "sell": "продать предприятие",
        "bonus": "взять премию",
        "miss": "выбрать, кто пропустит ход",
    },
}

# ----- an undo's notes: what to put back on the board (Rules.board_changes) ------------------
PUT_BACK = {
    "en": {
        "put_token": "Put back: {player}'s token on {cell}",
        "put_buildings": "Put back: {buildings} on {plot}",
        "put_deed": "Put back: the deed of {plot} to {player}",
        "put_mortgaged": "Put back: {plot} mortgaged (its deed face down)",
        "put_redeemed": "Put back: {plot} not mortgaged (its deed face up)",
        "put_kept_card": "Put back: the card {card} to {player}",
        "put_card_on_top": "Put back: the card {card} on top of its deck",
        "put_items": "Put back: {player} holds {held_words}",
        "put_price": "Put back: the share price marker on {price}",
        "put_fortune": "Put back: FORTUNE cards on the wheel: {cards}",
        "put_stunts": "Put back: the stunt cards face up: {cards}",
        "can_still_pay": "{player} owes {amount} but could still raise {could} (sell buildings, mortgage plots, "
        "sell shares): no bankruptcy yet",
        "large_sold_short": "{player} sells the enterprises of {industry} at once (the bank has no branches to "
        "give back): +{amount}",
        "card_kept_until_paid": "{player} cannot pay {amount} for {card} now and keeps the card until they can",
        "card_carried_out": "{player} can now carry out {card}",
        "building_at_auction": "The last {kind}s are at auction: bid for one instead",
        "no_shortage_auctions": "This table plays without shortage auctions",
        "no_rival_builder": "Nobody else could place a {kind} now: build on {plot} directly",
    },
    "ru": {
        "put_token": "Вернуть: фишку игрока {player} на клетку {cell}",
        "put_buildings": "Вернуть: на участке «{plot}» — {buildings}",
        "put_deed": "Вернуть: карточку участка «{plot}» — {player}",
        "put_mortgaged": "Вернуть: участок «{plot}» в залог (карточку рубашкой вверх)",
        "put_redeemed": "Вернуть: участок «{plot}» без залога (карточку лицом вверх)",
        "put_kept_card": "Вернуть: карточку «{card}» игроку {player}",
        "put_card_on_top": "Вернуть: карточку «{card}» наверх её колоды",
        "put_items": "Вернуть: у игрока {player} — {held_words}",
        "put_price": "Вернуть: курс акций на отметку {price}",
        "put_fortune": "Вернуть: на КОЛЕСО ФОРТУНЫ карточки: {cards}",
        "put_stunts": "Вернуть: открытые карточки рекламных акций: {cards}",
        "can_still_pay": "{player}: долг {amount}, но можно собрать ещё {could} (продать постройки, заложить "
        "участки, продать акции) — банкротство пока не объявляется",
        "large_sold_short": "{player}: предприятия отрасли «{industry}» проданы все сразу (в БАНКЕ нет филиалов "
        "на замену): +{amount}",
        "card_kept_until_paid": "{player}: заплатить {amount} по карточке «{card}» пока нечем — карточка остаётся "
        "у игрока до уплаты",
        "card_carried_out": "{player}: карточка «{card}» выполнена",
        "building_at_auction": "Последние постройки этого вида ({kind}) на аукционе: делайте ставку",
        "no_shortage_auctions": "За этим столом аукционов при нехватке построек нет",
        "no_rival_builder": "Больше никто не может сейчас поставить {kind}: стройте на «{plot}» сразу",
    },
}
EN.update(PUT_BACK["en"])
RU.update(PUT_BACK["ru"])

# ===== the edge's own codes: the ledger, the table service, scripts and the command line =====
# The ledger (companion/ledger/) and the table (companion/table/service.py) raise LedgerError and its kinds
# with a code and parameters (errors.Said); scripts (companion/table/script.py) say what failed on which
# line; the command line (companion/cli/__init__.py) says what argparse found. A file's path, a command or
# a word as typed stands as typed; what the machine says (an OS or SQLite error) is said in words
# when its code is known (`detail` with its `cause`), else quoted as the machine said it.
EDGE = {
    "en": {
        # ----- the ledger file (companion/ledger/store.py, schema.py) -----
        "ledger_no_game": "{path} holds no game yet (start one with `companion new`)",
        # issue 21: phone reads
        "history_other_game": "{path} now holds another game than the one on the box: reload the page",
        "ledger_folder": "{path} is a folder, not a game ledger",
        "ledger_unreadable": "{path}: cannot be read ({detail})",
        "ledger_not_sqlite": "{path} is not a companion ledger (not an SQLite database); it was left unchanged",
        "ledger_foreign_file": "{path} is not a companion ledger (a damaged or foreign SQLite file); "
        "it was left unchanged",
        "ledger_foreign_database": "{path} is not a companion ledger (another program's SQLite database); "
        "it was left unchanged",
        "ledger_not_utf8": "{path}: the ledger file is damaged (text that is not UTF-8): see `companion recover`",
        "ledger_damaged_file": "{path}: the ledger file is damaged ({detail}): see `companion recover`",
        "ledger_disk_full": "{path}: the disk is full: {doing}",
        "ledger_busy": "{path}: another program holds the game too long (busy): try again",
        "ledger_read_only": "{path}: the ledger is read-only here: {doing}",
        "ledger_cannot_open": "{path}: cannot open the ledger or its -wal/-shm files (check the folder's "
        "permissions and free space): {doing}",
        "ledger_failed": "{path}: {doing} ({detail})",
        "ledger_old_schema": "{path} uses schema {found}: open it writable once (e.g. `companion do`) "
        "to bring it to schema {version}",
        "ledger_wal_needs_write": "{path}: the game's -wal file holds events that need recovery, which needs "
        "write access: mount it writable (or copy the folder) to read it",
        "ledger_exists": "{path} already exists: choose another file for a new game",
        "ledger_leftover": "{path}{suffix} is left over from another game: move it away first",
        "ledger_open_read_only": "{path} is open read-only: nothing can be written",
        "ledger_other_writer": "{path}: another program wrote to this game meanwhile ({detail}); nothing was written",
        "ledger_write_unknown": "{path}: the disk failed while storing the write ({detail}): it may or may "
        "not be stored; nothing more is written until a later sync tells which",
        "ledger_event_unknown": "{path}: the disk failed while storing event #{seq} ({command}) ({detail}): it "
        "may or may not be stored; nothing more is written until a later sync tells which",
        "ledger_no_space": "{path}: the disk is full ({free} KiB free): nothing was written; free some space "
        "and repeat the command (with the same request id)",
        "ledger_no_settings": "{path}: the game's settings are missing: see `companion recover`",
        "ledger_schema_missing": "{path}: the ledger's schema was changed ({object} is missing): "
        "see `companion recover`",
        "ledger_schema_added": "{path}: the ledger's schema was changed ({object} was added): see `companion recover`",
        "ledger_event_damaged": "{path}: event {seq} is damaged: see `companion recover`",
        "ledger_postings_changed": "{path}: the postings of event {seq} were changed after it was written: "
        "see `companion recover`",
        "ledger_postings_orphaned": "{path}: postings for event {seq} have no event",
        "ledger_events_missing": "{path}: events are missing (the ledger holds {count:p:event|events} numbered "
        "{first} to {last}): see `companion recover`",
        "ledger_hash_mismatch": "{path}: event {seq} does not match its hash: the ledger was changed after it "
        "was written; see `companion recover`",
        "ledger_request_changed": "{path}: event {seq}'s request id was changed: see `companion recover`",
        "ledger_not_empty": "this SQLite file already holds tables: it is not an empty ledger",
        "ledger_schema_1": "{path} was written by an older companion (schema 1, before the hash chain): copy "
        "it into a new file with `companion recover --db {path} --to NEW`",
        "ledger_newer": "{path} was written by a newer companion (schema {version}, this one knows "
        "{supported}): update the companion",
        "ledger_bad_version": "{path} has a companion mark but schema version {version}: not a ledger",
        # ----- the table service (companion/table/service.py): opening, writing, the anchor, recovery -----
        "table_unresolved": "{unknown} (resolve it first)",
        "table_disk_full": "{path}: the disk is full: event #{seq} was not written; free some space and "
        "repeat the command (with the same request id)",
        "table_anchor_not_marked": "the anchor could not be marked done ({detail})",
        "table_backup_failed": "the backup beside the ledger failed: {detail}",
        "table_went_back": "{path}: the ledger went back from event {had} to {seq} while the game was open: "
        "see `companion recover`",
        "table_off_chain": "{path}: event {seq} does not follow the chain this table holds: see `companion recover`",
        "table_sync_failed": "{unknown} (a later sync failed too: {error})",
        "table_not_reopened": "{unknown} (the ledger cannot be reopened yet: {error})",
        "anchor_forked": "{path}: event {seq} differs from the one this machine stored (the ledger was "
        "rewritten or forked): see `companion recover`",
        "anchor_went_back": "{path}: the ledger went back: it ends at event {seq}, but this machine stored "
        "event {anchored} (an older copy, or events deleted): see `companion recover`",
        "anchor_went_far_back": "{path}: the ledger went back: it ends at event {seq}, but this machine "
        "stored up to event {anchored}: see `companion recover`",
        "anchor_foreign_events": "{path}: events {start}-{seq} were not written by this machine's companion "
        "(added by hand or by another copy): see `companion recover`",
        "table_create_unknown": "{path}: the disk failed while the game was being created; nothing was kept: "
        "start it again",
        "table_create_failed": "{path}: the game could not be created ({detail}); nothing was kept",
        "table_settings_lack": "{path}: the game's settings lack {key}: see `companion recover`",
        "table_postings_differ": "{path}: the postings table's sums differ from the events (it was changed "
        "after they were written): see `companion recover`",
        "table_kept_changing": "{path}: the game kept changing while it was read: try again",
        "table_edition_copies_differ": "{path}: the stored edition's text and its parsed copy differ",
        "table_edition_broken": "{path}: the stored edition is broken ({detail}): see `companion recover`",
        "table_edition_mismatch": "{path}: the stored edition is '{stored_edition}', the settings say "
        "'{settings_edition}'",
        "table_rules_version": "{path} was written under rules version {written}; this companion has rules "
        "version {current} and replays it differently ({detail}): open it with a "
        "companion of rules version {written}",
        "table_checkpoint_hash": "{path}: the checkpoint at event {seq} does not match its hash: "
        "see `companion recover`",
        "table_checkpoint_unreadable": "{path}: the checkpoint at event {seq} cannot be read ({detail})",
        "recover_unreadable": "{path}: nothing can be read ({detail})",
        "recover_no_settings": "{path}: the game's settings cannot be read ({detail}); nothing to recover",
        "recover_incomplete_settings": "{path}: the game's settings are incomplete; nothing to recover",
        "recover_nothing": "{path}: no event can be verified here or in a backup ({errors}): nothing to recover",
        "recover_no_start": "{path}: the game's start cannot be read ({error}); nothing to recover",
        "recover_done": "recovered {count:p:event|events} from {source} into {new_path}, a new game (recovered "
        "from game {game} ({path}) at event {seq}, head {head})",
        "recover_left_out": "events {start}-{end} were not written by this machine: left out",
        "recover_lost": "this machine stored up to event {anchored}; events {start}-{end} are lost: enter them again",
        "recover_differs": "the ledger's events differ from what this machine stored at event {anchored}: the "
        "recovered events are as the file holds them; check them",
        "recover_stopped": "event {seq} ({command}) no longer applies: recovery stops before it",
        # issue 21: a stranger's ledger, checkpoints and replays checked (companion/table/service.py, companion accept)
        "table_read_only": "Nothing was booked: {error}",
        "stranger_copied": "this machine has never kept game {game} ({count:p:event|events}, head {head}): it is "
        "shown read-only, as a stranger's game; `companion accept` makes it this machine's own, "
        "trusting the file as it stands (changes made to it before cannot be noticed, later "
        "ones will be)",
        "stranger_anchor_gone": "this machine kept game {game}, but its anchor for it is gone: events cut or "
        "rewritten since then cannot be noticed; it is shown read-only "
        "({count:p:event|events}, head {head}) until `companion accept` takes the file as "
        "it stands",
        "stranger_replaced": "this file's place held game {kept}; it now holds game {game} ({count:p:event|events}, "
        "head {head}): another game, or one given a new id, is shown read-only until "
        "`companion accept` takes it as this place's game, trusting the file as it stands",
        "table_place_not_kept": "this machine could not record which game this file holds ({detail}): a file "
        "put in its place would go unnoticed",
        "table_replay_differs": "{path}: event {seq} does not replay to what the ledger holds, although its hash "
        "chain is intact: the file was made or changed outside this companion (or by a "
        "bug): see `companion recover`",
        "table_checkpoint_state": "{path}: the checkpoint at event {seq} does not match the game replayed to it: "
        "see `companion recover`",
        "table_checkpoint_missing": "{path}: the checkpoint at event {seq} is missing: see `companion recover`",
        "table_checkpoint_stray": "{path}: a checkpoint at event {seq} is not in the hash chain (added after the "
        "event was written): see `companion recover`",
        "accepted": "accepted: this machine now keeps game {game} ({count:p:event|events}, head {head}) as its "
        "own. The file was taken as it stands: what was done to it before cannot be noticed; a file "
        "cut short, rewritten or put in its place from now on will be",
        "accept_not_needed": "game {game} is already this machine's own: nothing to accept",
        "game_accepted": "Game {game} accepted as the box's own at #{seq}: bookings are open",
        # ----- companion do (companion/cli/__init__.py) and files the command line names -----
        "do_unknown_retry": "{unknown} When the disk works again, run `companion do --request-id {request_id} "
        "{retry}`: it is answered from the ledger and never booked twice",
        "do_not_stored": "the disk failed while storing `{command}`, and a later synced look shows it was NOT "
        "stored: nothing was booked; repeat it with `companion do --request-id {request_id} "
        "{retry}`",
        "do_stored": "the disk failed while storing event #{seq}; a later synced look shows it IS stored",
        "file_error": "{path}: {detail}",
        "os_error": "{detail}",
        # ----- the command line itself (argparse, companion/cli/__init__.py) -----
        "usage_line": "{problem}; see `{prog} --help`",
        "usage_unknown_command": "unknown command '{value}' (choose from {choices})",
        "usage_no_command": "a command is required (choose from {choices})",
        "usage_invalid_choice": "argument {option}: invalid choice: '{value}' (choose from {choices})",
        "usage_invalid_value": "argument {option}: invalid {type} value: '{value}'",
        "usage_expected_one": "argument {option}: expected one argument",
        "usage_expected_at_most_one": "argument {option}: expected at most one argument",
        "usage_expected_at_least_one": "argument {option}: expected at least one argument",
        "usage_expected_count": "argument {option}: expected {count:p:argument|arguments}",
        "usage_explicit_ignored": "argument {option}: ignored explicit argument '{value}'",
        "usage_not_allowed": "argument {option}: not allowed with argument {other_option}",
        "usage_ambiguous": "ambiguous option: {option} could match {matches}",
        "usage_unrecognized": "unrecognized arguments: {words}",
        "usage_required": "the following arguments are required: {names}",
        "usage_one_of": "one of the arguments {names} is required",
        "usage_other": "{detail}",
        # ----- game scripts (companion/table/script.py): FILE:LINE: `the line`: the problem -----
        "script_line": "{where}: `{line}`: {problem}",
        "script_file": "{where}: {problem}",
        "script_no_stdin": "there is no standard input to read",
        "script_unreadable": "cannot read the file: {detail}",
        "script_not_utf8": "not UTF-8 text: byte 0x{byte} at byte offset {offset} cannot be read",
        "script_no_game": "the script holds no game",
        "script_what": "{name}: what? (a command follows the name and colon)",
        "script_no_actor": "`{keyword}` lines take no actor; write `expect refused NAME: COMMAND...` to check "
        "a player's command",
        "script_one_game": "a script plays one game",
        "script_start": "the script must start with `new EDITION SEED PLAYER...`",
        "script_bad_line": "{refusal}",
        "script_refused": "refused: {refusal}",
        "script_error": "{error}",
        "expect_no_player": "no player named {name} (players: {players})",
        "expect_no_account": "no account named {name} (players: {players}; accounts: {accounts})",
        "expect_no_plot": "no plot called {ref}",
        "expect_no_cell": "no cell called {ref}",
        "expect_not_number": "'{word}' is not a whole number",
        "expect_yes_no": "'{word}' must be yes or no",
        "expect_what": "expect what? (see docs/script-language.md)",
        "expect_usage": "usage: {usage}",
        "expect_refused_other": "refused with `{actual}`, expected `{expected}`: {refusal}",
        "expect_accepted": "the command was accepted",
        "expect_unknown": "unknown expectation '{expectation}' (known: {known})",
        "expect_cash": "{account} has {actual}, expected {wanted}",
        "expect_owner": "{ref} is owned by {actual}, expected {wanted}",
        "expect_position": "{player} is on {got_cell}, expected {want_cell}",
        "expect_level": "{ref} has level {actual}, expected {wanted}",
        "expect_held": "{player} holds {actual} {held_item}, expected {wanted}",
        "expect_extra": "{key} is {actual}, expected {wanted}",
        "expect_turn": "it is {actual}'s turn, expected {wanted}",
        "expect_pending": "waiting for `{got_pending}`, expected `{want_pending}`",
        "expect_debt": "{player} owes {actual}, expected {wanted}",
        "expect_flag": "{subject} {flag}: {actual}, expected {wanted}",
        "expect_winner": "winner is {actual}, expected {wanted}",
        "expect_note": "the last event says {codes}, not `{note}`",
        # issue 21: watch (the files under the running daemon, a read-only card, warnings on every screen)
        "table_ledger_deleted": "{path} was deleted while the box was running; the box wrote its game (up to "
        "#{seq}) back there. Nothing more is booked until the box is restarted",
        "table_ledger_deleted_saved": "{path} was deleted while the box was running; its game (up to #{seq}) "
        "is saved as {saved}. Nothing more is booked: put that file back as "
        "{path} and restart the box",
        "table_ledger_moved": "{path} was moved away or renamed while the box was running (the file still "
        "exists elsewhere, up to #{seq}). Nothing more is booked: put it back as {path} "
        "and restart the box",
        "table_ledger_replaced": "{path} was replaced by another file while the box was running; the box's own "
        "game (up to #{seq}) is saved as {saved}. Nothing more is booked: restart the "
        "box, which checks the new file against this machine's anchor",
        "table_ledger_unsaved": "{path} was deleted or replaced while the box was running, and its game (up to "
        "#{seq}) could not be saved ({detail}). Nothing more is booked; do not switch "
        "the box off: the game is now only in its memory and on the screens",
        "table_anchor_deleted": "This game's anchor {anchor} was deleted or moved while the box was running; the "
        "box wrote it back (up to #{seq}). Nothing more is booked until the box is "
        "restarted",
        "table_anchor_lost": "This game's anchor {anchor} was deleted while the box was running and could not "
        "be written back. Nothing more is booked; the next start will say that this "
        "machine has no anchor for the game (up to #{seq})",
        "table_anchor_replaced": "This game's anchor {anchor} was replaced by another file while the box was "
        "running. Nothing more is booked: restart the box, which checks the game "
        "(up to #{seq}) against the new anchor",
        "table_card_read_only": "{folder} is on a read-only card: the game is shown, but nothing can be booked "
        "(mount the card writable, or use another card, and restart the box)",
        "table_folder_read_only": "{folder} cannot be written ({detail}): the game is shown, but nothing can be booked",
    },
    "ru": {
        "ledger_no_game": "В файле {path} ещё нет игры (начните её командой `companion new`)",
        # issue 21: phone reads
        "history_other_game": "В файле {path} теперь другая игра, не та, что открыта на коробке: обновите страницу",
        "ledger_folder": "{path} — это папка, а не журнал игры",
        "ledger_unreadable": "{path}: файл не удаётся прочитать ({detail})",
        "ledger_not_sqlite": "{path} — не журнал игры (это не база данных SQLite); файл не тронут",
        "ledger_foreign_file": "{path} — не журнал игры (повреждённый или чужой файл SQLite); файл не тронут",
        "ledger_foreign_database": "{path} — не журнал игры (база данных SQLite другой программы); файл не тронут",
        "ledger_not_utf8": "{path}: файл журнала повреждён (текст не в кодировке UTF-8): см. `companion recover`",
        "ledger_damaged_file": "{path}: файл журнала повреждён ({detail}): см. `companion recover`",
        "ledger_disk_full": "{path}: диск заполнен: {doing}",
        "ledger_busy": "{path}: другая программа слишком долго занимает игру: повторите попытку",
        "ledger_read_only": "{path}: здесь журнал доступен только для чтения: {doing}",
        "ledger_cannot_open": "{path}: не удаётся открыть журнал или его файлы `-wal` и `-shm` (проверьте права "
        "на папку и свободное место): {doing}",
        "ledger_failed": "{path}: {doing} ({detail})",
        "ledger_old_schema": "Журнал {path} в схеме {found}: откройте его один раз на запись (например, "
        "`companion do`), чтобы перевести на схему {version}",
        "ledger_wal_needs_write": "{path}: в файле `-wal` есть события, которые надо восстановить, а для этого "
        "нужен доступ на запись: подключите диск на запись (или скопируйте папку), "
        "чтобы прочитать игру",
        "ledger_exists": "Файл {path} уже существует: для новой игры выберите другой файл",
        "ledger_leftover": "Файл {path}{suffix} остался от другой игры: сначала уберите его",
        "ledger_open_read_only": "Журнал {path} открыт только для чтения: записать ничего нельзя",
        "ledger_other_writer": "{path}: тем временем в эту игру записала другая программа ({detail}); "
        "ничего не записано",
        "ledger_write_unknown": "{path}: сбой диска во время записи ({detail}): неизвестно, сохранилась ли она; "
        "больше ничего не записывается, пока следующая синхронизация этого не покажет",
        "ledger_event_unknown": "{path}: сбой диска во время записи события {seq} (`{command}`) ({detail}): "
        "неизвестно, сохранилось ли оно; больше ничего не записывается, пока следующая "
        "синхронизация этого не покажет",
        "ledger_no_space": "{path}: диск заполнен (свободно {free} КиБ): ничего не записано; освободите место "
        "и повторите команду (с тем же номером запроса)",
        "ledger_no_settings": "{path}: нет настроек игры: см. `companion recover`",
        "ledger_schema_missing": "{path}: схема журнала изменена (нет {object}): см. `companion recover`",
        "ledger_schema_added": "{path}: схема журнала изменена (добавлено лишнее: {object}): см. `companion recover`",
        "ledger_event_damaged": "{path}: событие {seq} повреждено: см. `companion recover`",
        "ledger_postings_changed": "{path}: проводки события {seq} изменены после его записи: см. `companion recover`",
        "ledger_postings_orphaned": "{path}: есть проводки события {seq}, а самого события нет",
        "ledger_events_missing": "{path}: не хватает событий (в журнале {count:p:событие|события|событий} "
        "с номерами от {first} до {last}): см. `companion recover`",
        "ledger_hash_mismatch": "{path}: событие {seq} не сходится со своим хешем: журнал изменили после "
        "записи; см. `companion recover`",
        "ledger_request_changed": "{path}: у события {seq} изменён номер запроса: см. `companion recover`",
        "ledger_not_empty": "В этом файле SQLite уже есть таблицы: это не пустой журнал",
        "ledger_schema_1": "Журнал {path} записан старой версией программы (схема 1, ещё без цепочки хешей): "
        "перенесите его в новый файл командой `companion recover --db {path} --to НОВЫЙ`",
        "ledger_newer": "Журнал {path} записан более новой версией программы (схема {version}, а эта версия "
        "знает схему {supported}): обновите программу",
        "ledger_bad_version": "У файла {path} метка журнала игры, но версия схемы {version}: это не журнал",
        "table_unresolved": "{unknown} (сначала выясните, чем кончилась запись)",
        "table_disk_full": "{path}: диск заполнен: событие {seq} не записано; освободите место и повторите "
        "команду (с тем же номером запроса)",
        "table_anchor_not_marked": "Якорь не удалось отметить как завершённый ({detail})",
        "table_backup_failed": "Резервную копию рядом с журналом сделать не удалось: {detail}",
        "table_went_back": "{path}: пока игра была открыта, журнал откатился с события {had} на событие {seq}: "
        "см. `companion recover`",
        "table_off_chain": "{path}: событие {seq} не продолжает цепочку хешей, известную этому столу: "
        "см. `companion recover`",
        "table_sync_failed": "{unknown} (следующая синхронизация тоже не удалась: {error})",
        "table_not_reopened": "{unknown} (журнал пока не удаётся открыть заново: {error})",
        "anchor_forked": "{path}: событие {seq} не совпадает с записанным на этом устройстве (журнал переписан "
        "или раздвоился): см. `companion recover`",
        "anchor_went_back": "{path}: журнал откатился: он кончается событием {seq}, а на этом устройстве "
        "записано событие {anchored} (старая копия или удалённые события): "
        "см. `companion recover`",
        "anchor_went_far_back": "{path}: журнал откатился: он кончается событием {seq}, а на этом устройстве "
        "записаны события до {anchored} включительно: см. `companion recover`",
        "anchor_foreign_events": "{path}: события {start}–{seq} записаны не этой программой на этом устройстве "
        "(добавлены вручную или другой копией): см. `companion recover`",
        "table_create_unknown": "{path}: сбой диска при создании игры; ничего не сохранено: начните игру заново",
        "table_create_failed": "{path}: игру не удалось создать ({detail}); ничего не сохранено",
        "table_settings_lack": "{path}: в настройках игры нет ключа `{key}`: см. `companion recover`",
        "table_postings_differ": "{path}: суммы в таблице проводок расходятся с событиями (таблицу изменили "
        "после их записи): см. `companion recover`",
        "table_kept_changing": "{path}: игра всё время менялась, пока её читали: повторите попытку",
        "table_edition_copies_differ": "{path}: сохранённый текст издания расходится с его разобранной копией",
        "table_edition_broken": "{path}: сохранённое издание испорчено ({detail}): см. `companion recover`",
        "table_edition_mismatch": "{path}: сохранено издание `{stored_edition}`, а в настройках указано "
        "`{settings_edition}`",
        "table_rules_version": "Журнал {path} записан по правилам версии {written}, а у этой программы правила "
        "версии {current}, и она воспроизводит его иначе ({detail}): откройте его "
        "программой с правилами версии {written}",
        "table_checkpoint_hash": "{path}: контрольная точка на событии {seq} не сходится со своим хешем: "
        "см. `companion recover`",
        "table_checkpoint_unreadable": "{path}: контрольную точку на событии {seq} не удаётся прочитать ({detail})",
        "recover_unreadable": "{path}: ничего не удаётся прочитать ({detail})",
        "recover_no_settings": "{path}: настройки игры не удаётся прочитать ({detail}); восстанавливать нечего",
        "recover_incomplete_settings": "{path}: настройки игры неполны; восстанавливать нечего",
        "recover_nothing": "{path}: ни одно событие не проходит проверку ни здесь, ни в резервной копии "
        "({errors}): восстанавливать нечего",
        "recover_no_start": "{path}: начало игры не удаётся прочитать ({error}); восстанавливать нечего",
        "recover_done": "Восстановлено {count:p:событие|события|событий} из {source} в новую игру {new_path} "
        "(исходная игра `{game}` ({path}), событие {seq}, слова последнего события: {head})",
        "recover_left_out": "События {start}–{end} записаны не на этом устройстве: они не перенесены",
        "recover_lost": "На этом устройстве записаны события до {anchored} включительно; события {start}–{end} "
        "потеряны: введите их заново",
        "recover_differs": "События журнала расходятся с записанным на этом устройстве на событии {anchored}: "
        "события восстановлены такими, как они есть в файле; проверьте их",
        "recover_stopped": "Событие {seq} (`{command}`) больше не применяется: восстановление остановлено перед ним",
        # issue 21: a stranger's ledger, checkpoints and replays checked (companion/table/service.py, companion accept)
        "table_read_only": "Ничего не записано: {error}",
        "stranger_copied": "Это устройство никогда не вело игру `{game}` ({count:p:событие|события|событий}, "
        "слова последнего события: {head}): она показана только для чтения, как чужая; "
        "`companion accept` сделает её своей, приняв файл таким, как он есть (изменения, "
        "сделанные в нём раньше, заметить нельзя, последующие будут замечены)",
        "stranger_anchor_gone": "Это устройство вело игру `{game}`, но её якорь пропал: укороченный или "
        "переписанный с тех пор журнал не заметить; игра показана только для чтения "
        "({count:p:событие|события|событий}, слова последнего события: {head}), пока "
        "`companion accept` не примет файл таким, как он есть",
        "stranger_replaced": "На месте этого файла была игра `{kept}`, а теперь в нём игра `{game}` "
        "({count:p:событие|события|событий}, слова последнего события: {head}): другая игра "
        "или игра с новым номером показана только для чтения, пока `companion accept` не "
        "примет её для этого места, доверившись файлу таким, как он есть",
        "table_place_not_kept": "Не удалось записать, какая игра лежит в этом файле ({detail}): подмену файла "
        "не заметить",
        "table_replay_differs": "{path}: событие {seq} при повторе не даёт того, что записано в журнале, хотя "
        "цепочка хешей цела: файл составлен или изменён не этой программой (или из-за "
        "ошибки программы): см. `companion recover`",
        "table_checkpoint_state": "{path}: контрольная точка на событии {seq} не совпадает с игрой, переигранной "
        "до неё: см. `companion recover`",
        "table_checkpoint_missing": "{path}: контрольной точки на событии {seq} нет: см. `companion recover`",
        "table_checkpoint_stray": "{path}: контрольная точка на событии {seq} не входит в цепочку хешей (её "
        "добавили после записи события): см. `companion recover`",
        "accepted": "Принято: игра `{game}` ({count:p:событие|события|событий}, слова последнего события: "
        "{head}) теперь своя для этого устройства. Файл принят таким, как есть: что с ним делали "
        "раньше, заметить нельзя; укороченный, переписанный или подменённый файл с этого момента "
        "будет замечен",
        "accept_not_needed": "Игра `{game}` уже своя для этого устройства: принимать нечего",
        "game_accepted": "Игра `{game}` принята коробкой как своя на #{seq}: можно записывать",
        "do_unknown_retry": "{unknown}. Когда диск снова заработает, выполните `companion do --request-id "
        "{request_id} {retry}`: ответ придёт из журнала, дважды ничего не запишется",
        "do_not_stored": "Сбой диска при записи `{command}`, и следующая синхронизированная проверка показала, "
        "что команда НЕ записана: ничего не проведено; повторите её: `companion do "
        "--request-id {request_id} {retry}`",
        "do_stored": "Сбой диска при записи события {seq}; следующая синхронизированная проверка показала, "
        "что оно ЗАПИСАНО",
        "file_error": "{path}: {detail}",
        "os_error": "{detail}",
        "usage_line": "{problem}; справка: `{prog} --help`",
        "usage_unknown_command": "Неизвестная команда `{value}` (есть: {choices})",
        "usage_no_command": "Не указана команда (есть: {choices})",
        "usage_invalid_choice": "`{option}`: недопустимое значение `{value}` (можно: {choices})",
        "usage_invalid_value": "`{option}`: нужно {type}, а не `{value}`",
        "usage_expected_one": "После `{option}` нужно значение",
        "usage_expected_at_most_one": "После `{option}` может быть не больше одного значения",
        "usage_expected_at_least_one": "После `{option}` нужно хотя бы одно значение",
        "usage_expected_count": "После `{option}` нужно {count:p:значение|значения|значений}",
        "usage_explicit_ignored": "`{option}` не принимает значения, а указано `{value}`",
        "usage_not_allowed": "`{option}` нельзя указывать вместе с `{other_option}`",
        "usage_ambiguous": "Неоднозначный ключ `{option}`: подходят {matches}",
        "usage_unrecognized": "Лишние аргументы: {words}",
        "usage_required": "Обязательно укажите: {names}",
        "usage_one_of": "Укажите один из аргументов: {names}",
        "usage_other": "{detail}",
        "script_line": "{where}: `{line}`: {problem}",
        "script_file": "{where}: {problem}",
        "script_no_stdin": "Стандартного ввода нет: читать нечего",
        "script_unreadable": "Не удаётся прочитать файл: {detail}",
        "script_not_utf8": "Текст не в кодировке UTF-8: байт `0x{byte}` по смещению {offset} не читается",
        "script_no_game": "В сценарии нет игры",
        "script_what": "{name}: что сделать? (после имени и двоеточия пишется команда)",
        "script_no_actor": "В строке `{keyword}` не указывают, кто её даёт; чтобы проверить команду игрока, "
        "пишите `expect refused ИМЯ: КОМАНДА...`",
        "script_one_game": "В сценарии может быть только одна игра",
        "script_start": "Сценарий должен начинаться со строки `new ИЗДАНИЕ ТАСОВКА ИГРОК...`",
        "script_bad_line": "{refusal}",
        "script_refused": "отказ: {refusal}",
        "script_error": "{error}",
        "expect_no_player": "Нет игрока с именем {name} (игроки: {players})",
        "expect_no_account": "Нет счёта {name} (игроки: {players}; счета: {accounts})",
        "expect_no_plot": "Нет участка «{ref}»",
        "expect_no_cell": "Нет клетки «{ref}»",
        "expect_not_number": "«{word}» — не целое число",
        "expect_yes_no": "«{word}»: нужно `yes` или `no`",
        "expect_what": "Что проверить? (см. `docs/script-language.md`)",
        "expect_usage": "Формат: {usage}",
        "expect_refused_other": "Отказ с кодом `{actual}`, а по сценарию `{expected}`: {refusal}",
        "expect_accepted": "Команда принята",
        "expect_unknown": "Неизвестная проверка `{expectation}` (известные: {known})",
        "expect_cash": "{account}: на счету {actual}, а по сценарию {wanted}",
        "expect_owner": "Владелец участка «{ref}»: {actual}, а по сценарию {wanted}",
        "expect_position": "{player} на клетке «{got_cell}», а по сценарию — на клетке «{want_cell}»",
        "expect_level": "Участок «{ref}»: уровень застройки {actual}, а по сценарию {wanted}",
        "expect_held": "{player}: {held_item} — {actual}, а по сценарию {wanted}",
        "expect_extra": "`{key}`: {actual}, а по сценарию {wanted}",
        "expect_turn": "Сейчас ходит {actual}, а по сценарию — {wanted}",
        "expect_pending": "Ждём: {got_pending}, а по сценарию — `{want_pending}`",
        "expect_debt": "{player}: долг {actual}, а по сценарию {wanted}",
        "expect_flag": "{subject}: {flag} — {actual}, а по сценарию {wanted}",
        "expect_winner": "Победитель: {actual}, а по сценарию {wanted}",
        "expect_note": "Последнее событие сообщает {codes}, а не `{note}`",
        # issue 21: watch (the files under the running daemon, a read-only card, warnings on every screen)
        "table_ledger_deleted": "Файл {path} удалили, пока коробка работала; коробка записала свою игру (до "
        "#{seq}) обратно на его место. Больше ничего не записывается, пока коробку не "
        "перезапустят",
        "table_ledger_deleted_saved": "Файл {path} удалили, пока коробка работала; его игра (до #{seq}) "
        "сохранена в {saved}. Больше ничего не записывается: верните этот файл на "
        "место {path} и перезапустите коробку",
        "table_ledger_moved": "Файл {path} перенесли или переименовали, пока коробка работала (сам файл цел, в "
        "нём всё до #{seq}). Больше ничего не записывается: верните его на место {path} "
        "и перезапустите коробку",
        "table_ledger_replaced": "Файл {path} заменили другим, пока коробка работала; собственная игра коробки "
        "(до #{seq}) сохранена в {saved}. Больше ничего не записывается: перезапустите "
        "коробку, она сверит новый файл с якорем этого устройства",
        "table_ledger_unsaved": "Файл {path} удалили или заменили, пока коробка работала, а его игру (до "
        "#{seq}) сохранить не удалось ({detail}). Больше ничего не записывается; не "
        "выключайте коробку: игра теперь только в её памяти и на экранах",
        "table_anchor_deleted": "Якорь этой игры {anchor} удалили или перенесли, пока коробка работала; коробка "
        "записала его обратно (до #{seq}). Больше ничего не записывается, пока коробку "
        "не перезапустят",
        "table_anchor_lost": "Якорь этой игры {anchor} удалили, пока коробка работала, и записать его обратно "
        "не удалось. Больше ничего не записывается; при следующем запуске коробка "
        "скажет, что якоря этой игры (до #{seq}) на устройстве нет",
        "table_anchor_replaced": "Якорь этой игры {anchor} заменили другим файлом, пока коробка работала. "
        "Больше ничего не записывается: перезапустите коробку, она сверит игру (до "
        "#{seq}) с новым якорем",
        "table_card_read_only": "Папка {folder} на карте, доступной только для чтения: игра показана, но "
        "записать ничего нельзя (смонтируйте карту для записи или возьмите другую и "
        "перезапустите коробку)",
        "table_folder_read_only": "В папку {folder} нельзя писать ({detail}): игра показана, но записать ничего нельзя",
    },
}
# what the box says: the daemon, its reader and its cards (companion/daemon/, companion/hw/)
BOX = {
    "en": {
        "reader_searching": "Reader: not found ({info}); is it plugged in?",
        "reader_connecting": "Reader: connecting on {info}",
        "reader_ready": "Reader ready (firmware {info})",
        "reader_offline": "Reader offline: check its cable",
        "reader_refused": "Reader refused: it speaks protocol {info}, this box protocol {ours}; update the reader's firmware",
        "unknown_card": "Card {uid} is not one of this box's cards: enrol it first",
        "replaced_card": "Card {uid} was replaced by another card and no longer counts",
        "card_other_edition": "This card belongs to another game's box",
        "tap_game_over": "The game is over: archive it, then start a new one",
        "no_such_seat": "This is player {seat}'s card; this game has {count} players",
        "nothing_for_player": "{player}: this card does nothing now",
        "nothing_for_plot": "{plot}: this card does nothing now",
        "nothing_for_card": "{card}: this card cannot be drawn now",
        "roll_not_now": "Nothing needs dice now",
        "roll_wrong_count": "The reader rolled the wrong number of dice: press ROLL again",
        # issue 22: ROLL never skips a choice, a blocked card says why, the JACKPOT thrown by ROLL
        "roll_waiting": "ROLL waits: first {about}",
        "roll_held_first": "{player} is {jail_in}: the fine ({fine}) or a card in the menu; ROLL again: "
        "roll for a double",
        "roll_jackpot_first": "{player} may play the JACKPOT: the bet in the menu, then ROLL throws three "
        "dice; ROLL again: go on without it",
        "jackpot_press_roll": "{player} bets {bet} on the JACKPOT: press ROLL to throw the three dice",
        # issue 22: smalls (the JACKPOT's bet from a phone, a plot card's purchase confirmed on the box)
        "phone_jackpot_hint": "The bet here; then ROLL on the reader throws the three dice",
        "phone_jackpot_dice": "The JACKPOT's dice are thrown by ROLL on the reader: a phone places the bet only",
        "phone_jackpot_placed": "Bet chosen: {bet}. Now press ROLL on the reader",
        "card_blocked_why": "{card}: this card cannot be drawn now: {why}",
        "plot_blocked_why": "{plot}: this card does nothing now: {why}",
        "why_waiting": "first {about}",
        "why_other_card": "the card due is another one (another deck, or this card is not in its deck now)",
        "why_no_draw": "no token waits for a card; a card is drawn when a token lands on its cell",
        "why_no_plot": "nobody is deciding on this plot, and the turn's player has no move to tell",
        "enrol_waiting": "Tap the card for {role}",
        "enrolled": "Card {uid} is now {role}",
        "enrol_expired": "No card was tapped in time: the enrolment lapsed",
        "display_missing": "The screen: {info}",
        "card_forgotten": "Card {uid} is forgotten: it no longer counts",
        "card_has_role": "Card {uid} is already {role}: forget it first to give it another role",
        "tap_failed": "The card could not be handled: {why}",
        "not_booked": "Not booked: {why}",
        "enrolled_replacing": "Card {uid} is now {role}; card {lost} no longer counts",
        "role_player": "player {ref}",
        "role_plot": "plot {ref}",
        "role_card": "the card “{ref}”",
        "no_game_open": "No game is open on the box: start one first",
        "game_on_box": "A game is already on the box: end it and archive it first",
        "no_game_on_box": "There is no game on the box",
        "game_not_over": "The game is not over yet: end it first (end_game counts everyone's wealth)",
        "game_resumed": "Game resumed at #{seq}",
        "game_archived": "Game archived: {path}",
        "halted": "The bank is halted and writes nothing more: {why}",
        "daemon_stopping": "The box is shutting down; nothing was done",
        "daemon_silent": "{path} is held by `companion run` (pid {pid}), which did not answer on {socket}: "
        "try again, or stop the daemon",
        "daemon_ready": "The box is ready: games in {folder}",
        "daemon_stopped": "The bank is closed",
        "ledger_warning": "WARNING: {why}",
        "footer_reader_offline": "reader offline",
        "footer_muted": "sound off",
        # issue 21: watch (what the owner says once for the table: a warning, the reason nothing is booked)
        "table_warning": "Warning: {error}",
        "table_stopped_booking": "Nothing can be booked: {error}",
        "buttons_missing": "The buttons cannot be read (no GPIO here: {info}); the cards still work",
        "virtual_table_ready": "The virtual table: {url}",
        "virtual_table_failed": "The virtual table could not start: {info}",
        # issue 21: true answers (a late writer, request ids)
        "owner_busy": "The bank was busy for {seconds} s and did not take the request: nothing was done; try again",
        "owner_late": "The bank did not answer within {seconds} s: whether request {request_id} was booked is not "
        "known yet. Look at the ledger before trying again: a retry with the same request id is "
        "answered from the ledger and never booked twice",
        "daemon_gone": "The box closed the connection without answering (it stopped or was killed): whether "
        "request {request_id} was booked is not known. Look at the ledger before trying again: a "
        "retry with the same request id is answered from the ledger and never booked twice",
        "owner_late_work": "The bank did not answer within {seconds} s: whether it was done is not known yet; look "
        "at the game before trying again",
        "phone_unknown": "The box did not answer in time: this may or may not have been booked. Look at the "
        "ledger before trying again (this same button again never pays twice)",
        "request_id_empty": "A request id cannot be empty or blank: nothing was booked; give the id printed "
        "when the command first ran, or leave the request id out for a new one",
    },
    "ru": {
        "reader_searching": "Считыватель не найден ({info}): он подключён?",
        "reader_connecting": "Считыватель: подключение к {info}",
        "reader_ready": "Считыватель готов (прошивка {info})",
        "reader_offline": "Считыватель не отвечает: проверьте кабель",
        "reader_refused": "Считыватель отклонён: его протокол {info}, а у коробки {ours}; обновите прошивку считывателя",
        "unknown_card": "Карта {uid} не записана за этой коробкой: сначала запишите её",
        "replaced_card": "Карта {uid} заменена другой и больше не действует",
        "card_other_edition": "Эта карта из коробки другой игры",
        "tap_game_over": "Игра окончена: уберите её в архив и начните новую",
        "no_such_seat": "Это карта игрока {seat}, а в этой игре игроков: {count}",
        "nothing_for_player": "{player}: сейчас эта карта ничего не делает",
        "nothing_for_plot": "{plot}: сейчас эта карта ничего не делает",
        "nothing_for_card": "{card}: эту карту сейчас тянуть нельзя",
        "roll_not_now": "Сейчас кубики не нужны",
        "roll_wrong_count": "Считыватель бросил не столько кубиков, сколько нужно: нажмите БРОСОК ещё раз",
        # issue 22: ROLL never skips a choice, a blocked card says why, the JACKPOT thrown by ROLL
        "roll_waiting": "БРОСОК подождёт: сначала {about}",
        "roll_held_first": "{player} сейчас {jail_in}: штраф ({fine}) или карточка — в меню; БРОСОК ещё раз — "
        "бросок на дубль",
        "roll_jackpot_first": "{player} может сыграть в ДЖЕКПОТ: ставка — в меню, потом БРОСОК бросит три "
        "кубика; БРОСОК ещё раз — дальше без него",
        "jackpot_press_roll": "{player} ставит {bet} в ДЖЕКПОТ: нажмите БРОСОК, чтобы бросить три кубика",
        # issue 22: smalls (the JACKPOT's bet from a phone, a plot card's purchase confirmed on the box)
        "phone_jackpot_hint": "Ставка — здесь; потом БРОСОК на считывателе бросит три кубика",
        "phone_jackpot_dice": "Кубики ДЖЕКПОТА бросает кнопка БРОСОК на считывателе: с телефона делается только ставка",
        "phone_jackpot_placed": "Ставка выбрана: {bet}. Теперь нажмите БРОСОК на считывателе",
        "card_blocked_why": "{card}: эту карточку сейчас тянуть нельзя: {why}",
        "plot_blocked_why": "{plot}: сейчас эта карта ничего не делает: {why}",
        "why_waiting": "сначала {about}",
        "why_other_card": "сейчас нужна другая карточка (из другой колоды, или этой сейчас нет в колоде)",
        "why_no_draw": "никто не ждёт карточку: её тянут, когда фишка встаёт на её поле",
        "why_no_plot": "никто не решает судьбу этого участка, а игроку, чей ход, сейчас некуда ходить",
        "enrol_waiting": "Приложите карту: {role}",
        "enrolled": "Карта {uid} теперь: {role}",
        "enrol_expired": "Карту так и не приложили: запись отменена",
        "display_missing": "Экран: {info}",
        "card_forgotten": "Запись карты {uid} удалена: она больше не действует",
        "card_has_role": "Карта {uid} уже записана: {role}; чтобы записать её иначе, сначала удалите запись",
        "tap_failed": "Карту не удалось обработать: {why}",
        "not_booked": "Не записано: {why}",
        "enrolled_replacing": "Карта {uid} теперь: {role}; карта {lost} больше не действует",
        "role_player": "игрок {ref}",
        "role_plot": "участок «{ref}»",
        "role_card": "карточка «{ref}»",
        "no_game_open": "На коробке нет открытой игры: сначала начните игру",
        "game_on_box": "На коробке уже идёт игра: сначала завершите её и уберите в архив",
        "no_game_on_box": "На коробке нет игры",
        "game_not_over": "Игра ещё не окончена: сначала завершите её подсчётом состояния каждого игрока",
        "game_resumed": "Игра продолжена с #{seq}",
        "game_archived": "Игра убрана в архив: {path}",
        "halted": "БАНК остановлен и больше ничего не записывает: {why}",
        "daemon_stopping": "Коробка выключается; ничего не сделано",
        "daemon_silent": "{path} занят демоном коробки (процесс {pid}), но он не ответил через {socket}: "
        "повторите или остановите демон",
        "daemon_ready": "Коробка готова: игры в {folder}",
        "daemon_stopped": "БАНК закрыт",
        "ledger_warning": "ВНИМАНИЕ: {why}",
        "footer_reader_offline": "считыватель не отвечает",
        "footer_muted": "звук выключен",
        # issue 21: watch (what the owner says once for the table: a warning, the reason nothing is booked)
        "table_warning": "Внимание: {error}",
        "table_stopped_booking": "Записать ничего нельзя: {error}",
        "buttons_missing": "Кнопки не читаются (здесь нет GPIO: {info}); карты работают",
        "virtual_table_ready": "Виртуальный стол: {url}",
        "virtual_table_failed": "Виртуальный стол не запустился: {info}",
        # issue 21: true answers (a late writer, request ids)
        "owner_busy": "БАНК был занят {seconds} с и не принял запрос: ничего не сделано; повторите",
        "owner_late": "БАНК не ответил за {seconds} с: проведён ли запрос {request_id}, пока неизвестно. Прежде "
        "чем повторять, загляните в журнал: повтор с тем же номером запроса получит ответ из "
        "журнала и дважды не запишется",
        "daemon_gone": "Коробка закрыла соединение, не ответив (её остановили или убили): проведён ли запрос "
        "{request_id}, неизвестно. Прежде чем повторять, загляните в журнал: повтор с тем же "
        "номером запроса получит ответ из журнала и дважды не запишется",
        "owner_late_work": "БАНК не ответил за {seconds} с: сделано ли это, пока неизвестно; прежде чем "
        "повторять, посмотрите на игру",
        "phone_unknown": "Коробка не ответила вовремя: неизвестно, проведено ли это. Прежде чем повторять, "
        "загляните в журнал (эта же кнопка ещё раз дважды не заплатит)",
        "request_id_empty": "Номер запроса не может быть пустым или из одних пробелов: ничего не проведено; "
        "укажите номер, напечатанный при первом запуске, или не указывайте его вовсе, "
        "чтобы получить новый",
    },
}


# ----- the box's menus: buttons, cards and the OLED (companion/daemon/console.py, menus.py) -----
MENU = {
    "en": {
        "menu_table": "Table",
        "waiting_debt": "{player} must pay a debt first",
        "menu_players": "Players…",
        "menu_undo": "Undo…",
        "menu_game": "Game…",
        "menu_dice": "{what} (dice by hand)",
        "undone_event": "Undone: #{seq} {what}",
        "undo_reverses": "Reverses #{seq}: {what}",
        "menu_nothing": "Nothing to do now",
        "menu_double": "with a double",
        # issue 22: confirmations (what a money action books, before it is booked) and the auction's lead
        "menu_offer": "#{number} ({player} gives {other} {gave} for {got})",
        "menu_offer_gift": "#{number} ({player} gives {other} {gave} for nothing)",
        "menu_offer_ask": "#{number} ({player} asks {other} for {got}, giving nothing)",
        "menu_priced": "{what} for {price}",
        "auction_leading": "leading bid: {player}, {amount}",
        "auction_no_bid_yet": "no bids yet (opening price {amount})",
        "menu_after": "{name} (after {before})",
        "menu_cell_number": "{name} (cell {number})",
        "what_amount": "amount",
        "what_die": "die {n}",
        "what_shares": "how many?",
        "what_fee": "fee",
        "what_bet": "bet",
        "what_card": "card",
        "what_cell": "cell",
        "what_business": "business",
        "what_player": "player",
        "what_item": "choice",
        "menu_confirm": "Book this?",
        "menu_refused": "Not possible",
        "confirm_footer": "OK: yes   BACK: no",
        "menu_transfer": "Pay: {payer} → {payee}",
        "undo_nothing": "Nothing to undo",
        "undo_first": "First undoes {events}, which depend on it",
        "undo_first_one": "First undoes {events}, which depends on it",
        "undo_title": "Undo #{seq}? ({n}/{of})",
        "undo_footer": "OK: undo  ▲▼: other",
        "undo_footer_refused": "▲▼: other",
        "menu_new_game": "New game",
        "menu_end_game": "End the game",
        "end_game_warning": "Ends the game now and counts everyone's wealth; it cannot go on afterwards",
        "menu_archive": "Archive the game",
        "menu_enrol": "Enrol a card…",
        "menu_sound_off": "Sound off",
        "menu_sound_on": "Sound on",
        "menu_phone": "Phone page",
        "menu_pair_phone": "Phone {pairing} is mine",
        "phone_scan": "Scan for the phone page",
        "phone_code": "Code: {letters}",
        "menu_head": "Ledger words",
        "enrol_player": "Player {n}'s card",
        "enrol_plot": "A plot's card",
        "enrol_card": "A card of a deck",
        "trade_title": "{a} ⇄ {b}",
        "trade_cash": "{player} pays {amount}",
        "trade_propose": "Propose the trade",
        "trade_cash_title": "Cash",
        "new_edition": "Game: {edition}",
        "new_players": "Players: {n}",
        "new_start": "Start the game",
        "new_edition_title": "Which game?",
        "new_players_title": "How many players?",
        "new_option_title": "Set the value",
        "number_hint": "held ▲\u00a0×10 ▼\u00a0÷10",
        "sound_muted": "Sound off: the box's beeps are silent",
        "settings_reset": "The box's settings ({file}) could not be read: sound is on again, no banker's PIN "
        "is set at the box",
        "settings_not_kept": "The setting could not be saved ({why}): it lasts until the box restarts",
        "sound_unmuted": "Sound on",
        # issue 22: number pickers say their step
        "number_step": "▲▼ step ±{step}",
        "number_step_now": "Step now ±{step}",
        # issue 22: wording: a picker's question where "verb: unit" would repeat the unit or not fit the title
        "ask_buy_shares_shares": "How many shares to buy?",
        "ask_sell_shares_shares": "How many shares to sell?",
        "ask_commission_shares": "How many via the broker?",
        "ask_commission_fee": "The broker's fee",
        "ask_opening_amount": "Opening price",
        "ask_jackpot_bet": "JACKPOT bet",
        # issue 22: the table set up from the box (new game in few presses, language, banker's PIN)
        "menu_new_game_more": "New game…",
        "new_options": "Options…",
        "new_game_ends_running": "This game ends now (wealth is counted) and is kept in the archive",
        "new_game_archives": "The finished game is kept in the archive",
        "game_kept": "The last game is kept in the archive",
        "new_game_players": "This game takes {low} to {high} players, each with a name of their own",
        "menu_language": "Language: {name}",
        "language_here": "English",
        "language_title": "Language",
        "language_name": "English",
        "language_set": "The box now speaks English",
        "menu_banker_pin": "Banker's PIN…",
        "menu_banker_pin_remove": "Remove the banker's PIN",
        "pin_digit": "Digit {n} of {of}",
        "pin_footer": "▲▼ digit  OK next",
        "pin_confirm": "The banker's PIN will be {pin}: a phone that types it becomes the banker's (starts "
        "games, undoes)",
        "banker_pin_set": "The banker's PIN is set: a phone becomes the banker's with it",
        "banker_pin_removed": "The banker's PIN set at the box is removed",
    },
    "ru": {
        # issue 22: number pickers say their step
        "number_step": "▲▼ шаг ±{step}",
        "number_step_now": "Теперь шаг ±{step}",
        # issue 22: wording: a picker's question where «глагол: единица» would repeat the unit or not fit the title
        "ask_buy_shares_shares": "Сколько акций купить?",
        "ask_sell_shares_shares": "Сколько акций продать?",
        "ask_commission_shares": "Сколько через маклера?",
        "ask_commission_fee": "Комиссия маклеру",
        "ask_opening_amount": "Стартовая цена",
        "ask_jackpot_bet": "Ставка в ДЖЕКПОТ",
        "menu_table": "Стол",
        "waiting_debt": "{player}: сначала нужно погасить долг",
        "menu_players": "Игроки…",
        "menu_undo": "Отменить…",
        "menu_game": "Игра…",
        "menu_dice": "{what} (свои кубики)",
        "undone_event": "Отменено: #{seq} {what}",
        "undo_reverses": "Отменяется #{seq}: {what}",
        "menu_nothing": "Сейчас делать нечего",
        "menu_double": "с дублем",
        # issue 22: confirmations (what a money action books, before it is booked) and the auction's lead
        "menu_offer": "№ {number} ({player} → {other}: {gave} в обмен на {got})",
        "menu_offer_gift": "№ {number} ({player} → {other}: {gave} даром)",
        "menu_offer_ask": "№ {number} ({other} → {player}: {got}, ничего взамен)",
        "menu_priced": "{what} за {price}",
        "auction_leading": "высшая ставка: {player}, {amount}",
        "auction_no_bid_yet": "ставок пока нет (стартовая цена {amount})",
        "menu_after": "{name} (после клетки {before})",
        "menu_cell_number": "{name} (клетка {number})",
        "what_amount": "сумма",
        "what_die": "кубик {n}",
        "what_shares": "сколько?",
        "what_fee": "комиссия",
        "what_bet": "ставка",
        "what_card": "карточка",
        "what_cell": "клетка",
        "what_business": "предприятие",
        "what_player": "игрок",
        "what_item": "выбор",
        "menu_confirm": "Записать?",
        "menu_refused": "Нельзя",
        "confirm_footer": "OK — да   НАЗАД — нет",
        "menu_transfer": "Платёж: {payer} → {payee}",
        "undo_nothing": "Отменять нечего",
        "undo_first": "Сначала отменяются события {events}, зависящие от него",
        "undo_first_one": "Сначала отменяется событие {events}, зависящее от него",
        "undo_title": "Отменить #{seq}? ({n}/{of})",
        "undo_footer": "OK — да   ▲▼ — другое",  # as the confirmations: the title asks «Отменить #19?»
        "undo_footer_refused": "▲▼ — другое",
        "menu_new_game": "Новая игра",
        "menu_end_game": "Закончить игру",
        "end_game_warning": "Игра заканчивается сейчас подсчётом состояния каждого игрока; продолжить её будет нельзя",
        "menu_archive": "Убрать игру в архив",
        "menu_enrol": "Записать карту…",
        "menu_sound_off": "Выключить звук",
        "menu_sound_on": "Включить звук",
        "menu_phone": "Страница для телефонов",
        "menu_pair_phone": "Телефон {pairing} — мой",
        "phone_scan": "Наведите камеру телефона",
        "phone_code": "Код: {letters}",
        "menu_head": "Слова журнала",
        "enrol_player": "Карта игрока {n}",
        "enrol_plot": "Карта участка",
        "enrol_card": "Карточка из колоды",
        "trade_title": "{a} ⇄ {b}",
        "trade_cash": "{player} доплачивает {amount}",
        "trade_propose": "Предложить сделку",
        "trade_cash_title": "Доплата",
        "new_edition": "Игра: {edition}",
        "new_players": "Игроков: {n}",
        "new_start": "Начать игру",
        "new_edition_title": "Какая игра?",
        "new_players_title": "Сколько игроков?",
        "new_option_title": "Значение",
        "number_hint": "держать ▲\u00a0×10 ▼\u00a0÷10",
        "sound_muted": "Звук выключен: коробка не пищит",
        "settings_reset": "Настройки коробки ({file}) не читаются: звук снова включён, PIN-код банкира "
        "на коробке не задан",
        "settings_not_kept": "Настройку не удалось сохранить ({why}): она действует до перезапуска коробки",
        "sound_unmuted": "Звук включён",
        # issue 22: the table set up from the box (new game in few presses, language, banker's PIN)
        "menu_new_game_more": "Новая игра…",
        "new_options": "Варианты правил…",
        "new_game_ends_running": "Эта игра закончится сейчас (с подсчётом состояния) и сохранится в архиве",
        "new_game_archives": "Законченная игра сохранится в архиве",
        "game_kept": "Прошлая игра сохранена в архиве",
        "new_game_players": "В эту игру играют от {low} до {high} игроков, и у каждого своё имя",
        "menu_language": "Язык: {name}",
        "language_here": "русский",
        "language_title": "Язык",
        "language_name": "Русский",
        "language_set": "Коробка теперь говорит по-русски",
        "menu_banker_pin": "PIN-код банкира…",
        "menu_banker_pin_remove": "Удалить PIN-код банкира",
        "pin_digit": "Цифра {n} из {of}",
        "pin_footer": "▲▼ цифра  OK дальше",
        "pin_confirm": "PIN-код банкира: {pin}. Телефон, где его введут, станет телефоном банкира",
        "banker_pin_set": "PIN-код банкира задан: с ним телефон становится банкиром",
        "banker_pin_removed": "PIN-код банкира, заданный на коробке, удалён",
    },
}

# ----- the phone page (companion/daemon/phone.py, web/phone.py): what the box and the phones say -----
PHONE = {
    "en": {
        "phone_pair_waiting": "A phone waits to pair (code {pairing}): its player taps their card and chooses it",
        "phone_paired": "Phone {pairing} is now {player}'s",
        "phone_pair_gone": "Phone {pairing} no longer waits to pair: ask again on the phone",
        "phone_pair_busy": "Another phone is pairing: try again in {seconds} s",
        "phone_pair_repeat": "Wait {seconds} s before asking again",
        "auction_going_once": "{plot}: going once…",
        "auction_going_twice": "{plot}: going twice…",
        "phone_ready": "The phone page: {url}",
        "phone_failed": "The phone page could not start: {info}",
        "phone_no_seat": "There is no seat {seat} at this table",
        "phone_no_event": "There is no event #{seq}",
        "phone_action_reused": "This action id was already used for another action: reload the page",
        "phone_bad_verb": "Which action? Choose one of the buttons",
        "phone_bad_args": "The action's values are malformed: choose them again",
        "phone_bad_amount": "An amount is a whole number of 0 or more",
        "phone_bad_edition": "No such game: choose one from the list",
        "phone_bad_players": "Name 2 to 8 players, each up to 20 letters, no name twice",
        "phone_pin_locked": "Too many wrong PINs: wait {seconds} s",
        "phone_banker_pin_locked": "A phone keeps typing a wrong banker's PIN: that phone must wait {seconds} s (the others may still sign in)",
        "phone_seat_pin_locked": "A phone keeps typing a wrong PIN for {player}: that phone must wait {seconds} s",
        "phone_no_banker_pin": "No banker's PIN is set yet: set one at the box (Game… → Banker's PIN)",
        "phone_wrong_pin": "Wrong PIN",
        "phone_bad_pin": "A PIN is 4 to 8 digits",
        "phone_pin_set": "{player} can now take their seat with this PIN",
        "phone_pin_cleared": "{player}'s PIN is removed: their card on the reader is the way in",
        "phone_no_seat_pin": "The banker has set no PIN for {player}: tap your card on the reader instead",
        # issue 21: the pairing's door
        "phone_pair_cleared": "The banker ended phone {pairing}'s pairing and emptied the line: the next phone to ask pairs",
        "phone_pair_line_cleared": "The banker emptied the pairing's line: the next phone to ask pairs",
    },
    "ru": {
        "phone_pair_waiting": "Телефон ждёт привязки (код {pairing}): его владелец прикладывает свою карту и выбирает его в меню",
        "phone_paired": "Телефон {pairing} привязан: {player}",
        "phone_pair_gone": "Телефон {pairing} уже не ждёт привязки: попросите её на телефоне снова",
        "phone_pair_busy": "Сейчас привязывается другой телефон: попробуйте через {seconds} с",
        "phone_pair_repeat": "Подождите {seconds} с, прежде чем просить снова",
        "auction_going_once": "«{plot}»: раз…",
        "auction_going_twice": "«{plot}»: два…",
        "phone_ready": "Страница для телефонов: {url}",
        "phone_failed": "Страница для телефонов не запустилась: {info}",
        "phone_no_seat": "За этим столом нет места {seat}",
        "phone_no_event": "Нет события #{seq}",
        "phone_action_reused": "Этот номер действия уже занят другим действием: обновите страницу",
        "phone_bad_verb": "Какое действие? Выберите одну из кнопок",
        "phone_bad_args": "Значения действия искажены: выберите их снова",
        "phone_bad_amount": "Сумма — целое число от 0",
        "phone_bad_edition": "Такой игры нет: выберите из списка",
        "phone_bad_players": "Назовите от 2 до 8 игроков, каждое имя — до 20 букв, без повторов",
        "phone_pin_locked": "Слишком много неверных PIN-кодов: подождите {seconds} с",
        "phone_banker_pin_locked": "Кто-то с телефона раз за разом вводит неверный PIN-код банкира: этому телефону вход закрыт на {seconds} с (с других войти можно)",
        "phone_seat_pin_locked": "Кто-то с телефона раз за разом вводит неверный PIN-код игрока {player}: этому телефону вход закрыт на {seconds} с",
        "phone_no_banker_pin": "PIN-код банкира ещё не задан: задайте его на коробке (Игра… → PIN-код банкира)",
        "phone_wrong_pin": "Неверный PIN-код",
        "phone_bad_pin": "PIN-код — от 4 до 8 цифр",
        "phone_pin_set": "Игрок {player} теперь может занять своё место по этому PIN-коду",
        "phone_pin_cleared": "PIN-код игрока {player} удалён: войти можно картой на считывателе",
        "phone_no_seat_pin": "Банкир не задал PIN-код для игрока {player}: приложите свою карту к считывателю",
        # issue 21: the pairing's door
        "phone_pair_cleared": "Банкир прекратил привязку телефона {pairing} и очистил очередь: привяжется тот телефон, что попросит первым",
        "phone_pair_line_cleared": "Банкир очистил очередь на привязку: привяжется тот телефон, что попросит первым",
    },
}

# issue 23: walking the board with the cards (companion/daemon/walk.py, walkdesk.py; the box and the phones)
WALK = {
    "en": {
        "walk_said": "{text}",
        "walk_started": "Walking the board {name}: tap every plot card in the order the board shows, starting "
        "after START; the phone or OK asks what stands on the other cells",
        "walk_resumed": "The board walk goes on at cell {at} of {size}",
        "walk_dropped": "The board walk kept when the box stopped could not go on: it was dropped, nothing was "
        "saved or booked",
        "walk_dropped_input": "The board walk was dropped when the box started: this did nothing; tap or press ROLL "
        "again for the game",
        "walk_left": "The board walk was left: nothing was saved; the reader is the game's again",
        "walk_timed_out": "The board walk was left: nothing happened for {minutes} minutes; this card did "
        "nothing, the next one counts for the game",
        "walk_which_plot": "This card is not enrolled yet: which plot is it? Choose on the phone or with OK",
        "walk_not_plot_card": "That is {role}, not a plot card: nothing changed",
        "walk_other_box": "That plot card belongs to another box: nothing changed",
        "walk_not_plot": "That is not a plot of this board: nothing changed",
        "walk_placed": "Cell {index}: {cell}",
        "walk_card_forgotten": "The card's question is put away: tap the plot at this cell again",
        "walk_taken_back": "Taken back: {cell} is no longer cell {index}",
        "walk_saved": "The board is saved as «{name}»: choose it when a new game starts",
        "walk_not_complete": "The board is not walked to the end yet: {left} cells to go",
        "walk_none": "No board walk is on",
        "walk_moved_on": "The walk has moved on meanwhile (now at cell {at}): look again",
        "walk_already_on": "A board walk is on already: go on with it, or leave it first",
        "walk_no_roll": "The board is being walked: the reader's dice count for nothing until the walk ends",
        "walk_repeated": "{plot} is already cell {index}: nothing changed",
        "walk_no_such_cell": "No such cell is left to place: nothing changed",
        "walk_no_card_waits": "No unknown card waits for its plot",
        "walk_nothing_back": "Nothing to take back: this is the first cell after START",
        "walk_complete": "Every cell is walked: save the board (or BACK to change the last one)",
        "walk_board_changed": "The table's board no longer has the cells this walk placed: walk it again",
        # the box's screens
        "menu_our_board": "Our board…",
        "walk_start_title": "Walk which board?",
        "walk_title": "Board: cell {at}/{size}",
        "walk_title_done": "Board walked: {size}/{size}",
        "walk_tap_hint": "Tap the plot card at cell {at}; OK: another kind of cell",
        "walk_last": "Last: {index}. {name}",
        "walk_which_title": "Which plot is this card?",
        "walk_which_hint": "A card not enrolled yet: OK, then choose which plot it is",
        "walk_kind_title": "At cell {at}:",
        "walk_kind_line": "{name} ({left} left)",
        "walk_done_hint": "OK saves «{name}»; BACK takes the last cell back",
        "walk_leave": "Leave the walk",
        "walk_leave_warning": "Leave the board walk? Nothing is saved; the reader is the game's again",
    },
    "ru": {
        "walk_said": "{text}",
        "walk_started": "Обходим поле {name}: приложите все карточки участков по порядку поля, начиная с "
        "клетки, что идёт за клеткой СТАРТ; про другие клетки спросит телефон или кнопка OK",
        "walk_resumed": "Обход поля продолжается с клетки {at} из {size}",
        "walk_dropped": "Обход поля, начатый до остановки коробки, продолжить нельзя: он отменён, ничего не "
        "сохранено и не записано",
        "walk_dropped_input": "Обход поля отменён при запуске коробки: это ничего не сделало; для игры приложите "
        "карту или нажмите БРОСОК ещё раз",
        "walk_left": "Обход поля прерван: ничего не сохранено; считыватель снова служит игре",
        "walk_timed_out": "Обход поля прерван: {minutes} минут ничего не происходило; эта карта ничего не "
        "сделала, следующая пойдёт в игру",
        "walk_which_plot": "Эта карта ещё не записана: какой это участок? Выберите на телефоне или кнопкой OK",
        "walk_not_plot_card": "Это {role}, а не карточка участка: ничего не изменилось",
        "walk_other_box": "Эта карточка участка из другой коробки: ничего не изменилось",
        "walk_not_plot": "Это не участок этого поля: ничего не изменилось",
        "walk_placed": "Клетка {index}: {cell}",
        "walk_card_forgotten": "Вопрос о карте снят: приложите участок этой клетки ещё раз",
        "walk_taken_back": "Отменено: {cell} больше не клетка {index}",
        "walk_saved": "Поле сохранено как «{name}»: выберите его, начиная новую игру",
        "walk_not_complete": "Поле ещё не обойдено до конца: осталось клеток: {left}",
        "walk_none": "Обход поля сейчас не идёт",
        "walk_moved_on": "Обход тем временем ушёл дальше (сейчас клетка {at}): посмотрите ещё раз",
        "walk_already_on": "Обход поля уже идёт: продолжите его или сначала прервите",
        "walk_no_roll": "Идёт обход поля: кубики считывателя не считаются, пока обход не закончится",
        "walk_repeated": "{plot} уже стоит на клетке {index}: ничего не изменилось",
        "walk_no_such_cell": "Такой клетки больше не осталось: ничего не изменилось",
        "walk_no_card_waits": "Ни одна незаписанная карта не ждёт своего участка",
        "walk_nothing_back": "Отменять нечего: это первая клетка за клеткой СТАРТ",
        "walk_complete": "Все клетки обойдены: сохраните поле (или НАЗАД, чтобы изменить последнюю)",
        "walk_board_changed": "В поле стола уже не те клетки, что расставил обход: обойдите его заново",
        # the box's screens
        "menu_our_board": "Наше поле…",
        "walk_start_title": "Какое поле обходим?",
        "walk_title": "Поле: клетка {at}/{size}",
        "walk_title_done": "Поле обойдено: {size}/{size}",
        "walk_tap_hint": "Приложите карточку участка клетки {at}; OK: клетка другого вида",
        "walk_last": "Последняя: {index}. {name}",
        "walk_which_title": "Какой это участок?",
        "walk_which_hint": "Карта ещё не записана: OK, затем выберите, какой это участок",
        "walk_kind_title": "На клетке {at}:",
        "walk_kind_line": "{name} (осталось: {left})",
        "walk_done_hint": "OK сохранит «{name}»; НАЗАД отменит последнюю клетку",
        "walk_leave": "Прервать обход",
        "walk_leave_warning": "Прервать обход поля? Ничего не сохранится; считыватель снова служит игре",
    },
}

EN.update(EDGE["en"])
RU.update(EDGE["ru"])
EN.update(BOX["en"])
RU.update(BOX["ru"])
EN.update(MENU["en"])
RU.update(MENU["ru"])

# issue 23: menu lines with the party's name: "Boris → Anna: payment…", never "Boris: Pay: Anna" (a name is
# kept as typed, so the Russian line needs no case on it: «Боря → Аня: платёж…»)
MENU_TO_PLAYER = {
    # after the party's name and its colon, the verb and what it acts on by a comma: "Anna: Buy the plot,
    # Cinema for 50", never "Anna: Buy the plot: Cinema for 50"
    "en": {
        "menu_to_player": "{player} → {other}: {deal}",
        "menu_deal_pay": "payment",
        "menu_deal_trade": "trade offer",
        "menu_party_line": "{player}: {doing}, {objects}",
    },
    "ru": {
        "menu_to_player": "{player} → {other}: {deal}",
        "menu_deal_pay": "платёж",
        "menu_deal_trade": "предложение обмена",
        "menu_party_line": "{player}: {doing}, {objects}",
    },
}
for _lang_code, _words in MENU_TO_PLAYER.items():
    MENU[_lang_code].update(_words)
EN.update(MENU_TO_PLAYER["en"])
RU.update(MENU_TO_PLAYER["ru"])
EN.update(PHONE["en"])
RU.update(PHONE["ru"])
EN.update(WALK["en"])
RU.update(WALK["ru"])

# ----- bad input said in the screen's language: edition files and --option values (companion/editions),
# the daemon's configuration, control socket and card map (companion/daemon/config.py, control.py, cards.py,
# cli.py). English is what these errors always said; Russian keeps the values (paths, keys, ids) as typed.
INPUT = {
    "en": {
        "edition_unknown": "{source}: edition: no such edition (shipped: {shipped})",
        "edition_unreadable": "{source}: file: cannot be read: {detail}",
        "edition_not_utf8": "{source}: file: is not UTF-8 text: byte {offset} (line {line_no}) is 0x{byte}",
        "edition_too_deep": "{source}: syntax: tables or lists nested too deeply",
        "edition_syntax": "{source}: syntax: {problem}",
        "edition_bad_rules": "{source}: edition.rules: must name one of the rules modules: {known} (not {value})",
        "edition_not_a_value": "{source}: {key}: {value} is not a value",
        "edition_unknown_option": "{source}: {key}: is not an option of the '{rules}' rules (known: {known})",
        "edition_option_text": "{source}: {key}: must be text like the default {default}, not {value}",
        "edition_option_bool": "{source}: {key}: must be true or false like the default {default}, not {value}",
        "edition_option_list": "{source}: {key}: must be a list like the default {default}, not {value}",
        "edition_option_table": "{source}: {key}: must be a table like the default {default}, not {value}",
        "edition_option_whole": "{source}: {key}: must be a whole number like the default {default}, not {value}",
        "edition_option_range": "{source}: {key}: must be a whole number from {low} to {high}, not {value}",
        "edition_option_choice": "{source}: {key}: must be one of {choices}, not {value}",
        # tomllib's own words (companion/words/parse.py: TOML_WORDS), and where it stopped
        "toml_at": "{problem} (at line {line_no}, column {column})",
        "toml_at_end": "{problem} (at end of document)",
        "toml_invalid_value": "Invalid value",
        "toml_invalid_statement": "Invalid statement",
        "toml_expected_equals": "Expected '=' after a key in a key/value pair",
        "toml_expected_newline": "Expected newline or end of document after a statement",
        "toml_table_bracket": "A table's header must end with ]",
        "toml_array_bracket": "The header of an array of tables must end with ]]",
        "toml_unclosed_array": "Unclosed array",
        "toml_unclosed_table": "Unclosed inline table",
        "toml_unterminated_string": "Unterminated string",
        "toml_overwrite": "Cannot overwrite a value",
        "toml_backslash": "Unescaped '\\' in a string",
        "toml_key_start": "Invalid initial character for a key part",
        "toml_invalid_date": "Invalid date or datetime",
        "toml_invalid_hex": "Invalid hex value",
        "toml_not_scalar": "Escaped character is not a Unicode scalar value",
        "toml_illegal_char": "Illegal character {char}",
        "toml_invalid_char": "Found invalid character {char}",
        "toml_declared_twice": "Cannot declare {name} twice",
        "toml_closed_table": "Cannot mutate immutable namespace {name}",
        "toml_redefined": "Cannot redefine namespace {name}",
        "toml_duplicate_key": "Duplicate inline table key {name}",
        "toml_expected": "Expected {text}",
        "toml_too_deep": "tables or lists nested too deeply",
        # the json module's words (companion/words/parse.py: JSON_WORDS)
        "json_at": "{problem}: line {line_no} column {column} (char {pos})",
        "json_expecting_value": "Expecting value",
        "json_expecting_name": "Expecting property name enclosed in double quotes",
        "json_expecting_colon": "Expecting ':' delimiter",
        "json_expecting_comma": "Expecting ',' delimiter",
        "json_extra_data": "Extra data",
        "json_unterminated": "Unterminated string starting at",
        "json_control_char": "Invalid control character at",
        "machine_words": "{text}",
        "config_missing": "{path}: no such configuration file",
        "config_unreadable": "{path}: cannot be read ({detail})",
        "config_not_utf8": "{path}: not UTF-8 text: byte 0x{byte} at byte offset {offset} cannot be read",
        "config_not_toml": "{path}: not valid TOML ({problem})",
        "config_unknown_section": "{path}: unknown section [{name}] (known: {known})",
        "config_unknown_key": "{path}: unknown key {key} (known here: {known})",
        "config_same_pin": "{path}: {a} and {b} are both GPIO {pin}: each button needs its own pin",
        "config_not_finite": "{path}: {key} must be a finite number, not {value}",
        "config_want_text": "{path}: {key} must be text in quotes, not {value}",
        "config_want_number": "{path}: {key} must be a number, not {value}",
        "config_want_whole": "{path}: {key} must be a whole number, not {value}",
        "config_want_bool": "{path}: {key} must be true or false, not {value}",
        "config_not_choice": "{path}: {key} = {value} is not one of {allowed}",
        "config_out_of_range": "{path}: {key} = {value} is outside {low}..{high}",
        "config_control_char": "{path}: {key} holds a control character",
        "socket_too_long": "control.socket: {path} is longer than a Unix socket's {limit} bytes; "
        "set a shorter control.socket in the configuration",
        "socket_taken": "control.socket: another daemon already listens on {path}",
        "games_taken": "another daemon (pid {pid}) already owns {folder}",
        "cardrole_uid": "'{text}' is not a card UID (8, 14 or 20 hex digits)",
        "cardrole_kind": "a card is a player, a plot or a card, not '{value}'",
        "cardrole_seat": "a player's card names a seat from 1 to {max}, not '{value}'",
        "cardrole_no_plot": "a plot card names its plot",
        "cardrole_no_card": "a deck card names its card",
        "cardrole_unknown_plot": "{edition} has no plot '{ref}' (its plots: {known}, ...)",
        "cardrole_unknown_card": "{edition} has no card '{ref}' (its cards: {known}, ...)",
        "cardrole_not_enrolled": "no card {uid} is enrolled",
        "cardmap_unreadable": "{path}: the card map cannot be read ({detail}); move it away to start a new one",
        "cardmap_not_json": "{path}: the card map cannot be read ({problem}); move it away to start a new one",
        "cardmap_damaged": "{path}: the card map is damaged ({problem}); move it away to start a new one",
        "cardmap_no_key": "'{name}'",
        "cards_need_uid": "without a running daemon there is no reader to tap: give the card's --uid",
        "cards_need_edition": "a plot or deck card needs --edition (no game is open to tell)",
    },
    "ru": {
        "edition_unknown": "{source}: Такого издания нет (в комплекте: {shipped})",
        "edition_unreadable": "{source}: Не удаётся прочитать файл: {detail}",
        "edition_not_utf8": "{source}: Текст не в кодировке UTF-8: байт `0x{byte}` по смещению {offset} "
        "(строка {line_no}) не читается",
        "edition_too_deep": "{source}: Таблицы или списки вложены слишком глубоко",
        "edition_syntax": "{source}: Ошибка в записи TOML ({problem})",
        "edition_bad_rules": "{source}: `edition.rules`: Нужно имя одного из модулей правил: {known} (а не {value})",
        "edition_not_a_value": "{source}: `{key}`: {value} — не значение (нужно число, `true` или `false` "
        "либо список в квадратных скобках)",
        "edition_unknown_option": "{source}: `{key}`: В правилах «{rules}» такого варианта нет (есть: {known})",
        "edition_option_text": "{source}: `{key}`: Нужен текст (по умолчанию {default}), а не {value}",
        "edition_option_bool": "{source}: `{key}`: Нужно `true` или `false` (по умолчанию {default}), а не {value}",
        "edition_option_list": "{source}: `{key}`: Нужен список (по умолчанию {default}), а не {value}",
        "edition_option_table": "{source}: `{key}`: Нужна таблица (по умолчанию {default}), а не {value}",
        "edition_option_whole": "{source}: `{key}`: Нужно целое число (по умолчанию {default}), а не {value}",
        "edition_option_range": "{source}: `{key}`: Нужно целое число от {low} до {high}, а не {value}",
        "edition_option_choice": "{source}: `{key}`: Допустимые значения: {choices}; {value} не подходит",
        "toml_at": "строка {line_no}, столбец {column}: {problem}",
        "toml_at_end": "в конце файла: {problem}",
        "toml_invalid_value": "недопустимое значение",
        "toml_invalid_statement": "строка записана неверно",
        "toml_expected_equals": "после ключа нужны знак «=» и значение",
        "toml_expected_newline": "после значения должна начинаться новая строка",
        "toml_table_bracket": "заголовок таблицы должен кончаться на «]»",
        "toml_array_bracket": "заголовок массива таблиц должен кончаться на «]]»",
        "toml_unclosed_array": "список не закрыт скобкой «]»",
        "toml_unclosed_table": "таблица в строке не закрыта фигурной скобкой",
        "toml_unterminated_string": "текст не закрыт кавычкой",
        "toml_overwrite": "значение задано второй раз",
        "toml_backslash": "в тексте обратная косая черта «\\» без пары",
        "toml_key_start": "ключ начинается с недопустимого символа",
        "toml_invalid_date": "неверная дата или время",
        "toml_invalid_hex": "неверное шестнадцатеричное число",
        "toml_not_scalar": "экранированный символ — не символ Юникода",
        "toml_illegal_char": "недопустимый символ `{char}`",
        "toml_invalid_char": "недопустимый символ `{char}`",
        "toml_declared_twice": "{name} объявлено дважды",
        "toml_closed_table": "{name} уже задано целиком: дополнять его нельзя",
        "toml_redefined": "{name} уже задано",
        "toml_duplicate_key": "ключ {name} повторяется в таблице",
        "toml_expected": "ожидалось {text}",
        "toml_too_deep": "таблицы или списки вложены слишком глубоко",
        "json_at": "строка {line_no}, столбец {column}, символ {pos}: {problem}",
        "json_expecting_value": "ожидалось значение",
        "json_expecting_name": "ожидалось имя в двойных кавычках",
        "json_expecting_colon": "ожидалось «:»",
        "json_expecting_comma": "ожидалась «,»",
        "json_extra_data": "лишние данные после конца",
        "json_unterminated": "здесь начинается текст без закрывающей кавычки",
        "json_control_char": "здесь управляющий символ",
        "machine_words": "`{text}`",
        "config_missing": "{path}: Такого файла конфигурации нет",
        "config_unreadable": "{path}: Файл конфигурации не читается ({detail})",
        "config_not_utf8": "{path}: Текст не в кодировке UTF-8: байт `0x{byte}` по смещению {offset} не читается",
        "config_not_toml": "{path}: Ошибка в записи TOML ({problem})",
        "config_unknown_section": "{path}: Неизвестный раздел [{name}] (есть: {known})",
        "config_unknown_key": "{path}: Неизвестный параметр `{key}` (здесь есть: {known})",
        "config_same_pin": "{path}: У `{a}` и `{b}` один и тот же вывод GPIO {pin}: каждой кнопке нужен свой",
        "config_not_finite": "{path}: `{key}`: Нужно конечное число, а не {value}",
        "config_want_text": "{path}: `{key}`: Нужен текст в кавычках, а не {value}",
        "config_want_number": "{path}: `{key}`: Нужно число, а не {value}",
        "config_want_whole": "{path}: `{key}`: Нужно целое число, а не {value}",
        "config_want_bool": "{path}: `{key}`: Нужно `true` или `false`, а не {value}",
        "config_not_choice": "{path}: `{key}` = {value} — такого значения нет (можно: {allowed})",
        "config_out_of_range": "{path}: `{key}` = {value}: допустимо от {low} до {high}",
        "config_control_char": "{path}: В `{key}` есть управляющий символ",
        "socket_too_long": "`control.socket`: путь {path} длиннее {limit:p:байта|байт|байт} (предел для сокета "
        "Unix); укажите в конфигурации путь покороче",
        "socket_taken": "`control.socket`: сокет {path} уже занят другим демоном коробки",
        "games_taken": "Папка {folder} уже занята другим демоном коробки (процесс {pid})",
        "cardrole_uid": "«{text}» — не номер карты (нужно 8, 14 или 20 шестнадцатеричных цифр)",
        "cardrole_kind": "Карта бывает картой игрока, участка или карточки, а не «{value}»",
        "cardrole_seat": "Карта игрока — это место за столом с 1 по {max}, а не «{value}»",
        "cardrole_no_plot": "Назовите участок, за который будет эта карта",
        "cardrole_no_card": "Назовите карточку, за которую будет эта карта",
        "cardrole_unknown_plot": "В издании «{edition}» нет участка «{ref}» (его участки: {known}, …)",
        "cardrole_unknown_card": "В издании «{edition}» нет карточки «{ref}» (его карточки: {known}, …)",
        "cardrole_not_enrolled": "Карта {uid} не записана",
        "cardmap_unreadable": "{path}: Файл записанных карт не читается ({detail}); уберите его, чтобы начать новый",
        "cardmap_not_json": "{path}: Файл записанных карт повреждён: это не JSON ({problem}); уберите его, "
        "чтобы начать новый",
        "cardmap_damaged": "{path}: Файл записанных карт повреждён ({problem}); уберите его, чтобы начать новый",
        "cardmap_no_key": "нет ключа «{name}»",
        "cards_need_uid": "Демон коробки не запущен, и приложить карту к считывателю нельзя: укажите её номер "
        "в `--uid`",
        "cards_need_edition": "Для карты участка или карточки укажите `--edition`: открытой игры нет, и издание "
        "из неё не узнать",
    },
}
EN.update(INPUT["en"])
RU.update(INPUT["ru"])

# issue 23: loader words. Every refusal of the edition loader (companion/engine/board.py, core.py and the
# rules modules' check_edition) as an EditionProblem: the English is what the loader always said (logs and
# tests read it from str()); the phone's board editor and `check-edition --lang ru` say it in Russian.
LOADER = {
    "en": {
        "edition_whole": "{source}: {key}: must be a whole number, not {value}",
        "edition_range": "{source}: {key}: must be a whole number from {low} to {high}, not {value}",
        "edition_whole_list": "{source}: {key}: must be a list of whole numbers, not {value}",
        "edition_text": "{source}: {key}: must be text, not {value}",
        "edition_empty": "{source}: {key}: must not be empty",
        "edition_ref": "{source}: {key}: must be 1 to 32 letters, digits, '_' or '-' (one word, not all digits), "
        "not {value}",
        "edition_table": "{source}: {key}: must be a table",
        "edition_missing": "{source}: {key}: is missing",
        "edition_kind_text": "{source}: {key}: must be text, not {value}",
        "edition_kind_bool": "{source}: {key}: must be true or false, not {value}",
        "edition_kind_list": "{source}: {key}: must be a list, not {value}",
        "edition_kind_table": "{source}: {key}: must be a table, not {value}",
        "edition_kind_whole": "{source}: {key}: must be a whole number, not {value}",
        "edition_unknown_key": "{source}: {key}: is not a known key here",
        "edition_unknown_key_of": "{source}: {key}: is not a known key here ({known})",
        "edition_box_base": "{source}: {key}: must be an edition id such as elite, not {value}",
        "edition_box_mark": "{source}: {key}: must name an item such as cells.ID or cells.ID.rent, not {value}",
        "edition_id": "{source}: {key}: must be 1 to 32 lower-case letters, digits, '_' or '-' "
        "(it is written in the game's first command), not {value}",
        "edition_language": "{source}: {key}: must be a language code such as en, ru or pt-BR, not {value}",
        "edition_players": "{source}: {key}: must not exceed players_max ({high}), not {value}",
        "edition_supply": "{source}: {key}: is not an item of the '{rules}' rules (known: {known})",
        "edition_twice": "{source}: {key}: '{id}' is used twice",
        "edition_cell_kind": "{source}: {key}: {value} is not a cell kind of the '{rules}' rules (known: {known})",
        "edition_no_industry": "{source}: {key}: {value} is not a listed industry",
        "edition_rent_missing": "{source}: {key}: is missing (and the industry has no rent_by_count)",
        "edition_rent_count": "{source}: {key}: must list {need} amounts (printed, monopoly, then one per building "
        "level), not {listed}",
        "edition_rent_count_flat": "{source}: {key}: must list {need} amounts (printed, monopoly: the industry is "
        "not buildable), not {listed}",
        "edition_tax_count": "{source}: {key}: must list {need} amounts, not {listed}",
        "edition_mortgage": "{source}: {key}: must not exceed the price ({price}), not {value}",
        "edition_industry_plots": "{source}: {key}: only plots belong to an industry",
        "edition_by_count": "{source}: {key}: must list one amount per plot owned, 1 to {count}, not {listed}",
        "edition_first_start": '{source}: {key}: the first cell must be the START cell (`kind = "start"`)',
        "edition_deck_empty": "{source}: {key}: must be a non-empty list of cards",
        "edition_no_deck": "{source}: {key}: {value} is not a deck in [decks]",
        "edition_effect_table": "{source}: {key}: an effect must be a table with a 'do' key",
        "edition_effect": "{source}: {key}: {value} is not an effect of these rules (known: {known})",
        "edition_effect_needs": "{source}: {key}: is missing (the '{effect}' effect needs it)",
        "edition_effect_arg": "{source}: {key}: is not an argument of the '{effect}' effect (it takes: {known})",
        "edition_effect_no_args": "{source}: {key}: is not an argument of the '{effect}' effect (it takes: none)",
        "edition_one_detention": "{source}: {key}: needs exactly one detention cell",
        "edition_card_cell_deck": "{source}: {key}: is missing (a card cell names the deck it draws from)",
        "edition_deck_only_card": '{source}: {key}: only card cells (`kind = "card"`) name a deck',
        "edition_cell_key": "{source}: {key}: is not a key of a '{cell_kind}' cell (it takes: {known})",
        "edition_move_to": "{source}: {key}: moves to unknown cell {value}",
        "edition_move_nearest": "{source}: {key}: no cell of kind {value} on the board",
        "edition_account": "{source}: {key}: {value} is not an account of these rules ({known})",
        "edition_no_slot": "{source}: {key}: these rules have no slot machine: remove the [slot] table",
        "edition_extra_key": "{source}: {key}: is not read by these rules (known: {known})",
        "edition_extra_none": "{source}: {key}: is not read by these rules (known: none)",
        # Classic and Deluxe (companion/engine/classic.py, deluxe.py)
        "edition_movement_deck": "{source}: {key}: {value} is not a deck in [decks] (known: {known})",
        "edition_movement_no_decks": "{source}: {key}: {value} is not a deck in [decks] (known: none)",
        "edition_monopoly_rent": "{source}: {key}: the monopoly rent must be {factor} x the printed rent ({need}), "
        "not {value}",
        "edition_one_charity": "{source}: {key}: white and black business need exactly one CHARITY FUND cell "
        '(`kind = "charity"`)',
        "edition_jackpot_cells": "{source}: {key}: needs at most one JACKPOT cell",
        "edition_one_inspection": '{source}: {key}: needs exactly one TAX INSPECTION cell (`kind = "detention"`)',
        "edition_rating_places": "{source}: {key}: must list the places on each step of the rating scale, bottom "
        "to top ({low} to {high} steps; whole numbers within {least}..{most} each)",
        # Elite (companion/engine/elite.py)
        "edition_not_industry": "{source}: {key}: {value} is not an industry in [[industries]]",
        "edition_fortune_effect": "{source}: {key}: '{effect}' is not a collective effect (FORTUNE cards may use: "
        "{known})",
        "edition_fortune_only": "{source}: {key}: '{effect}' holds while its card lies on the WHEEL OF FORTUNE: "
        "only a FORTUNE card may use it",
        "edition_not_collective": "{source}: {key}: '{effect}' is not a collective effect",
        "edition_plot_selector": "{source}: {key}: '{effect}' names the plots it changes: industry = ID or "
        'plots = "first" | "second" | "third" (one of the two)',
        "edition_ordinal": '{source}: {key}: plots = {value}: write "first", "second" or "third"',
        "edition_square": "{source}: {key}: a square board needs a multiple of 4 cells, not {value}",
        "edition_side_central": "{source}: {key}: side {side} needs exactly one '{ind}' plot",
        "edition_side_before": "{source}: {key}: side {side} needs one industry of 2 or 3 plots before its central "
        "plot",
        "edition_side_after": "{source}: {key}: side {side} needs one industry of 2 or 3 plots after its central plot",
        # Millionaire's slot machine and jackpot (companion/engine/millionaire.py)
        "edition_jackpot_bets": "{source}: {key}: must not exceed jackpot_max_bet ({high}), not {value}",
        "edition_reels": "{source}: {key}: must be three columns of six symbols (text)",
        "edition_wins": "{source}: {key}: must be a list of winning lines ([[slot.wins]])",
        "edition_win_table": "{source}: {key}: must be a table: combo and one of multiplier, amount, jackpot",
        "edition_combo": "{source}: {key}: must list three symbols (`*` for any)",
        "edition_win_kind": "{source}: {key}: needs exactly one of multiplier, amount, jackpot",
        "edition_win_jackpot": "{source}: {key}: must be true (pays the whole cash box), not {value}",
        # Monopoly (companion/engine/monopoly.py)
        "edition_hotel": "{source}: {key}: Monopoly has one hotel per lot, which returns its houses "
        "(large_max = 1, large_returns_small = true)",
        "edition_hotel_after": "{source}: {key}: must lie within 1..{high} (small_max)",
        "edition_start_deal": "{source}: {key}: {deeds} deeds can cost {cost}, more than start_cash ({cash})",
        "edition_no_lots": "{source}: {key}: advances to group '{ind}', which has no lots",
        # Mad Millionaire (companion/engine/madmillionaire.py)
        "edition_one_finish": '{source}: {key}: needs exactly one FINISH cell (`kind = "finish"`)',
        "edition_lease_table": "{source}: {key}: must be a table: business id = lease price",
        "edition_lease_plot": "{source}: {key}: is not a business (a plot cell)",
        "edition_lease_dear": "{source}: {key}: leasing must be cheaper than buying",
        "edition_smalls": "{source}: {key}: needs an industry '{ind}' with a small business for each of up to "
        "{seats} players",
        "edition_sale_faces": "{source}: {key}: must list six of {known} (die 1..6)",
        "edition_face_up": "{source}: {key}: must list at least {seats} whole numbers of face-up cards "
        "(for 1, 2, ... players)",
        "edition_one_die": "{source}: {key}: Mad Millionaire is played with one die",
        "edition_stunt_deck": "{source}: {key}: is missing (the Publicity Stunt cards)",
        "edition_face_up_deck": "{source}: {key}: more face-up cards than the deck can replace",
        "edition_stunt_only": "{source}: {key}: only the '{deck_id}' deck is known",
        "edition_stunt_effect": '{source}: {key}: a stunt card has exactly one effect: `{{ do = "stunt", cell = ... }}`',
        "edition_landmark": "{source}: {key}: '{value}' is not a landmark cell",
        "edition_rows": "{source}: {key}: must be a list of rows of business ids",
        "edition_row_short": "{source}: {key}: must list two or more business ids",
        "edition_row_plot": "{source}: {key}: {value} is not a business (a plot cell)",
        "edition_row_self": "{source}: {key}: '{value}' cannot stand next to itself",
        "edition_streets": "{source}: {key}: must list the streets ([[extra.streets]] with cells)",
        "edition_street_short": "{source}: {key}: must list two or more cells in driving order",
        "edition_not_cell": "{source}: {key}: '{value}' is not a cell",
        "edition_bool": "{source}: {key}: must be true or false",
        "edition_street_self": "{source}: {key}: a space cannot follow itself",
        "edition_off_street": "{source}: {key}: cell '{value}' is on no street",
        "edition_start_street": "{source}: {key}: '{value}' (beside START) is only driven away from",
        "edition_dead_end": "{source}: {key}: '{value}' is a dead end (no U-turns allowed)",
        "board_not_a_table": "not a table",  # an imported board that is a list or a value
    },
    "ru": {
        "edition_whole": "{source}: `{key}`: Нужно целое число, а не {value}",
        "edition_range": "{source}: `{key}`: Нужно целое число от {low} до {high}, а не {value}",
        "edition_whole_list": "{source}: `{key}`: Нужен список целых чисел, а не {value}",
        "edition_text": "{source}: `{key}`: Нужен текст, а не {value}",
        "edition_empty": "{source}: `{key}`: Не может быть пустым",
        "edition_ref": "{source}: `{key}`: Нужно одно слово из 1–32 латинских букв, цифр, «_» или «-» (не из одних "
        "цифр), а не {value}",
        "edition_table": "{source}: `{key}`: Нужна таблица",
        "edition_missing": "{source}: `{key}`: Не указано",
        "edition_kind_text": "{source}: `{key}`: Нужен текст, а не {value}",
        "edition_kind_bool": "{source}: `{key}`: Нужно `true` или `false`, а не {value}",
        "edition_kind_list": "{source}: `{key}`: Нужен список, а не {value}",
        "edition_kind_table": "{source}: `{key}`: Нужна таблица, а не {value}",
        "edition_kind_whole": "{source}: `{key}`: Нужно целое число, а не {value}",
        "edition_unknown_key": "{source}: `{key}`: Здесь такого ключа нет",
        "edition_unknown_key_of": "{source}: `{key}`: Здесь такого ключа нет (есть: {known})",
        "edition_box_base": "{source}: `{key}`: Нужно имя издания, например `elite`, а не {value}",
        "edition_box_mark": "{source}: `{key}`: Нужно назвать клетку или число, например `cells.ID` или "
        "`cells.ID.rent`, а не {value}",
        "edition_id": "{source}: `{key}`: Нужно одно слово из 1–32 строчных латинских букв, цифр, «_» или «-» "
        "(оно пишется в первой команде партии), а не {value}",
        "edition_language": "{source}: `{key}`: Нужен код языка, например `en`, `ru` или `pt-BR`, а не {value}",
        "edition_players": "{source}: `{key}`: Не может быть больше `players_max` ({high}), а указано {value}",
        "edition_supply": "{source}: `{key}`: В правилах «{rules}» такого предмета нет (есть: {known})",
        "edition_twice": "{source}: `{key}`: «{id}» встречается дважды",
        "edition_cell_kind": "{source}: `{key}`: В правилах «{rules}» нет клеток вида {value} (есть: {known})",
        "edition_no_industry": "{source}: `{key}`: Отрасли {value} в списке отраслей нет",
        "edition_rent_missing": "{source}: `{key}`: Рента не указана (а у отрасли нет `rent_by_count`)",
        "edition_rent_count": "{source}: `{key}`: Нужно сумм: {need} (по карточке, при монополии и по одной на "
        "каждый уровень застройки), а указано: {listed}",
        "edition_rent_count_flat": "{source}: `{key}`: Нужно сумм: {need} (по карточке и при монополии: в этой "
        "отрасли не строят), а указано: {listed}",
        "edition_tax_count": "{source}: `{key}`: Нужно сумм: {need}, а указано: {listed}",
        "edition_mortgage": "{source}: `{key}`: Залог не может быть больше цены ({price}), а указано {value}",
        "edition_industry_plots": "{source}: `{key}`: Отрасль бывает только у участков",
        "edition_by_count": "{source}: `{key}`: Нужно по одной сумме на каждое число участков во владении, от 1 "
        "до {count}, а указано: {listed}",
        "edition_first_start": '{source}: `{key}`: Первой клеткой должен быть СТАРТ (`kind = "start"`)',
        "edition_deck_empty": "{source}: `{key}`: Нужен непустой список карточек",
        "edition_no_deck": "{source}: `{key}`: Колоды {value} в `[decks]` нет",
        "edition_effect_table": "{source}: `{key}`: Действие карточки записывается таблицей с ключом `do`",
        "edition_effect": "{source}: `{key}`: Действие карточки {value} этим правилам неизвестно (есть: {known})",
        "edition_effect_needs": "{source}: `{key}`: Не указано (действию «{effect}» это нужно)",
        "edition_effect_arg": "{source}: `{key}`: У действия «{effect}» такого параметра нет (есть: {known})",
        "edition_effect_no_args": "{source}: `{key}`: У действия «{effect}» параметров нет",
        "edition_one_detention": '{source}: `{key}`: Нужна ровно одна клетка задержания (`kind = "detention"`)',
        "edition_card_cell_deck": "{source}: `{key}`: Не указано, из какой колоды тянут карточку на этой клетке",
        "edition_deck_only_card": '{source}: `{key}`: Колоду называют только клетки с карточками (`kind = "card"`)',
        "edition_cell_key": "{source}: `{key}`: У клетки вида «{cell_kind}» такого ключа нет (есть: {known})",
        "edition_move_to": "{source}: `{key}`: Карточка ведёт на клетку {value}, а такой клетки нет",
        "edition_move_nearest": "{source}: `{key}`: Клеток вида {value} на поле нет",
        "edition_account": "{source}: `{key}`: Счёта {value} в этих правилах нет (есть: {known})",
        "edition_no_slot": "{source}: `{key}`: В этих правилах нет игрового автомата: уберите таблицу `[slot]`",
        "edition_extra_key": "{source}: `{key}`: Этот ключ правила не читают (читают: {known})",
        "edition_extra_none": "{source}: `{key}`: Эти правила ничего из `[extra]` не читают",
        "edition_movement_deck": "{source}: `{key}`: Колоды {value} в `[decks]` нет (есть: {known})",
        "edition_movement_no_decks": "{source}: `{key}`: Колоды {value} в `[decks]` нет (колод нет вовсе)",
        "edition_monopoly_rent": "{source}: `{key}`: Рента при монополии — это рента по карточке × {factor} ({need}), "
        "а указано {value}",
        "edition_one_charity": "{source}: `{key}`: Для белого и чёрного бизнеса нужна ровно одна клетка "
        'БЛАГОТВОРИТЕЛЬНЫЙ ФОНД (`kind = "charity"`)',
        "edition_jackpot_cells": "{source}: `{key}`: Клетка ДЖЕКПОТ может быть только одна",
        "edition_one_inspection": "{source}: `{key}`: Нужна ровно одна клетка НАЛОГОВАЯ ИНСПЕКЦИЯ "
        '(`kind = "detention"`)',
        "edition_rating_places": "{source}: `{key}`: Нужен список мест на каждой ступени шкалы рейтинга, снизу "
        "вверх (ступеней от {low} до {high}; на каждой целое число от {least} до {most})",
        "edition_not_industry": "{source}: `{key}`: Отрасли {value} в `[[industries]]` нет",
        "edition_fortune_effect": "{source}: `{key}`: «{effect}» — не общее действие (карточкам ФОРТУНЫ можно: "
        "{known})",
        "edition_fortune_only": "{source}: `{key}`: «{effect}» действует, пока карточка лежит на КОЛЕСЕ ФОРТУНЫ: "
        "оно только для карточек ФОРТУНЫ",
        "edition_not_collective": "{source}: `{key}`: «{effect}» — не общее действие",
        "edition_plot_selector": "{source}: `{key}`: Действие «{effect}» называет участки, которые меняет: "
        '`industry = ID` или `plots = "first" | "second" | "third"` (что-то одно)',
        "edition_ordinal": '{source}: `{key}`: `plots` = {value}: пишите `"first"`, `"second"` или `"third"`',
        "edition_square": "{source}: `{key}`: На квадратном поле число клеток делится на 4, а их {value}",
        "edition_side_central": "{source}: `{key}`: На стороне {side} нужен ровно один участок отрасли «{ind}»",
        "edition_side_before": "{source}: `{key}`: На стороне {side} перед центральным участком нужна одна "
        "отрасль из 2 или 3 участков",
        "edition_side_after": "{source}: `{key}`: На стороне {side} после центрального участка нужна одна "
        "отрасль из 2 или 3 участков",
        "edition_jackpot_bets": "{source}: `{key}`: Не может быть больше `jackpot_max_bet` ({high}), а указано {value}",
        "edition_reels": "{source}: `{key}`: Нужны три барабана по шесть символов (текстом)",
        "edition_wins": "{source}: `{key}`: Нужен список выигрышных линий (`[[slot.wins]]`)",
        "edition_win_table": "{source}: `{key}`: Нужна таблица: `combo` и одно из `multiplier`, `amount`, `jackpot`",
        "edition_combo": "{source}: `{key}`: Нужны три символа (`*` — любой)",
        "edition_win_kind": "{source}: `{key}`: Нужно ровно одно из `multiplier`, `amount`, `jackpot`",
        "edition_win_jackpot": "{source}: `{key}`: Может быть только `true` (выплачивается вся касса), а не {value}",
        "edition_hotel": "{source}: `{key}`: В «Монополии» на участке один отель, и он возвращает дома "
        "(`large_max = 1`, `large_returns_small = true`)",
        "edition_hotel_after": "{source}: `{key}`: Нужно число от 1 до {high} (`small_max`)",
        "edition_start_deal": "{source}: `{key}`: Самые дорогие карточки собственности при раздаче ({deeds} шт.) "
        "вместе стоят {cost} — больше стартовых денег ({cash})",
        "edition_no_lots": "{source}: `{key}`: Карточка ведёт к группе «{ind}», а участков в ней нет",
        "edition_one_finish": '{source}: `{key}`: Нужна ровно одна клетка ФИНИШ (`kind = "finish"`)',
        "edition_lease_table": "{source}: `{key}`: Нужна таблица: `id` предприятия = цена аренды",
        "edition_lease_plot": "{source}: `{key}`: Это не предприятие (не клетка-участок)",
        "edition_lease_dear": "{source}: `{key}`: Аренда должна стоить дешевле покупки",
        "edition_smalls": "{source}: `{key}`: Нужна отрасль «{ind}» с малым предприятием для каждого игрока "
        "(игроков до {seats})",
        "edition_sale_faces": "{source}: `{key}`: Нужно шесть значений из {known} (грани кубика 1–6)",
        "edition_face_up": "{source}: `{key}`: Нужно хотя бы {seats:p:число|числа|чисел}: сколько карточек лежит "
        "открытыми при 1, 2, … игроках",
        "edition_one_die": "{source}: `{key}`: В «Безумного миллионера» играют одним кубиком",
        "edition_stunt_deck": "{source}: `{key}`: Не указано (карточки рекламных трюков)",
        "edition_face_up_deck": "{source}: `{key}`: Открытых карточек больше, чем колода может заменить",
        "edition_stunt_only": "{source}: `{key}`: Известна только колода «{deck_id}»",
        "edition_stunt_effect": "{source}: `{key}`: У карточки трюка ровно одно действие: "
        '`{{ do = "stunt", cell = ... }}`',
        "edition_landmark": "{source}: `{key}`: «{value}» — не клетка-достопримечательность",
        "edition_rows": "{source}: `{key}`: Нужен список рядов из `id` предприятий",
        "edition_row_short": "{source}: `{key}`: В ряду нужно два предприятия или больше",
        "edition_row_plot": "{source}: `{key}`: {value} — не предприятие (не клетка-участок)",
        "edition_row_self": "{source}: `{key}`: «{value}» не может стоять рядом с самим собой",
        "edition_streets": "{source}: `{key}`: Нужен список улиц (`[[extra.streets]]` с клетками)",
        "edition_street_short": "{source}: `{key}`: Нужно две клетки или больше, в порядке движения",
        "edition_not_cell": "{source}: `{key}`: Клетки «{value}» нет",
        "edition_bool": "{source}: `{key}`: Нужно `true` или `false`",
        "edition_street_self": "{source}: `{key}`: Клетка не может идти следом за самой собой",
        "edition_off_street": "{source}: `{key}`: Клетка «{value}» не стоит ни на одной улице",
        "edition_start_street": "{source}: `{key}`: С клетки «{value}» (рядом со СТАРТОМ) можно только уехать",
        "edition_dead_end": "{source}: `{key}`: «{value}» — тупик (разворачиваться нельзя)",
        "board_not_a_table": "внутри не таблица TOML",
    },
}
EN.update(LOADER["en"])
RU.update(LOADER["ru"])

# issue 23: boards (the table's own board: companion/editions/boards.py, check-edition, the game's first notice)
BOARDS = {
    "en": {
        "board_own_name": "{edition} — our box",
        "board_marks": "  checked against a box: {confirmed} of {total} items confirmed; placeholders still: "
        "{placeholder}; from public sources: {sourced}",
        "board_marks_sort": "    {sort}: {confirmed} confirmed, {placeholder:p:placeholder|placeholders}, "
        "{sourced} from sources (of {total})",
        "board_sort_cells": "cells (place and name)",
        "board_sort_numbers": "numbers",
        "board_sort_cards": "cards",
        "board_unconfirmed": "This board is not checked against your box: {placeholder} of {total} items are "
        "placeholders (Game > Our board)",
        "game_started_unchecked": "New game of {edition}: {players}. This board is not checked against your box: "
        "{placeholder} of {total} items are placeholders (Game > Our board)",
        "board_conflict": "Another phone saved this board first (now version {version}); it changed "
        "{count:p:item|items}: {changed}. Nothing of yours was saved: look and save again",
        "board_no_base": "There is no shipped edition '{base}' to make a board of (shipped: {shipped})",
        "board_not_edition": "This is not an edition file: {problem}",
        "board_other_rules": "This board plays by the '{rules}' rules, not {base}'s '{plays}'",
        "board_bad_path": "No such value on the board: {path}",
        "board_locked": "{path} is fixed by the rulebook and cannot be changed",
        "board_not_share": "This is not a board's share text (it starts with `MB1:`)",
        "board_too_many": "Too many values in one save (at most {limit})",
        "board_bad_value": "{path}: not a value (a number, numbers separated by commas, or text)",
        "board_problem": "{where}: {problem}",
        "board_card": "The card {label} “{text}”",
        "board_saved": "Saved as version {version}: {count:p:value|values} changed; placeholders left: {placeholder}",
        "board_imported": "Imported: {name} (version {version})",
        "board_import_source": "the file",
        "board_share_fits": "Share text: {length} characters, fits one QR code",
        "board_share_long": "Share text: {length} characters, too long for one QR code: send the file instead",
        "board_field_price": "price",
        "board_field_rent": "rent (printed, monopoly, by level)",
        "board_field_tax": "tax (printed, monopoly, by level)",
        "board_field_build_cost": "building cost",
        "board_field_mortgage": "mortgage (the rulebook's: half the price)",
        "board_locked_start_cash": "start cash (the rulebook's)",
        "board_slot": "the slot machine",
        "board_too_deep": "Lists and tables nested more than {limit} deep: this is not a board",
    },
    "ru": {
        "board_own_name": "{edition} — наша коробка",
        "board_marks": "  сверено с коробкой: {confirmed} из {total}; заглушек ещё: {placeholder}; из открытых "
        "источников: {sourced}",
        "board_marks_sort": "    {sort}: сверено {confirmed}, заглушек {placeholder}, из источников {sourced} "
        "(всего {total})",
        "board_sort_cells": "клетки (место и название)",
        "board_sort_numbers": "числа",
        "board_sort_cards": "карточки",
        "board_unconfirmed": "Это поле не сверено с вашей коробкой: заглушек {placeholder} из {total} "
        "(Игра > Наше поле)",
        "game_started_unchecked": "Новая игра «{edition}»: {players}. Это поле не сверено с вашей коробкой: "
        "заглушек {placeholder} из {total} (Игра > Наше поле)",
        "board_conflict": "Другой телефон сохранил это поле раньше (теперь версия {version}) и изменил "
        "{count:p:пункт|пункта|пунктов}: {changed}. Ваши правки не сохранены: посмотрите и "
        "сохраните снова",
        "board_no_base": "Издания «{base}» в комплекте нет, поле из него не сделать (в комплекте: {shipped})",
        "board_not_edition": "Это не файл издания: {problem}",
        "board_other_rules": "Это поле играет по правилам «{rules}», а не «{plays}», как {base}",
        "board_bad_path": "На поле нет такого значения: {path}",
        "board_locked": "{path} задано правилами игры, его не изменить",
        "board_not_share": "Это не текст для передачи поля (он начинается с `MB1:`)",
        "board_too_many": "Слишком много значений за одно сохранение (не больше {limit})",
        "board_bad_value": "{path}: это не значение (нужно число, числа через запятую или текст)",
        "board_problem": "{where}: {problem}",
        "board_card": "Карточка {label} «{text}»",
        "board_saved": "Сохранено, версия {version}; изменено значений: {count}; заглушек осталось: {placeholder}",
        "board_imported": "Загружено: «{name}» (версия {version})",
        "board_import_source": "файл",
        "board_share_fits": "Текст для передачи: символов — {length}, помещается в один QR-код",
        "board_share_long": "Текст для передачи: символов — {length}, для одного QR-кода это много: передайте файл",
        "board_field_price": "цена",
        "board_field_rent": "рента (по карточке, при монополии, по уровням)",
        "board_field_tax": "налог (по карточке, при монополии, по уровням)",
        "board_field_build_cost": "цена филиала",
        "board_field_mortgage": "залог (по правилам: половина цены)",
        "board_locked_start_cash": "стартовый капитал (по правилам)",
        "board_slot": "игровой автомат",
        "board_too_deep": "Списки и таблицы вложены глубже {limit} уровней: это не поле",
    },
}
EN.update(BOARDS["en"])
RU.update(BOARDS["ru"])

# issue 23: effect parameters (a card's effect and each of its parameters on the board editor, in words)
EFFECT_WORDS = {
    "en": {
        "effect_do_pay": "the player pays the bank",
        "effect_do_receive": "the bank pays the player",
        "effect_do_pay_each_player": "the player pays each other player",
        "effect_do_collect_from_each": "each other player pays the player",
        "effect_do_each_player_pays": "every player pays",
        "effect_do_each_player_receives": "the bank pays every player",
        "effect_do_pay_per_building": "the player pays per building",
        "effect_do_move_to": "move to a cell",
        "effect_do_move_steps": "move by steps",
        "effect_do_move_nearest": "move to the nearest cell of a kind",
        "effect_do_go_to_detention": "go to detention",
        "effect_do_release": "keep: leave detention free",
        "effect_do_skip_turn": "miss a turn",
        "effect_do_share_price": "the share price moves",
        "effect_do_each_pays_per_share": "every holder pays per share",
        "effect_do_each_receives_per_share": "the bank pays every holder per share",
        "effect_do_each_pays_per_building": "every player pays per building",
        "effect_do_dividend_percent": "dividends at a rate (while in force)",
        "effect_do_circle_income": "circle income (while in force)",
        "effect_do_tax_exemption": "no circle tax next time",
        "effect_do_draw_fortune": "put FORTUNE cards on the wheel",
        "effect_do_set_rent": "the rent there is (while in force)",
        "effect_do_set_tax": "the circle tax there is (while in force)",
        "effect_do_double_tax": "the circle tax there is doubled (while in force)",
        "effect_do_share_tax": "circle tax per share (while in force)",
        "effect_do_advance_to_nearest": "advance to the nearest of a group",
        "effect_do_stunt": "a publicity stunt at a location",
        "effect_param_amount": "Amount",
        "effect_param_small": "Per {kind}",
        "effect_param_large": "Per {kind}",
        "effect_param_steps": "Steps (back when negative)",
        "effect_param_points": "Share price points",
        "effect_param_percent": "Percent",
        "effect_param_count": "How many cards",
        "effect_param_cell": "Cell",
        "effect_param_kind": "Kind of cell",
        "effect_param_deck": "Deck",
        "effect_param_to": "Paid to",
        "effect_param_from": "Paid by",
        "effect_param_industry": "Industry",
        "effect_param_plots": "Which plot of each industry",
        "effect_param_collect": "Income passing START",
        "effect_param_rent_multiplier": "Times the rent",
        "effect_param_dice_multiplier": "Times a fresh throw of the dice",
        "effect_param_yes": "yes",
        "effect_param_no": "no",
        "effect_plots_first": "the first",
        "effect_plots_second": "the second",
        "effect_plots_third": "the third",
        "effect_kind_card": "a card cell",
        "effect_bad_number": "{where}: {what} must be a whole number, not {value}",
        "effect_bad_choice": "{where}: {what} cannot be {value}",
    },
    "ru": {
        "effect_do_pay": "игрок платит БАНКУ",
        "effect_do_receive": "БАНК платит игроку",
        "effect_do_pay_each_player": "игрок платит каждому другому игроку",
        "effect_do_collect_from_each": "каждый другой игрок платит игроку",
        "effect_do_each_player_pays": "каждый игрок платит",
        "effect_do_each_player_receives": "БАНК платит каждому игроку",
        "effect_do_pay_per_building": "игрок платит за каждую постройку",
        "effect_do_move_to": "перейти на клетку",
        "effect_do_move_steps": "пройти на столько клеток",
        "effect_do_move_nearest": "перейти на ближайшую клетку такого вида",
        "effect_do_go_to_detention": "отправиться под арест",
        "effect_do_release": "оставить себе: выйти из-под ареста",
        "effect_do_skip_turn": "пропустить ход",
        "effect_do_share_price": "курс акций меняется",
        "effect_do_each_pays_per_share": "каждый владелец платит за акцию",
        "effect_do_each_receives_per_share": "БАНК платит каждому владельцу за акцию",
        "effect_do_each_pays_per_building": "каждый игрок платит за каждую постройку",
        "effect_do_dividend_percent": "дивиденды по ставке (пока карточка действует)",
        "effect_do_circle_income": "доход за круг (пока карточка действует)",
        "effect_do_tax_exemption": "в следующий раз без налога за круг",
        "effect_do_draw_fortune": "выложить карточки ФОРТУНЫ на колесо",
        "effect_do_set_rent": "рента там (пока карточка действует)",
        "effect_do_set_tax": "налог за круг там (пока карточка действует)",
        "effect_do_double_tax": "налог за круг там удвоен (пока карточка действует)",
        "effect_do_share_tax": "налог за круг с акции (пока карточка действует)",
        "effect_do_advance_to_nearest": "вперёд до ближайшего участка группы",
        "effect_do_stunt": "рекламная акция в месте",
        "effect_param_amount": "Сумма",
        "effect_param_small": "За {kind:acc}",
        "effect_param_large": "За {kind:acc}",
        "effect_param_steps": "Клеток (назад, если меньше нуля)",
        "effect_param_points": "Пунктов курса акций",
        "effect_param_percent": "Процентов",
        "effect_param_count": "Сколько карточек",
        "effect_param_cell": "Клетка",
        "effect_param_kind": "Вид клетки",
        "effect_param_deck": "Колода",
        "effect_param_to": "Кому платят",
        "effect_param_from": "Кто платит",
        "effect_param_industry": "Отрасль",
        "effect_param_plots": "Какой участок каждой отрасли",
        "effect_param_collect": "Доход при проходе СТАРТА",
        "effect_param_rent_multiplier": "Во сколько раз больше ренты",
        "effect_param_dice_multiplier": "Во сколько раз больше нового броска кубиков",
        "effect_param_yes": "да",
        "effect_param_no": "нет",
        "effect_plots_first": "первый",
        "effect_plots_second": "второй",
        "effect_plots_third": "третий",
        "effect_kind_card": "клетка с карточкой",
        "effect_bad_number": "{where}: {what} — нужно целое число, а не {value}",
        "effect_bad_choice": "{where}: {what} — такого значения нет: {value}",
    },
}
EN.update(EFFECT_WORDS["en"])
RU.update(EFFECT_WORDS["ru"])

CATALOGS = {"en": EN, "ru": RU}
LANGUAGES = tuple(CATALOGS)

# ----- the words parameters carry as codes or ids ------------------------------------------------
# Each code a parameter may carry becomes words of the glossary (companion/words/glossary.toml) or of
# these tables; plot, cell, card, deck and industry ids become the edition's names.

ACCOUNTS = {"bank": "bank", "jackpot": "jackpot_box", "charity": "charity", "pot": "pot", "table": "table"}
POLICIES = ("green", "blue", "orange", "red")
DECKS = {
    "chance": "chance",
    "fortune": "fortune",
    "movement": "movement",
    "community_chest": "community_chest",
    "stunt": "stunt",
}
BUILDINGS = {"millionaire": ("branch", "enterprise"), "monopoly": ("house", "hotel")}
KINDS = {"house": "house", "hotel": "hotel", "shares": "share"}
PARTY_KEYS = ("player", "other", "actor", "seller", "holder", "winner", "to", "creditor")
NUMBER_KEYS = (
    "amount",
    "price",
    "cash",
    "count",
    "held",
    "steps",
    "tries",
    "level",
    "cost",
    "number",
    "event",
    "by",
    "window",
    "limit",
    "length",
    "position",
    "min",
    "max",
    "given",
    "high",
    "low",
    "opening",
    "minimum",
    "bet",
    "old",
    "new",
    "left",
    "redeem",
    "interest",
    "times",
    "step",
    "target",
    "die",
    "lease",
    "paid",
    "received",
    "from_debtor",
    "seed",
    "could",
    "small",
    "large",
)

# what a number or a payment is (`what` of not_a_number, out_of_range, insufficient_funds)
WHAT = {
    "en": {
        "amount": "amount",
        "offer": "offer number",
        "die": "die",
        "shares": "number of shares",
        "fee": "commission",
        "bet": "bet",
        "bid": "bid",
        "trade": "trade",
        "payment": "payment",
        "fine": "fine",
        "commission": "commission",
        "jackpot": "JACKPOT bet",
    },
    "ru": {
        "amount": "Сумма",
        "offer": "Номер предложения",
        "die": "Кубик",
        "shares": "Число акций",
        "fee": "Посреднический процент",
        "bet": "Ставка",
        "bid": "ставка",
        "trade": "сделка",
        "payment": "платёж",
        "fine": "штраф",
        "commission": "посреднический процент",
        "jackpot": "ставка в ДЖЕКПОТ",
    },
}
# what is still to be settled (a pending decision's kind): pending_first, the state view
PENDING = {
    "en": {
        "offer": "the decision to buy or decline",
        "draw": "drawing the card",
        "auction": "the auction",
        "choose": "choosing the cell",
        "auction_roll": "the AUCTION rolls",
        "claim": "the policy decision",
        "reveal": "turning over the stunt card",
        "move": "saying where the car stopped",
        "six": "the six (the bonus or a missed turn for an opponent)",
        "house_auction": "the building auction",
        "place_building": "placing the building won",
        "rent_roll": "the rent throw",
        "mortgage_transfer": "the decision on a mortgaged plot",
    },
    "ru": {
        "offer": "решение о покупке участка",
        "draw": "взять карточку",
        "auction": "аукцион",
        "choose": "выбор клетки",
        "auction_roll": "броски кубика для АУКЦИОНА",
        "claim": "решение о страховом полисе",
        "reveal": "открыть карточку рекламной акции",
        "move": "указать, где остановилась машина",
        "six": "шестёрка: премия или пропуск хода соперником",
        "house_auction": "аукцион постройки",
        "place_building": "поставить выигранную постройку",
        "rent_roll": "бросок для аренды",
        "mortgage_transfer": "решение по заложенному участку",
    },
}
STAGES = {
    "en": {"before": "before-the-roll", "after": "after-the-roll"},
    "ru": {"before": "до броска", "after": "после броска"},
}
TENURE = {"en": {"leased": "leased", "bought": "bought"}, "ru": {"leased": "в аренде", "bought": "куплено"}}
FACES = {
    "en": {"half": "half price", "full": "full price", "double": "double price", "triple": "triple price"},
    "ru": {"half": "за полцены", "full": "по полной цене", "double": "по двойной цене", "triple": "по тройной цене"},
}
SYMBOLS = {
    "en": {"cherry": "cherry", "lemon": "lemon", "bell": "bell", "bar": "bar", "seven": "seven", "*": "any"},
    "ru": {
        "cherry": "вишня",
        "lemon": "лимон",
        "bell": "колокольчик",
        "bar": "слиток",
        "seven": "семёрка",
        "*": "любой",
    },
}
# what a player holds (state view; put_items)
ITEMS = {
    "en": {"shares": "shares", "signs": "SOLD signs", "rating": "rating step"},
    "ru": {"shares": "акции", "signs": "таблички SOLD", "rating": "ступень рейтинга"},
}
# a usage parameter that is words, not a command's syntax
USAGE_WORDS = {
    "en": {"each card once": "each card once", "each plot once": "each plot once"},
    "ru": {"each card once": "каждая карточка — один раз", "each plot once": "каждый участок — один раз"},
}
ACTOR_USAGE_RU = "`ИМЯ: КОМАНДА...` (ИМЯ — имя игрока или `table`)"
NOTHING = {"en": "-", "ru": "ничего"}
# a board's group of plots, by the family of rules: (after "whole", after "of"); Russian's
# instrumental and genitive
GROUP_WORDS = {
    "en": {"millionaire": ("industry",) * 2, "monopoly": ("colour group",) * 2},
    "ru": {"millionaire": ("отраслью", "отрасли"), "monopoly": ("группой", "группы")},
}


def family_of(edition) -> str:
    """monopoly or millionaire: which board's words an edition's messages take."""
    return "monopoly" if edition is not None and getattr(edition, "rules", None) == "monopoly" else "millionaire"


# one side of a trade: what it hands over, or that it hands over nothing
GIVES = {"en": ("gives {items}", "gives nothing"), "ru": ("отдаёт {items}", "ничего не отдаёт")}
# a circle income's two parts (Elite: the fixed sum and the dividend on shares)
INCOME_PARTS = {"en": " ({fixed} + {dividend} on shares)", "ru": " ({fixed} + {dividend} по акциям)"}
# a policy that expires: one, or several of a colour
EXPIRED = {
    "en": (
        "{policy} policy expires and goes back to the bank",
        "{count} {policy} policies expire and go back to the bank",
    ),
    "ru": (
        "{policy} полис больше не действует и возвращается в БАНК",
        "{count} больше не действуют и возвращаются в БАНК",
    ),
}
UNKNOWN = {"en": "-", "ru": "—"}
AND = {"en": ", ", "ru": " и "}
OR = {"en": ", ", "ru": " или "}

# ----- the edge's parameters (EDGE above) ---------------------------------------------------------
# what the ledger was doing when it failed (`doing`)
DOING = {
    "en": {
        "open": "cannot open the ledger",
        "create": "cannot create the ledger",
        "read": "cannot read the ledger",
        "write": "the event was not written",
    },
    "ru": {
        "open": "журнал не удаётся открыть",
        "create": "журнал не удаётся создать",
        "read": "журнал не удаётся прочитать",
        "write": "событие не записано",
    },
}
# what the operating system or SQLite said (`detail`), by its code (`cause`: an errno name, an SQLite
# error name, or one of ours); a code not listed shows the machine's own words (quoted in Russian)
DETAILS = {
    "en": {"disk_full": "the disk is full"},
    "ru": {
        "disk_full": "диск заполнен",
        "nul_in_path": "в пути есть нулевой байт",
        "ENOENT": "нет такого файла или папки",
        "EACCES": "нет доступа",
        "EPERM": "операция не разрешена",
        "EISDIR": "это папка",
        "ENOTDIR": "часть пути — не папка",
        "EROFS": "файловая система только для чтения",
        "ENOSPC": "на диске нет места",
        "EDQUOT": "превышена дисковая квота",
        "EIO": "ошибка ввода-вывода",
        "ENAMETOOLONG": "слишком длинное имя файла",
        "ELOOP": "слишком много символических ссылок",
        "EMFILE": "открыто слишком много файлов",
        "EBUSY": "ресурс занят",
        "EEXIST": "файл уже существует",
        "EINVAL": "недопустимое значение",
        "SQLITE_IOERR": "ошибка ввода-вывода на диске",
        "SQLITE_CORRUPT": "база данных повреждена",
        "SQLITE_NOTADB": "это не база данных",
        "SQLITE_FULL": "диск заполнен",
        "SQLITE_CANTOPEN": "файл не открывается",
        "SQLITE_READONLY": "файл доступен только для чтения",
        "SQLITE_BUSY": "файл занят другой программой",
        "SQLITE_LOCKED": "таблица заблокирована",
        "SQLITE_PERM": "нет доступа",
        "SQLITE_NOMEM": "не хватает памяти",
        "SQLITE_CONSTRAINT": "нарушено ограничение базы данных",
    },
}
# a schema entry that was removed (genitive: «нет таблицы») or added (nominative)
SCHEMA_ENTRIES = {
    "ru": {
        "table": ("таблица", "таблицы"),
        "trigger": ("триггер", "триггера"),
        "index": ("индекс", "индекса"),
        "view": ("представление", "представления"),
    }
}
# `expect mortgaged|detained|alive`, and the yes/no/none of expected values
FLAGS = {"ru": {"mortgaged": "в залоге", "detained": "задержание", "alive": "в игре"}}
ANSWERS = {"ru": {"yes": "да", "no": "нет", "none": "нет"}}
# the value argparse wanted (`invalid int value`)
VALUE_TYPES = {"ru": {"int": "целое число", "float": "число"}}
NOTHING_READABLE = {"en": "nothing readable", "ru": "читать нечего"}
# words as typed (commands, options, argparse's names): listed plainly in English, `quoted` in Russian
TYPED_LISTS = ("choices", "known", "accounts", "names", "matches", "codes")

# the terminal's own labels (companion/cli/__init__.py, companion/table/view.py, companion/table/script.py)
LABELS = {
    "en": {
        "refused": "refused",
        "error": "error",
        "warning": "warning",
        "waiting": "waiting for",
        "winner": "winner",
        "out": "(out)",
        "mortgaged": "(m)",
        "undone": "(undone)",
        "head": "head",
        "ledger": "ledger",
        "recovered": "recovered from",
        "ledger damaged": "ledger damaged",
        "outcome unknown": "outcome unknown",
        "disk full": "disk full",
        "halted": "BANK HALTED (a bug, nothing more is written)",
        "interrupted": "interrupted",
        "internal": "internal error: {kind} (a bug; the traceback is in {where})",
        "verified": "verified: {count:p:event|events} replayed from the start; the hash chain, the checkpoints and "
        "this machine's anchor agree",
        "verified_stranger": "checked: {count:p:event|events} replayed from the start; the hash chain and the "
        "checkpoints agree, but this is a stranger's game: nothing on this machine vouches "
        "for the file (see below)",
        "edition_line": "{id:<14} {name} ({low}-{high} players, rules '{rules}')",
        "edition_ok": "{file}: ok ({name}, {cells} cells, {plots} plots, {cards} cards)",
        "names_fallback": "  in {tongue}, shown as the file writes them (no name_{tongue} / text_{tongue}): "
        "{cells} of {all_cells} cells, {industries} of {all_industries} industries, "
        "{cards} of {all_cards} cards",
        "price": "share price",
        "exchange": "on the EXCHANGE",
        "fortune": "FORTUNE cards in force",
        "fortune_one": "FORTUNE card in force",
        "at": "on",
        "window": "may buy shares (passing START)",
        "jackpot": "may play the JACKPOT",
        "claimed": "free business taken",
        "leased": "leased",
        "stunts": "publicity stunts face up",
        "may": "may buy or lease",
        "on_finish": "on FINISH",
        "queue": "still to settle",
        "rating_places": "rating steps taken",
        "card_move": "card move",
        "anywhere": "any business",
        "demo": "Demo: {edition}, players {players}, seed {seed}",
        "demo_end": "{count:p:event|events} on the ledger; reopened from disk, hash chain and anchor checked: {result}",
        "identical": "identical state",
        "different": "DIFFERENT STATE",
        "demo_head": "(the words every screen can compare)",
        "usage": "usage",
        "demo_roll": "ROLL pressed",
        "demo_plot_card": "the {plot} card on the reader",
        "demo_deck_card": "the card drawn, on the reader",
        "demo_player_card": "{player}'s card on the reader",
        "demo_ok": "OK pressed",
        "demo_serving": "The virtual table: open {url} in a browser (Ctrl-C stops the box)",
        "demo_no_page": "The virtual table could not start (see the line above)",
        # issue 22: the demo's games folder and resume
        "demo_folder": "Games folder: {path} (kept between runs; --new starts a fresh game)",
        "demo_resumed": "The game in play was resumed at #{seq}: {edition}, players {players}",
        "demo_started": "No game in play, so a new one started: {edition}, players {players}",
        "demo_new": "A new game started (--new; the one in play went to the archive): {edition}, players {players}",
    },
    "ru": {
        "refused": "отказ",
        "error": "ошибка",
        "warning": "внимание",
        "waiting": "ждём",
        "winner": "победитель",
        "out": "(вне игры)",
        "mortgaged": "(в залоге)",
        "undone": "(отменено)",
        "head": "последнее событие",
        "ledger": "журнал",
        "recovered": "восстановлено из",
        "ledger damaged": "журнал повреждён",
        "outcome unknown": "исход неизвестен",
        "disk full": "диск заполнен",
        "halted": "БАНК ОСТАНОВЛЕН (ошибка программы, больше ничего не записывается)",
        "interrupted": "прервано",
        "internal": "внутренняя ошибка: {kind} (ошибка программы; трассировка: {where})",
        "verified": "проверено: событий переиграно с начала — {count}; цепочка хешей, контрольные точки и "
        "якорь этого устройства сходятся",
        "verified_stranger": "проверено: событий переиграно с начала — {count}; цепочка хешей и контрольные "
        "точки сходятся, но это чужая игра: на этом устройстве ничто не ручается за файл "
        "(см. ниже)",
        "edition_line": "{id:<14} {name} (игроков: {low}–{high}, правила «{rules}»)",
        "edition_ok": "{file}: в порядке ({name}; клеток: {cells}, участков: {plots}, карточек: {cards})",
        "names_fallback": "  язык {tongue}: названия как в файле (нет name_{tongue} / text_{tongue}) — "
        "клеток: {cells} из {all_cells}, отраслей: {industries} из {all_industries}, "
        "карточек: {cards} из {all_cards}",
        "price": "курс акций",
        "exchange": "на БИРЖЕ",
        "fortune": "действуют карточки ФОРТУНЫ",
        "fortune_one": "действует карточка ФОРТУНЫ",
        "at": "на",
        "window": "может купить акции (на СТАРТЕ)",
        "jackpot": "может сыграть в ДЖЕКПОТ",
        "claimed": "бесплатное предприятие взято",
        "leased": "в аренде",
        "stunts": "открытые рекламные акции",
        "may": "может купить или арендовать",
        "on_finish": "на ФИНИШЕ",
        "queue": "ещё решить",
        "rating_places": "занятые ступени рейтинга",
        "card_move": "ход по карточке",
        "anywhere": "любое предприятие",
        "demo": "Демонстрация: {edition}, игроки {players}, тасовка {seed}",
        "demo_end": "событий в журнале: {count}; журнал открыт заново с диска, цепочка хешей и якорь "
        "проверены: {result}",
        "identical": "состояние то же",
        "different": "СОСТОЯНИЕ ДРУГОЕ",
        "demo_head": "(слова, которые можно сверить на любом экране)",
        "demo_roll": "нажата кнопка БРОСОК",
        "demo_plot_card": "карточка участка «{plot}» на считывателе",
        "demo_deck_card": "вытянутая карта на считывателе",
        "demo_player_card": "карта игрока {player} на считывателе",
        "demo_ok": "нажата кнопка OK",
        "demo_serving": "Виртуальный стол: откройте {url} в браузере (Ctrl-C выключает коробку)",
        "demo_no_page": "Виртуальный стол не запустился (см. строку выше)",
        "usage": "ошибка в командной строке",
        # issue 22: the demo's games folder and resume
        "demo_folder": "Папка игр: {path} (сохраняется между запусками; --new начинает новую игру)",
        "demo_resumed": "Игра продолжена с #{seq}: {edition}, игроки {players}",
        "demo_started": "Игры не было, поэтому начата новая: {edition}, игроки {players}",
        "demo_new": "Начата новая игра (--new; прежняя убрана в архив): {edition}, игроки {players}",
    },
}


def label(key, language="en", **params):
    """One of the terminal's fixed labels in the language (params fill its blanks)."""
    text = LABELS.get(language, LABELS["en"]).get(key) or LABELS["en"][key]
    # through the catalogues' formatter: a count takes its noun's plural form ("1 event", "2 events")
    return Formatter(_lang(language)).format(text, **params) if params else text


def _lang(language):
    return language if language in CATALOGS else "en"


def inner_quotes(text, language):
    """A name shown «quoted» in Russian has its own «» turned into „“ (ёлочки outside, лапки inside)."""
    if language == "ru" and isinstance(text, str) and "«" in text:
        return text.replace("«", "„").replace("»", "“")
    return text


def cell_name(edition, ref, language=None):
    """A plot's or cell's name in the language (the file's `name_en`...), else as the file writes it;
    an id the edition does not know stays as given: what was typed."""
    if edition is None or not isinstance(ref, str):
        return ref
    cell = edition.cell(ref)
    return in_language(cell.name, cell.names, language and _lang(language)) if cell is not None else ref


def card_text(edition, ref, language="en"):
    """A card's text as the box prints it (in Russian without the closing full stop, as it is quoted)."""
    if edition is None or ref not in getattr(edition, "cards", {}):
        return ref
    card = edition.cards[ref]
    text = in_language(card.text, card.texts, _lang(language))
    return inner_quotes(text.rstrip("."), language) if language == "ru" else text


def deck_name(edition, deck, language="en"):
    """A deck's name: the name of the board's cell that deals it where the edition names that cell in
    the language (in Russian as `cell_words` quotes it: ШАНС bare, «Шанс» quoted), else the glossary's."""
    lang = _lang(language)
    cells = [c for c in getattr(edition, "cells", ()) if c.deck == deck]
    if cells and (edition.language.split("-")[0] == lang or deck not in DECKS or lang in cells[0].names):
        # a Monopoly board names its decks «Шанс», «Общественная казна», not Millionaire's ШАНС
        if lang != "ru":
            return cell_name(edition, cells[0].id, lang)
        name = cell_words(edition, cells[0].id, lang)
        if deck in DECKS and name == term(DECKS[deck], lang):
            return term(DECKS[deck], lang)  # the rulebook's word with its cases: «карточку ФОРТУНЫ»
        return name
    if deck in DECKS:
        return term(DECKS[deck], lang)
    return cell_name(edition, cells[0].id, lang) if cells else deck


def party(value, language="en"):
    """A player's name as typed; a system account or the table in words; nobody as a dash."""
    if value is None:
        return UNKNOWN[_lang(language)]
    if value in ACCOUNTS:
        return term(ACCOUNTS[value], _lang(language))
    return value


def policy_word(colour, language="en"):
    """A policy's colour as the rulebook writes it: ЗЕЛЁНЫЙ (`{policy} полис`), GREEN (`{policy} policy`)."""
    return term(colour, _lang(language)) if colour in POLICIES else colour


def kind_word(kind, language="en", edition=None):
    """What the box runs out of or what is auctioned: a building, shares, a policy of a colour."""
    lang = _lang(language)
    if kind in ("small", "large"):
        family = family_of(edition)
        return term(BUILDINGS[family][kind == "large"], lang)
    if kind in KINDS:
        return term(KINDS[kind], lang)
    if kind in POLICIES:
        colour, policy = term(kind, lang), term("policy", lang)
        if lang == "ru":
            forms = {case: f"{colour.form(case)} {policy.form(case)}" for case in ("gen", "acc", "gen_pl")}
            forms["few"] = f"{colour.form('gen_pl')} {policy.form('gen')}"  # 2 СИНИХ полиса
            return Word(f"{colour} {policy}", forms)
        return Word(f"{colour} {policy}", {"pl": f"{colour} policies", "gen_pl": f"{colour} policies"})
    return kind


def building_word(level, edition, language="en"):
    """The building at a level of a plot: a branch up to small_max, then an enterprise (house, hotel)."""
    small_max = (edition.buildings.get("small_max", 4) if edition is not None else 4) or 4
    return kind_word("small" if int(level) <= small_max else "large", language, edition)


def joined(items, language):
    """a, b and c; а, б и в."""
    last = " and " if _lang(language) == "en" else " и "
    return ", ".join(items[:-1]) + last + items[-1] if len(items) > 1 else "".join(items)


def with_article(word, language):
    """An English noun with its indefinite article (a house, an enterprise); Russian has none."""
    if language != "en":
        return word
    return ("an " if str(word)[:1].lower() in "aeiou" else "a ") + str(word)


def where_words(edition, ref, language):
    """Where a token stands, after «на»: «участке «Кинотеатр»» for a plot, «клетке ШАНС» for the
    board's capitalised cells, which the rulebook writes without quotes (English: the name)."""
    if language != "ru":
        return cell_name(edition, ref, language)
    cell = edition.cell(ref) if edition is not None and isinstance(ref, str) else None
    return ("участке " if cell is not None and cell.is_plot else "клетке ") + cell_words(edition, ref, language)


def cell_words(edition, ref, language):
    """A cell in Russian as the rulebook writes it: «Кинотеатр» (a plot, a named cell), but ШАНС, БИРЖА
    bare (the board's capitalised cells); what the edition does not know stays «as typed»."""
    name = cell_name(edition, ref, language)
    cell = edition.cell(ref) if edition is not None and isinstance(ref, str) else None
    if cell is not None and not cell.is_plot and isinstance(name, str) and name.upper() == name:
        return name
    return f"«{inner_quotes(name, language)}»"


# the ways a debtor can raise money, as the rules of the edition allow
WAYS = {
    "en": (
        "Sell buildings, mortgage plots or declare bankruptcy",
        "Sell shares or buildings, mortgage plots or declare bankruptcy",
    ),
    "ru": (
        "Продайте постройки, заложите участки или объявите себя банкротом",
        "Продайте акции или постройки, заложите участки или объявите себя банкротом",
    ),
}


def start_name(edition, language):
    """The START cell's name as the board prints it (GO on a Monopoly board)."""
    cells = [c for c in getattr(edition, "cells", ()) if c.kind == "start"]
    if cells:
        return cell_name(edition, cells[0].id, language)
    return term("start", _lang(language))


# where a detained player is held, by the family of rules (as BUILDINGS): the glossary's term
DETENTION = {"millionaire": "tax_inspection", "monopoly": "jail"}


def jail_words(edition, language):
    """(in, out of) detention as the rulebook declines it: «в НАЛОГОВОЙ ИНСПЕКЦИИ», «из НАЛОГОВОЙ
    ИНСПЕКЦИИ»; Monopoly's «в тюрьме»; English "in Jail", "Jail"."""
    lang = _lang(language)
    family = family_of(edition)
    place = term(DETENTION[family], lang)
    if lang == "ru":
        return f"в {place.form('pre')}", f"из {place.form('gen')}"
    return f"in {place}", str(place)


def handed(items, cash, language, edition):
    """What one side of a trade hands over: plots and cards, then money (or that it gives nothing)."""
    lang = _lang(language)
    shown = [thing_name(edition, v, lang) for v in items] + ([str(cash)] if cash else [])
    gives, nothing = GIVES[lang]
    return gives.format(items=", ".join(shown)) if shown else nothing


def counted(n, word, language):
    """A number with its noun in the right form: 1 акция, 2 акции, 5 акций; 2 СИНИХ полиса (an
    adjective goes to the genitive plural after 2-4); 1 share, 2 shares."""
    lang = _lang(language)
    if not isinstance(word, Word):
        return f"{n} {word}"
    if lang != "ru":
        return f"{n} {word if n == 1 else word.form('pl')}"
    category = plural_category(n, "ru")
    if category == "one":
        return f"{n} {word}"
    if category == "few":
        return f"{n} {word.forms.get('few') or word.form('gen')}"
    return f"{n} {word.form('gen_pl')}"


def holding_words(item, n, language="en"):
    """What a player holds, counted as a native says it: 5 акций, 2 СИНИХ полиса, 1 RED policy."""
    lang = _lang(language)
    if item == "shares":
        return counted(n, term("share", lang), lang)
    if item in POLICIES:
        return counted(n, kind_word(item, lang), lang)
    return f"{item_word(item, lang)} {n}"


def buildings_words(level, edition, language="en"):
    """A plot's buildings in words: 2 филиала, предприятие; 3 houses, a hotel."""
    lang = _lang(language)
    small_max = (edition.buildings.get("small_max", 4) if edition is not None else 4) or 4
    if level <= small_max:
        return counted(level, kind_word("small", lang, edition), lang)
    return str(kind_word("large", lang, edition))


NO_BUILDINGS = {"en": "no buildings", "ru": "ни одной постройки"}


def standing(small, large, edition, language):
    """The buildings that stand on a plot: 2 филиала; 1 предприятие; no buildings."""
    lang = _lang(language)
    parts = [counted(n, kind_word(kind, lang, edition), lang) for n, kind in ((small, "small"), (large, "large")) if n]
    return AND[lang].join(parts) if parts else NO_BUILDINGS[lang]


def expired_words(colour, count, language):
    lang = _lang(language)
    one, several = EXPIRED[lang]
    policy = policy_word(colour, lang)
    if count == 1:
        return one.format(policy=policy)
    if lang == "ru":
        if plural_category(count, "ru") == "one":  # 21 СИНИЙ полис больше не действует
            return f"{counted(count, kind_word(colour, lang), lang)} больше не действует и возвращается в БАНК"
        return several.format(count=counted(count, kind_word(colour, lang), lang))
    return several.format(count=count, policy=policy)


def item_word(item, language="en"):
    lang = _lang(language)
    if item in POLICIES:
        return kind_word(item, lang)
    return ITEMS[lang].get(item, item)


def industry_name(edition, ref, language=None):
    if edition is None or ref not in getattr(edition, "industries", {}):
        return ref
    ind = edition.industries[ref]
    return in_language(ind.name, ind.names, language and _lang(language))


def thing_name(edition, ref, language="en"):
    """An item of a trade or a list: a card's text, a plot's name (quoted in Russian), or a sum."""
    lang = _lang(language)
    if edition is not None and isinstance(ref, str) and ref in edition.cards:
        name = card_text(edition, ref, lang)
    elif isinstance(ref, str):
        name = cell_name(edition, ref, lang)
    else:
        return str(ref)
    return f"«{inner_quotes(name, lang)}»" if lang == "ru" else name


def listing(items, language="en", edition=None, joiner=", "):
    lang = _lang(language)
    shown = [thing_name(edition, v, lang) for v in items]
    return joiner.join(shown) if shown else NOTHING[lang]


def pending_words(kind, language="en", edition=None, plot=None):
    """A pending decision in words (`waiting for`, pending_first)."""
    lang = _lang(language)
    text = PENDING[lang].get(kind)
    if text is None:
        text = kind.replace("_", " ")
    if plot:
        name = cell_name(edition, plot, lang)
        text += f": «{name}»" if lang == "ru" else f": {name}"
    return text


def _reason(value, language, edition):
    lang = _lang(language)
    words = REASONS.get(lang, REASONS["en"])
    if value in words:
        return words[value]
    if edition is not None and value in edition.cards:
        return thing_name(edition, value, lang)  # a card as the reason (Deluxe rating)
    if edition is not None and edition.cell(value) is not None:
        return thing_name(edition, value, lang)  # a cell as the reason
    return value


def _what(value, language, edition):
    lang = _lang(language)
    if value in WHAT[lang]:
        return WHAT[lang][value]
    if value in POLICIES:
        return kind_word(value, lang)
    if edition is not None and isinstance(value, str) and edition.cell(value) is not None:
        return thing_name(edition, value, lang)
    return value


# the placeholders of a command's syntax as a Russian table reads them (the verbs stay: they are typed)
USAGE_PLACEHOLDERS_RU = {
    "PLAYER": "ИГРОК",
    "D": "КУБИК",
    "CARD": "КАРТОЧКА",
    "PLOT": "УЧАСТОК",
    "BUSINESS": "БИЗНЕС",
    "CELL": "КЛЕТКА",
    "AMOUNT": "СУММА",
    "OFFER": "ПРЕДЛОЖЕНИЕ",
    "N": "ЧИСЛО",
    "NAME": "ИМЯ",
    "COMMAND": "КОМАНДА",
    "CODE": "КОД",
    "SEED": "ЗЕРНО",
    "OWNER": "ВЛАДЕЛЕЦ",
    "FEE": "ВОЗНАГРАЖДЕНИЕ",
    "EVENT": "СОБЫТИЕ",
    "EDITION": "ИЗДАНИЕ",
    "BET": "СТАВКА",
    "ITEM": "ПРЕДМЕТ",
    "ACCOUNT": "СЧЁТ",
}


def _usage(value, language):
    lang = _lang(language)
    if value in USAGE_WORDS[lang]:
        return USAGE_WORDS[lang][value]
    if lang == "ru":
        if value.startswith("NAME: COMMAND"):
            return ACTOR_USAGE_RU
        words = re.sub(r"\b[A-Z]+\b", lambda m: USAGE_PLACEHOLDERS_RU.get(m.group(0), m.group(0)), value)
        return f"`{words}`"
    return value


def _bounds(params, language):
    low, high = params.get("low"), params.get("high")
    if language == "ru":
        return f"от {low} до {high}" if high is not None else f"не меньше {low}"
    return f"{low} to {high}" if high is not None else f"at least {low}"


def said(value, language="en", edition=None):
    """A message inside a message (an error's cause, a script line's problem) in the language: a coded
    error, refusal, Note or errors.Message in words; any other error as its own one-line text."""
    if hasattr(value, "code") and hasattr(value, "params") and isinstance(value.params, dict):
        return render(value.code, value.params, language, getattr(value, "edition", None) or edition)
    if isinstance(value, BaseException):
        return " ".join(str(value).split())
    return value


def detail_words(value, cause, language="en"):
    """What the operating system or SQLite said, in words when its code (`cause`) is known: the
    longest known prefix of an SQLite extended code (SQLITE_IOERR_SHORT_READ is an SQLITE_IOERR);
    else as the machine said it (quoted in Russian: it is not Russian)."""
    words = DETAILS[_lang(language)]
    name = cause or ""
    while name:
        if name in words:
            return words[name]
        name = name.rpartition("_")[0] if name.startswith("SQLITE_") else ""
    text = " ".join(str(value or "").split())
    return f"`{text}`" if language == "ru" and text else text


def _typed_list(values, language, joiner=", "):
    values = [str(v) for v in values]
    if not values:
        return NOTHING[language]
    return joiner.join(f"`{v}`" for v in values) if language == "ru" else joiner.join(values)


def _edge_param(code, key, value, params, lang, edition):
    """A parameter of the edge's codes (EDGE) as shown; NotImplemented for any other."""
    ru = lang == "ru"
    if value is None:
        return UNKNOWN[lang]
    if key in ("unknown", "error", "refusal", "problem"):
        return said(value, lang, edition)
    if key == "errors":
        return "; ".join(str(said(v, lang, edition)) for v in value) or NOTHING_READABLE[lang]
    if key == "detail":
        return detail_words(value, params.get("cause"), lang)
    if key == "doing":
        return DOING[lang].get(value, value)
    if key == "head":
        return head_words(value, lang)
    if key == "codes" and isinstance(value, (list, tuple)):  # message codes: the script language
        return ", ".join(f"`{v}`" for v in value) or NOTHING[lang]
    if key in TYPED_LISTS and isinstance(value, (list, tuple)):
        return _typed_list(value, lang)
    if key == "words" and isinstance(value, (list, tuple)):
        return f"`{' '.join(value)}`" if ru else " ".join(value)
    if key in ("got_cell", "want_cell"):
        return inner_quotes(cell_name(edition, value, lang), lang)
    if not ru:
        return value  # the rest are shown as typed in English
    if key == "account":
        return party(value, lang)
    if key in ("actual", "wanted") and isinstance(value, str):
        return ANSWERS["ru"].get(value, value)
    if key == "got_pending":
        return NOTHING[lang] if value == "none" else pending_words(value, lang, edition)
    if key == "held_item":
        return item_word(value, lang) if value in ITEMS[lang] or value in POLICIES else f"`{value}`"
    if key == "flag":
        return FLAGS["ru"].get(value, value)
    if key == "type":
        return VALUE_TYPES["ru"].get(value, "другое значение")
    return value


EDGE_KEYS = {
    "unknown",
    "error",
    "refusal",
    "problem",
    "errors",
    "detail",
    "doing",
    "head",
    "words",
    "account",
    "actual",
    "wanted",
    "got_pending",
    "got_cell",
    "want_cell",
    "held_item",
    "flag",
    "type",
    *TYPED_LISTS,
}


def shown_params(code, params, language="en", edition=None):
    """The parameters of a message as its templates show them: names, words, and derived ones."""
    lang = _lang(language)
    shown = {}
    for key, value in params.items():
        if key in EDGE_KEYS:
            value = _edge_param(code, key, value, params, lang, edition)
        elif key == "cell" and lang == "ru":
            value = cell_words(edition, value, lang)
        elif key in ("plot", "cell"):
            value = inner_quotes(cell_name(edition, value, lang), lang)
        elif key in PARTY_KEYS:
            value = party(value, lang)
        elif key == "reason":
            value = _reason(value, lang, edition)
        elif key == "winners":
            value = joined(str(value).split(","), lang)
        elif key == "card":
            value = card_text(edition, value, lang)
        elif key == "deck":
            value = deck_name(edition, value, lang)
        elif key == "verb" and code != "unknown_command":
            value = VERBS[lang].get(value, value)
        elif key == "action":
            value = VERBS[lang].get(value, value)
        elif key == "policy":
            value = policy_word(value, lang)
        elif key == "kind":
            value = kind_word(value, lang, edition)
        elif key == "item":
            value = item_word(value, lang)
        elif key == "what":
            value = _what(value, lang, edition)
        elif key == "pending":
            value = pending_words(value, lang, edition, params.get("plot"))
        elif key == "stage":
            value = STAGES[lang].get(value, value)
        elif key == "tenure":
            value = TENURE[lang].get(value, value)
        elif key == "face":
            value = FACES[lang].get(value, value)
        elif key == "industry":
            value = industry_name(edition, value, lang)
        elif key == "edition":
            value = (
                in_language(edition.name, edition.names, lang) if edition is not None and value == edition.id else value
            )
        elif key == "usage":
            value = _usage(value, lang)
        elif key == "symbols" and isinstance(value, (list, tuple)):
            value = ", ".join(SYMBOLS[lang].get(v, v) for v in value)
        elif key == "dice" and isinstance(value, (list, tuple)):
            value = joined([str(v) for v in value], lang)
        elif key in ("players", "amounts", "runs") and isinstance(value, (list, tuple)):
            value = ", ".join(str(party(v, lang)) for v in value) or NOTHING[lang]
        elif key == "cells" and isinstance(value, (list, tuple)):
            value = listing(value, lang, edition, OR[lang])
        elif isinstance(value, (list, tuple)):  # plots, cards, a trade's items
            value = listing(value, lang, edition)
        elif isinstance(value, dict):  # wealth: player -> amount
            value = ", ".join(f"{party(k, lang)} {v}" for k, v in value.items())
        elif value is None:
            value = UNKNOWN[lang]
        shown[key] = value
    # derived parameters, shown in words
    if code in ("built", "building_sold") and "level" in params:
        level = params["level"] + (1 if code == "building_sold" else 0)
        shown["building"] = building_word(level, edition, lang)
        shown["a_building"] = with_article(shown["building"], lang)
    if code == "landed":
        shown["on_cell"] = where_words(edition, params.get("cell"), lang)
    if code in ("circle_income", "go_salary"):
        shown["start_cell"] = start_name(edition, lang)
        dividend = params.get("dividend", 0)
        shown["parts"] = (
            INCOME_PARTS[lang].format(fixed=params.get("amount", 0) - dividend, dividend=dividend) if dividend else ""
        )
    if code in ("detained", "still_detained", "released_by_double", "released_by_card", "roll_held_first"):
        shown["jail_in"], shown["jail_from"] = jail_words(edition, lang)
    if code in ("need_monopoly", "build_evenly", "sell_evenly"):
        # "whole" takes the instrumental in Russian (владея всей группой), "of" the genitive
        shown["group"] = GROUP_WORDS[lang][family_of(edition)][0 if code == "need_monopoly" else 1]
    if code in ("traded", "cards_traded"):
        shown["gave_all"] = handed(params.get("gave", ()), params.get("paid", 0), lang, edition)
        shown["got_all"] = handed(params.get("got", ()), params.get("received", 0), lang, edition)
    if code in ("debt", "debt_first"):
        # shares are a way out where the box has them and the table may sell them in debt
        sells_shares = (
            edition is not None
            and bool(edition.supply.get("shares"))
            and bool(edition.options.get("sell_shares_in_debt"))
        )
        shown["ways"] = WAYS[lang][sells_shares]
    if code == "put_buildings":
        shown["buildings"] = standing(params.get("small", 0), params.get("large", 0), edition, lang)
    if code == "put_items" and "item" in params:
        shown["held_words"] = holding_words(params["item"], params.get("count", 0), lang)
    if code == "policy_expired":
        shown["expired"] = expired_words(params.get("policy"), params.get("count", 1), lang)
    if code == "out_of_range":
        shown["bounds"] = _bounds(params, lang)
    if code == "pending_first":
        who = params.get("player")
        shown["whose"] = f" ({who})" if who else ""
    if code in ("ledger_schema_missing", "ledger_schema_added"):
        entry, name = params.get("entry"), params.get("name")
        if lang == "ru" and entry in SCHEMA_ENTRIES["ru"]:
            forms = SCHEMA_ENTRIES["ru"][entry]
            shown["object"] = f"{forms[code == 'ledger_schema_missing']} `{name}`"
        else:
            shown["object"] = f"{entry} {name}" if lang == "en" else f"`{entry} {name}`"
    return shown


# derived parameter -> the engine's parameters it is made from (tests: templates ask only for these)
DERIVED = {
    "building": ("level",),
    "bounds": ("low",),
    "whose": ("pending",),
    "object": ("entry", "name"),
    "a_building": ("level",),
    "on_cell": ("cell",),
    "start_cell": (),
    "parts": (),
    "jail_in": (),
    "jail_from": (),
    "gave_all": ("gave",),
    "got_all": ("got",),
    "expired": ("policy", "count"),
    "buildings": ("small", "large"),
    "held_words": ("item", "count"),
    "ways": (),
    "group": (),
}


def render(code, params, language="en", edition=None):
    """One line of text for a message code, in the language: names for ids, words for codes."""
    lang = _lang(language)
    if code == "winner" and "," in str(params.get("player", "")):
        # a tie on wealth: the state keeps the winners as one word "Anna,Boris"
        code, params = "winners", {"winners": params["player"]}
    if code == "circle_income" and family_of(edition) == "monopoly":
        code = "go_salary"  # Monopoly's salary for passing GO: no "circle income" on its board
    shown = shown_params(code, params, lang, edition)
    template = CATALOGS[lang].get(code) or EN.get(code)
    if template is None:
        return code + (" " + ", ".join(f"{k}={v}" for k, v in shown.items()) if shown else "")
    try:
        return Formatter(lang).format(template, **shown)
    except (KeyError, IndexError, ValueError):
        return code + " " + ", ".join(f"{k}={v}" for k, v in shown.items())


def render_error(exc, language="en", edition=None):
    """An error in words: a refusal or a coded error (errors.Said) from its code; any other error
    (an edition file's, a bad option's) as its own text, on one line."""
    if getattr(exc, "code", None) is None:
        return " ".join(str(exc).split())
    return render(exc.code, exc.params, language, getattr(exc, "edition", None) or edition)


# ----- `companion sim`: the study's summary (companion/sim/report.py) ------------------------------
# Counts follow a colon in Russian ("партий: 200") where a plural would otherwise need agreeing;
# games_forms are the plural forms of "game" for the heading (words.plural).
SIM = {
    "en": {
        "games_forms": "game|games",
        "head": "{edition}: {games} {games_word} of {players} players, seeds {first} to {last}",
        "options": "options: {options}",
        "rounds": "game length in rounds: mean {mean}, median {median}, 10% of games under {p10}, "
        "10% over {p90}, longest {max}",
        "events": "events per game: mean {mean}, median {median}",
        "ended": "ended: {last} played to a winner, {cap} at the round cap (wealth counted), {stuck} stopped",
        "wins_seat": "wins by seat: {wins}",
        "wins_strategy": "wins by strategy (wins/seats played): {wins}",
        "strategy_balanced": "balanced",
        "strategy_cautious": "cautious",
        "strategy_aggressive": "aggressive",
        "generic": " (shared rules only)",
        "bankrupt": "bankruptcies: {total} ({per_game} a game), the first in round {first} (median)",
        "bankrupt_none": "bankruptcies: none",
        "industries": "what pays back (rent earned against price and buildings paid), best first:",
        "payback_row": "  {name}: rent {rent} against {cost}: {ratio}",
        "best_plots": "plots that pay back best: {plots}",
        "worst_plots": "plots that pay back worst: {plots}",
        "shares": "share price: {start} at the first round, {final} at the end (mean; from {low} to {high}); "
        "dividends {dividends} a game (mean)",
        "jackpot": "JACKPOT: played {played} times, paid out {payouts} times, {paid} in all, largest {largest}",
        "charity": "charity fund at the end: {final} (mean), largest {high}; taken {taken} times, {amount} in all",
        "pot": "FREE PARKING pot: collected {collected} times, {paid} in all, largest {largest}",
        "failure": "BROKEN INVARIANT in the game of seed {seed}: {message}",
        "failure_script": "the shortest script that breaks it ({count} lines; companion script FILE):",
        "failure_saved": "saved as {path}",
        "compare_head": "paired by seed: {a} (A) against {b} (B); B - A with its 95% interval (paired t):",
        "compare_row": "  {measure}: A {a}, B {b}, B - A {diff} [{low} .. {high}] {sure}",
        "sure": "(a real difference)",
        "unsure": "(could be chance)",
        "measure_rounds": "rounds",
        "measure_events": "events",
        "measure_bankruptcies": "bankruptcies",
        "measure_capped": "share of games at the round cap",
        "measure_dividends": "dividends a game",
        "measure_final_share_price": "final share price",
        "measure_jackpot_paid": "JACKPOT paid a game",
        "measure_charity_final": "charity fund at the end",
        "measure_pot_paid": "pot paid a game",
        "charts": "charts: {path}",
        "no_charts": "charts need matplotlib: pip install 'companion[sim]'",
        "bad_strategy": "no strategy called '{name}' (there are: {names})",
        "bad_number": "{option} must be a whole number from {low} to {high}, not {value}",
        "same_options": "--compare {options} changes nothing: the options are already so",
        "no_edition": "no edition called '{name}' (shipped: {shipped}; or a path to an edition file)",
        "option_form": "{flag} takes KEY=VALUE, not '{item}'",
        "bad_option_key": "{flag} {item}: {edition} has no option '{name}' ({hint})",
        "did_you_mean": "did you mean {close}?",
        "known_options": "its options: {known}",
        "bad_option_value": "{flag} {item}: '{value}' is not a value {name} takes (now {default})",
        "compare_games": "--compare needs at least 2 games, not {games}: one pair of games gives no interval",
        "too_many_strategies": "--strategy names {count} strategies for {players} seats: {unused} would play "
        "in no seat",
        "bench_no_peer": "no gamescomputersplay/monopoly at {path} (monopoly/core/game.py is missing)",
        "bench_no_baseline": "no simulator at {path} (companion/sim/runner.py is missing)",
        "bench_unknown_edition": "unknown edition {name} (known: {known})",
        "bench_number": "{option} must be a whole number from {low} up, not {value}",
        "bench_row_failed": "{label} games at {path} did not run: {last}",
        "bench_sim_only": "{option} is for `companion bench sim` only, not bench {what}",
        "speed": "{games} games in {seconds} s ({rate} games/s, {rounds} rounds/s)",
    },
    "ru": {
        "games_forms": "партия|партии|партий",
        "head": "{edition}: {games} {games_word}, игроков: {players}, тасовки с {first} по {last}",
        "options": "правила: {options}",
        "rounds": "длина партии в раундах: в среднем {mean}, медиана {median}, у 10% партий меньше {p10}, "
        "у 10% больше {p90}, самая длинная {max}",
        "events": "событий за партию: в среднем {mean}, медиана {median}",
        "ended": "конец партии: доиграна до победителя — {last}, предел раундов (подсчёт состояния) — {cap}, "
        "остановлено — {stuck}",
        "wins_seat": "победы по местам: {wins}",
        "wins_strategy": "победы по стратегиям (победы/места): {wins}",
        "strategy_balanced": "уравновешенная",
        "strategy_cautious": "осторожная",
        "strategy_aggressive": "рискованная",
        "generic": " (только общие правила)",
        "bankrupt": "банкротства: {total} (за партию {per_game}), первое — в раунде {first} (медиана)",
        "bankrupt_none": "банкротств не было",
        "industries": "что окупается (заработанная рента против уплаченного за участки и постройки), сначала лучшее:",
        "payback_row": "  {name}: рента {rent} против {cost}: {ratio}",
        "best_plots": "лучше всех окупаются: {plots}",
        "worst_plots": "хуже всех окупаются: {plots}",
        "shares": "курс акций: {start} в первом раунде, {final} в конце (в среднем; от {low} до {high}); "
        "дивиденды за партию — {dividends} (в среднем)",
        "jackpot": "ДЖЕКПОТ: сыгран раз — {played}, выигрышей — {payouts}, выплачено всего {paid}, "
        "крупнейший выигрыш {largest}",
        "charity": "благотворительный фонд в конце: {final} (в среднем), больше всего {high}; "
        "забран раз — {taken}, всего {amount}",
        "pot": "банк БЕСПЛАТНОЙ СТОЯНКИ: забран раз — {collected}, всего {paid}, больше всего {largest}",
        "failure": "НАРУШЕН ИНВАРИАНТ в партии с тасовкой {seed}: {message}",
        "failure_script": "кратчайший сценарий, который его нарушает (строк: {count}; companion script ФАЙЛ):",
        "failure_saved": "сохранён в {path}",
        "compare_head": "попарно по тасовкам: {a} (A) против {b} (B); B − A и 95% интервал (парный t):",
        "compare_row": "  {measure}: A {a}, B {b}, B − A {diff} [{low} .. {high}] {sure}",
        "sure": "(разница есть)",
        "unsure": "(может быть случайностью)",
        "measure_rounds": "раунды",
        "measure_events": "события",
        "measure_bankruptcies": "банкротства",
        "measure_capped": "доля партий до предела раундов",
        "measure_dividends": "дивиденды за партию",
        "measure_final_share_price": "курс акций в конце",
        "measure_jackpot_paid": "выплаты ДЖЕКПОТА за партию",
        "measure_charity_final": "благотворительный фонд в конце",
        "measure_pot_paid": "выплаты банка стоянки за партию",
        "charts": "графики: {path}",
        "no_charts": "для графиков нужен matplotlib: pip install 'companion[sim]'",
        "bad_strategy": "нет стратегии «{name}» (есть: {names})",
        "bad_number": "{option}: нужно целое число от {low} до {high}, а не {value}",
        "same_options": "--compare {options} ничего не меняет: правила уже такие",
        "no_edition": "нет издания «{name}» (есть: {shipped}; или укажите путь к файлу издания)",
        "option_form": "{flag} ждёт КЛЮЧ=ЗНАЧЕНИЕ, а не «{item}»",
        "bad_option_key": "{flag} {item}: в издании «{edition}» нет варианта правил «{name}» ({hint})",
        "did_you_mean": "может быть, {close}?",
        "known_options": "варианты правил: {known}",
        "bad_option_value": "{flag} {item}: «{value}» — не значение для {name} (сейчас {default})",
        "compare_games": "для --compare нужно не меньше 2 партий, а не {games}: по одной паре партий "
        "интервал не построить",
        "too_many_strategies": "в --strategy стратегий {count}, а мест за столом {players}: {unused} "
        "не досталось ни одного места",
        "bench_no_peer": "в {path} нет gamescomputersplay/monopoly (не найден monopoly/core/game.py)",
        "bench_no_baseline": "в {path} нет симулятора (не найден companion/sim/runner.py)",
        "bench_unknown_edition": "нет издания {name} (есть: {known})",
        "bench_number": "{option}: нужно целое число от {low} и больше, а не {value}",
        "bench_row_failed": "партии ({label}) в {path} не сыграны: {last}",
        "bench_sim_only": "{option} — только для `companion bench sim`, не для bench {what}",
        "speed": "партий: {games} за {seconds} с ({rate} партий/с, {rounds} раундов/с)",
    },
}
