"""The box's Game… menu: a new game in few presses and its options, ending or archiving the game, the
box's language, the banker's PIN, the cards' enrolment, the sound, the phone page (issue 22: the table
set up from the box)."""

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from companion.engine.actions import Span
from companion.hw.display import Frame, default_fonts, ink_width
from companion.words import messages
from companion.words.options import option_line, settable_options

from .menus import words
from .views import Item, ListView, NumberView, TextView, View, text_column
from .walkview import walk_menu

if TYPE_CHECKING:
    from .console import Console

PIN_DIGITS = 4  # the banker's PIN picked at the box (a phone may set one of up to 8 digits)
NAMES = {  # a new game's players until the banker's phone names them (docs/box.md)
    "en": ("Anna", "Boris", "Vera", "Gleb", "Dina", "Egor", "Zoya", "Ilya"),
    "ru": ("Аня", "Борис", "Вера", "Глеб", "Дина", "Егор", "Зоя", "Илья"),
}


def game_menu(console: "Console") -> ListView:
    """New game first (from a running game too), then ending or archiving this one, the box's language
    and the banker's PIN (issue 22: the table set up from the box), cards, sound, the phone page."""
    lang, desk, table = console.lang, console.desk, console.table
    items: list[Item] = [Item(words("menu_new_game_more", lang), lambda: console.push(NewGameView(console)))]
    if table is None:
        pass
    elif table.state.phase != "over":
        items.append(
            Item(
                words("menu_end_game", lang),
                lambda: console.push(
                    TextView(
                        words("menu_end_game", lang),
                        [words("end_game_warning", lang)],
                        lambda: _end(console),
                        footer=words("confirm_footer", lang),
                    )
                ),
            )
        )
    else:
        items.append(Item(words("menu_archive", lang), lambda: _archive(console)))
    items.append(Item(words("menu_language", lang, name=words("language_here", lang)), lambda: _languages(console)))
    items.append(Item(words("menu_banker_pin", lang), lambda: console.push(PinView(console))))
    if desk.has_banker_pin():
        items.append(Item(words("menu_banker_pin_remove", lang), lambda: _remove_pin(console)))
    items.append(Item(words("menu_enrol", lang), lambda: console.push(enrol_menu(console))))
    if getattr(desk, "walking", None) is not None:  # issue 23: walk the board with the cards
        items.append(Item(words("menu_our_board", lang), lambda: console.push(walk_menu(console))))
    items.append(Item(words("menu_sound_off" if not desk.muted else "menu_sound_on", lang), lambda: _mute(console)))
    items.append(Item(words("menu_phone", lang), lambda: _phone_page(console)))
    if table is not None:
        items.append(
            Item(
                words("menu_head", lang),
                lambda: console.push(TextView(words("menu_head", lang), [desk.head_words()])),
            )
        )
    items.append(Item(words("menu_power_off", lang), lambda: _power_off(console)))  # issue 25: switched off safely
    return ListView(words("menu_game", lang).rstrip("…"), items)


def _end(console: "Console") -> None:
    console.close()
    console.desk.end_game()


def _languages(console: "Console") -> None:
    """Each language named in its own words, the box's own chosen."""
    codes = list(messages.LANGUAGES)

    def choose(code: str) -> Callable[[], None]:
        def chosen() -> None:
            console.close()
            console.desk.set_language(code)

        return chosen

    console.push(
        ListView(
            words("language_title", console.lang),
            [Item(words("language_name", c), choose(c)) for c in codes],
            index=codes.index(console.lang) if console.lang in codes else 0,
        )
    )


def _remove_pin(console: "Console") -> None:
    console.close()
    console.desk.set_banker_pin("")


def _archive(console: "Console") -> None:
    console.close()
    console.desk.archive_game()


def _phone_page(console: "Console") -> None:
    """The phone page's QR code (the box's address now), its .local name and the table code in letters for
    a phone that cannot scan; with the box's own Wi-Fi open, first that Wi-Fi's code (join, then OK)."""
    if console.desk.hotspot_qr()[0]:
        console.push(HotspotView(console))
    else:
        console.push(PhonePageView(console))


class PhonePageView(TextView):
    """The phone page's QR code, drawn from the box's address at every frame: a new address (a new lease,
    another network) reaches the screen with the next refresh (companion/daemon/netwatch.py)."""

    def __init__(self, console: "Console"):
        self.console = console
        super().__init__(words("phone_qr_title", console.desk.lang), [])  # short: the code takes a third

    def frame(self) -> Frame:
        lang, desk = self.console.desk.lang, self.console.desk
        code = desk.table_code()
        if not desk.has_address():
            self.lines, self.qr = [words("phone_no_network", lang)], ""
            return super().frame()
        self.qr = desk.phone_url()
        name = desk.phone_name_address()
        if name and ink_width(default_fonts().text, name) > text_column(self.qr):
            name = name.replace(":", " :")  # "raspberrypi.local" over ":8080", never broken inside the name
        self.lines = (
            [words("phone_or_open", lang) if name else words("phone_scan", lang)]
            + ([name] if name else [])
            + ([words("phone_code", lang, letters=code)] if code else [])
        )
        return super().frame()


class HotspotView(TextView):
    """The box's own Wi-Fi's QR code (WIFI:T:WPA;...) with its name and password; OK: the phone page's."""

    def __init__(self, console: "Console"):
        lang = console.desk.lang
        qr, ssid, password = console.desk.hotspot_qr()
        super().__init__(
            words("hotspot_title", lang),
            [words("hotspot_join", lang), ssid, words("hotspot_password", lang), password],
            lambda: console.push(PhonePageView(console)),
            footer=words("hotspot_next", lang),
            qr=qr,
        )


def _power_off(console: "Console") -> None:
    """Power off…: a confirmation first (BACK keeps the box on); OK held long closes the bank and switches
    off (issue 25: a long press in the box's menu; a short OK does nothing here)."""
    lang = console.lang

    def confirmed() -> None:
        console.close()
        console.desk.power_off()

    console.push(
        TextView(
            words("menu_power_off", lang).rstrip("…"),
            [words("power_off_warning", lang)],
            confirmed,
            footer=words("hold_confirm_footer", lang),
            hold=True,
        )
    )


def _mute(console: "Console") -> None:
    console.desk.set_muted(not console.desk.muted)
    console.pop()
    console.push(game_menu(console))


def enrol_menu(console: "Console") -> ListView:
    """Which card the next tap enrols: a player's, a plot's, a deck's card."""
    lang, table = console.lang, console.table
    items = [Item(words("enrol_player", lang, n=n), _enrol(console, "player", str(n))) for n in range(1, 9)]
    if table is not None:
        edition = table.rules.edition
        plots = list(edition.plots)
        items.append(
            Item(
                words("enrol_plot", lang),
                lambda: console.push(
                    ListView(
                        words("enrol_plot", lang),
                        [Item(messages.thing_name(edition, p, lang), _enrol(console, "plot", p)) for p in plots],
                    )
                ),
            )
        )
        items.append(
            Item(
                words("enrol_card", lang),
                lambda: console.push(
                    ListView(
                        words("enrol_card", lang),
                        [
                            Item(messages.thing_name(edition, c, lang), _enrol(console, "card", c))
                            for c in sorted(edition.cards)
                        ],
                    )
                ),
            )
        )
    return ListView(words("menu_enrol", lang).rstrip("…"), items)


def _enrol(console: "Console", kind: str, ref: str) -> Callable[[], None]:
    def enrol() -> None:
        console.close()
        console.desk.enrol_wait(kind, ref)

    return enrol


class NewGameView(ListView):
    """A new game from the buttons alone, in few presses (issue 22): which game (Millionaire Elite first,
    chosen), how many players, then Start; the options a table argues about are folded under one line,
    "Options…" (the edition's defaults unless opened). Started while a game is on the box, it first says
    that game ends and is kept in the archive."""

    def __init__(self, console: "Console"):
        self.console = console
        editions = sorted(console.desk.editions(), key=lambda e: e[0] != "elite")
        super().__init__(
            words("new_edition_title", console.lang), [Item(name, self._chose(eid)) for eid, name in editions]
        )

    def _chose(self, edition: str) -> Callable[[], None]:
        def chosen() -> None:
            console, lang = self.console, self.console.lang
            ed = console.desk.edition_rules(edition).edition
            span = Span(ed.players_min, min(ed.players_max, len(NAMES["en"])))
            console.push(
                NumberView(
                    words("new_players_title", lang),
                    span,
                    lambda n: console.push(StartView(console, edition, n)),
                    value=max(span.low, min(span.high, console.desk.player_count())),
                    lang=lang,
                )
            )

        return chosen


class StartView(ListView):
    """Start (the first line, chosen) or Options…; the players' names above (the last game's, else the box's)."""

    def __init__(self, console: "Console", edition: str, count: int):
        self.console, self.edition, self.count = console, edition, count
        self.options: dict[str, Any] = {}
        self.names = console.desk.player_names(count)
        lang = console.lang
        name = dict(console.desk.editions()).get(edition, edition)
        items = [Item(words("new_start", lang), self._start)]
        if settable_options(self._rules()):
            items.append(Item(words("new_options", lang), lambda: self.console.push(OptionsView(self))))
        super().__init__(name, items, header=", ".join(self.names))

    def _rules(self) -> Any:
        return self.console.desk.edition_rules(self.edition)

    def _start(self) -> None:
        console, lang, table = self.console, self.console.lang, self.console.table
        if table is None:
            self._go()
            return
        warning = "new_game_ends_running" if table.state.phase != "over" else "new_game_archives"
        console.push(
            TextView(
                words("menu_new_game", lang), [words(warning, lang)], self._go, footer=words("confirm_footer", lang)
            )
        )

    def _go(self) -> None:
        self.console.close()
        self.console.desk.new_game(self.edition, list(self.names), dict(self.options))


class OptionsView(ListView):
    """The new game's house rules, each a line: a yes/no or a choice flipped by OK, a number picked."""

    def __init__(self, start: StartView):
        self.start = start
        self.console = start.console
        super().__init__(words("new_options", self.console.lang).rstrip("…"), [])
        self._build()

    def _build(self) -> None:
        rules = self.start._rules()
        self.items = [
            Item(
                option_line(rules.edition, key, self.start.options.get(key, rules.opt[key]), self.console.lang),
                self._option(key),
            )
            for key in settable_options(rules)
        ]
        self.index = min(self.index, max(0, len(self.items) - 1))

    def _option(self, key: str) -> Callable[[], None]:
        def change() -> None:
            rules = self.start._rules()
            options = self.start.options
            value = options.get(key, rules.opt[key])
            choices = type(rules).OPTION_CHOICES.get(key)
            if isinstance(value, bool):
                options[key] = not value
            elif choices:
                options[key] = (
                    choices[(list(choices).index(value) + 1) % len(choices)] if value in choices else choices[0]
                )
            elif isinstance(value, int):
                low, high = type(rules).OPTION_RANGES.get(key, (0, max(100, value * 10)))

                def done(number: int) -> None:
                    options[key] = number
                    self.console.pop()
                    self._build()

                self.console.push(
                    NumberView(
                        words("new_option_title", self.console.lang),
                        Span(int(low), int(high)),
                        done,
                        value=value,
                        lang=self.console.lang,
                    )
                )
                return
            self._build()

        return change


class PinView(View):
    """The banker's PIN, digit by digit: UP/DOWN change the digit, OK takes it and goes to the next, BACK
    goes back a digit (from the first: out); after the last, a confirmation saying what the PIN is for."""

    def __init__(self, console: "Console"):
        self.console = console
        self.digits: list[int] = []
        self.digit = 0

    def frame(self) -> Frame:
        lang = self.console.lang
        shown = "".join(map(str, self.digits)) + str(self.digit) + "-" * (PIN_DIGITS - len(self.digits) - 1)
        return Frame(
            title=words("menu_banker_pin", lang).rstrip("…"),
            big=shown,
            inverse_title=True,
            lines=(words("pin_digit", lang, n=len(self.digits) + 1, of=PIN_DIGITS),),
            footer=words("pin_footer", lang),
        )

    def press(self, console: "Console", name: str, long: bool) -> None:
        if name in ("up", "down"):
            self.digit = (self.digit + (1 if name == "up" else -1)) % 10
        elif name == "ok":
            self.digits.append(self.digit)
            self.digit = 0
            if len(self.digits) == PIN_DIGITS:
                pin = "".join(map(str, self.digits))
                self.digit = self.digits.pop()  # BACK from the confirmation comes back to the last digit
                lang = console.lang
                console.push(
                    TextView(
                        words("menu_banker_pin", lang).rstrip("…"),
                        [words("pin_confirm", lang, pin=pin)],
                        lambda: self._keep(pin),
                        footer=words("confirm_footer", lang),
                    )
                )
        elif name == "back":
            if self.digits:
                self.digit = self.digits.pop()
            else:
                console.pop(self)

    def _keep(self, pin: str) -> None:
        self.console.close()
        self.console.desk.set_banker_pin(pin)
