"""The OLED's drawing layer: plain frames (title, big digits, lines, footer) onto a 128x64 luma device.

It knows nothing of games: the daemon hands it text already in the screen's
language (hardware adapters never import the engine or the catalogues). One
luma device interface covers the real SSD1306/SH1106 and the in-memory dummy,
so tests draw exactly what the box would. A frame is pushed only when its
pixels differ from the last one pushed: an I2C frame costs 23-93 ms
(hardware/pins.md) and an unchanged screen should cost nothing. On the real
controllers only the 8-row pages (the SSD1306/SH1106 memory's bands) whose
bytes changed are written: a changed line of text costs one or two pages of
128 bytes, new big digits three, where the whole frame is eight.

A frame can carry a QR code (the phone page's address), drawn with segno's
matrix in the polarity a phone camera expects: dark modules are unlit pixels on
a lit field, the text beside it.

Fonts are DejaVu Sans from the OS (Debian/Raspberry Pi OS package
fonts-dejavu-core): PIL's built-in font has no Cyrillic, so there is no
silent fallback to it.
"""

import unicodedata
import weakref
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import segno
from luma.core.device import dummy  # type: ignore[import-untyped]
from luma.core.error import DeviceNotFoundError, DevicePermissionError, UnsupportedPlatform  # type: ignore[import-untyped]
from luma.core.interface.serial import i2c, spi  # type: ignore[import-untyped]
from luma.oled.device import sh1106, ssd1306  # type: ignore[import-untyped]
from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 128, 64
FONT_DIRS = (
    "/usr/share/fonts/truetype/dejavu",
    "/usr/share/fonts/dejavu",
    "/usr/share/fonts/TTF",
    "/usr/share/fonts/dejavu-sans-fonts",
    "/usr/local/share/fonts",
)
FONT_PACKAGE = "fonts-dejavu-core"
TEXT_FONT, BIG_FONT = "DejaVuSans.ttf", "DejaVuSans-Bold.ttf"
TEXT_SIZE = 9  # glyphs span 11 rows (Ё's dots to щ's tail): a title and five lines fit in 64
BIG_SIZE = 28  # its digits are 20 rows tall, readable across the table
PITCH = 10  # line to line; only accents above capitals may meet the tail of the line above
TITLE_ROWS = 11  # the title band, inverse or not; a dark row under it keeps a menu's light bands apart
BIG_ROWS = 21  # a row above the digits and two below: title, big line and three lines fill 64 rows
ELLIPSIS = "…"
PAGE_ROWS = 8  # the controllers' memory is written in pages: bands of 8 rows, one byte per column
QR_ERROR = "m"  # 15 % of the code may be lost (glare on the glass) and it still reads
QR_QUIET = 2  # lit modules left and right of the code: the quiet zone a scanner looks for
QR_EDGE_MIN = 3  # lit rows above and below at 2 px a module: version 3 (58 rows) leaves 3, 1.5 modules,
# all 64 rows allow; zbar reads it even with the dark bezel beyond (tests/test_qr.py)
QR_GAP = 2  # dark columns between the text and the code's lit field


class DisplayMissing(OSError):
    """The real OLED cannot be opened; the message names the part to check, in one line."""


class FontMissing(OSError):
    """No DejaVu Sans on this machine; the message names the package that brings it."""


def changed_pages(old: Image.Image | None, new: Image.Image) -> tuple[int, ...]:
    """The pages (8-row bands, top one 0) whose pixels differ between two pictures of one size; all of
    them when there is no old picture."""
    pages = new.height // PAGE_ROWS
    if old is None:
        return tuple(range(pages))
    # a mode "1" row is packed into whole bytes, so a page is a run of whole bytes in tobytes()
    band = (new.width + 7) // 8 * PAGE_ROWS
    before, after = old.tobytes(), new.tobytes()
    return tuple(
        page
        for page in range(pages)
        if before[page * band : (page + 1) * band] != after[page * band : (page + 1) * band]
    )


def page_bytes(image: Image.Image, page: int) -> bytes:
    """One page as the controller stores it: a byte per column, its lowest bit the band's top row."""
    band = image.crop((0, page * PAGE_ROWS, image.width, (page + 1) * PAGE_ROWS))
    # turned so each column becomes a row of 8 pixels, bottom row first: PIL packs a row most
    # significant bit first, so the top row lands in the lowest bit
    return band.transpose(Image.Transpose.TRANSPOSE).transpose(Image.Transpose.FLIP_LEFT_RIGHT).tobytes()


def runs(pages: Sequence[int]) -> Iterator[tuple[int, int]]:
    """Consecutive pages as (first, last) ranges: (1, 2, 5) gives (1, 2) and (5, 5)."""
    start = None
    for index, page in enumerate(pages):
        if start is None:
            start = page
        if index + 1 == len(pages) or pages[index + 1] != page + 1:
            yield start, page
            start = None


class PageWriter:
    """Writes only the pages that changed since its last write, through luma's own command() and data().

    Mixed in before luma's ssd1306/sh1106, whose serial interfaces, set-up sequences, contrast and
    cleanup stay theirs; only display() is replaced. It keeps a copy of what the controller's memory
    holds; a write that fails part way forgets it, so the next frame goes out whole.
    """

    _ram: Image.Image | None
    last_pages: tuple[int, ...]

    def __init__(self, *args: Any, **kwargs: Any):
        self._ram = None
        self.last_pages = ()
        super().__init__(*args, **kwargs)  # luma's set-up clears the screen through display()
        # the first frame goes out whole, the bytes luma's display() would send, so partial writes
        # only ever build on a frame this object wrote itself
        self._ram = None

    def display(self, image: Image.Image) -> None:
        """Write the pages of image that differ from the last one written (all of them the first time)."""
        device: Any = self
        if image.mode != device.mode or image.size != device.size:
            raise ValueError(f"OLED: a {image.mode} {image.size} picture for a {device.mode} {device.size} display")
        image = device.preprocess(image)  # turned as the display is mounted: pages are the controller's
        pages = changed_pages(self._ram, image)
        self.last_pages = pages
        if not pages:
            return
        try:
            self.write_pages(image, pages)
        except BaseException:
            self._ram = None  # some pages may hold the new picture, some the old
            raise
        self._ram = image.copy()

    def write_pages(self, image: Image.Image, pages: tuple[int, ...]) -> None:
        raise NotImplementedError


class PagedSSD1306(PageWriter, ssd1306):  # type: ignore[misc]  # luma ships no types
    """An SSD1306 written page by page: horizontal addressing over a window of consecutive pages."""

    def write_pages(self, image: Image.Image, pages: tuple[int, ...]) -> None:
        for first, last in runs(pages):
            # one addressing command a run: the controller wraps from column 127 to the next page by itself
            self.command(self._const.COLUMNADDR, self._colstart, self._colend - 1, self._const.PAGEADDR, first, last)
            self.data(list(b"".join(page_bytes(image, page) for page in range(first, last + 1))))


class PagedSH1106(PageWriter, sh1106):  # type: ignore[misc]  # luma ships no types
    """An SH1106 written page by page: it only has page addressing, one command per page, with the
    column offset of its 132-column memory as luma's sh1106 sends it."""

    def write_pages(self, image: Image.Image, pages: tuple[int, ...]) -> None:
        for page in pages:
            self.command(0xB0 | page, self._page_address_offset, 0x10)
            self.data(list(page_bytes(image, page)))


DRIVERS = {"ssd1306": PagedSSD1306, "sh1106": PagedSH1106}


def open_device(
    kind: str = "dummy",
    *,
    driver: str = "ssd1306",
    bus: str = "i2c",
    address: int = 0x3C,
    port: int = 1,
    spi_port: int = 0,
    spi_device: int = 0,
    rotate: int = 0,
) -> Any:
    """A luma device: the in-memory dummy (kind "dummy") or the real OLED (kind "real")."""
    if kind == "dummy":
        return dummy(width=WIDTH, height=HEIGHT, rotate=rotate, mode="1")
    if kind != "real":
        raise ValueError(f"OLED: unknown kind {kind!r} (dummy or real)")
    if driver not in DRIVERS:
        raise ValueError(f"OLED: unknown driver {driver!r} (one of {', '.join(DRIVERS)})")
    if bus == "i2c":
        where = f"I2C bus {port} (/dev/i2c-{port})"
        try:
            serial = i2c(port=port, address=address)
        except DeviceNotFoundError:
            raise DisplayMissing(f"OLED: there is no {where} (is I2C enabled?)") from None
        except DevicePermissionError:
            raise DisplayMissing(
                f"OLED: no permission to use {where} (is the daemon's user in the i2c group?)"
            ) from None
        missing = (
            f"OLED: no device answers at I2C address 0x{address:02X} on bus {port} "
            "(is I2C enabled and the display wired?)"
        )
    elif bus == "spi":
        where = f"SPI device /dev/spidev{spi_port}.{spi_device}"
        try:
            serial = spi(port=spi_port, device=spi_device)
        except DeviceNotFoundError:
            raise DisplayMissing(f"OLED: there is no {where} (is SPI enabled?)") from None
        except (ImportError, UnsupportedPlatform, RuntimeError) as exc:
            # spidev and the GPIO library (D/C and reset pins) are only there on a Pi
            raise DisplayMissing(f"OLED: cannot drive {where} ({exc})") from None
        missing = f"OLED: the {driver} on {where} does not take commands (is the display wired?)"
    else:
        raise ValueError(f"OLED: unknown bus {bus!r} (i2c or spi)")
    try:
        # the controller's set-up sequence is the first write: a silent bus fails here
        return DRIVERS[driver](serial, width=WIDTH, height=HEIGHT, rotate=rotate)
    except (DeviceNotFoundError, OSError):
        serial.cleanup()
        raise DisplayMissing(missing) from None


@dataclass(frozen=True)
class Fonts:
    text: ImageFont.FreeTypeFont  # title, lines, footer
    big: ImageFont.FreeTypeFont  # the big line (a balance)


def load_fonts(dirs: Sequence[str | Path] = FONT_DIRS) -> Fonts:
    """DejaVu Sans for text and DejaVu Sans Bold for digits, from the first folder holding both."""
    for folder in map(Path, dirs):
        text, big = folder / TEXT_FONT, folder / BIG_FONT
        if text.is_file() and big.is_file():
            # the basic layout draws the same pixels with or without libraqm on the machine
            basic = ImageFont.Layout.BASIC
            return Fonts(
                ImageFont.truetype(str(text), TEXT_SIZE, layout_engine=basic),
                ImageFont.truetype(str(big), BIG_SIZE, layout_engine=basic),
            )
    raise FontMissing(
        f"OLED: no {TEXT_FONT} and {BIG_FONT} in {', '.join(map(str, dirs))} (install the package {FONT_PACKAGE})"
    )


@lru_cache(maxsize=1)
def default_fonts() -> Fonts:
    """The fonts from the OS, loaded once."""
    return load_fonts()


def has_glyphs(font: ImageFont.FreeTypeFont, text: str) -> list[str]:
    """The characters of text the font cannot draw (each once, in order); empty when it draws them all.

    A character the font lacks is drawn as its .notdef box, the same glyph an
    unassigned code point gets, so a character whose mask matches that one is
    missing (PIL does not expose the font's character map).
    """

    def mask(ch: str) -> tuple[Any, ...]:
        m = font.getmask(ch)
        return m.size, font.getbbox(ch), bytes(m)

    tofu = mask("\U0010ffff")  # never assigned: always the .notdef glyph
    return [ch for ch in dict.fromkeys(text) if mask(ch) == tofu]


def drawn_ink(font: ImageFont.FreeTypeFont, text: str) -> tuple[int, int]:
    """The first and past-the-last columns the text's pixels reach from the origin, read off the text
    drawn without grey (exact, and ~40x dearer than `ink`)."""
    mask, (left, _) = font.getmask2(text, mode="1")
    box = mask.getbbox()
    return (left + box[0], left + box[2]) if box else (0, 0)


class GlyphMetrics:
    """One font's glyphs measured once each, so a line's ink is summed instead of drawn.

    Composing a receipt measures a dozen candidate lines (wrap tries each next
    word); drawing each took two thirds of a tap's time on the writer's
    neighbour thread (`companion bench table`). Pillow's basic layout places
    each glyph at its pen position rounded to the pixel, the pen advancing by
    the glyph's advance plus the pair's kerning, both in 1/64 px: the same sum
    here gives the same columns (tests/test_display.py checks it against
    `drawn_ink` over every catalogue text and random strings of their letters,
    in both fonts).
    """

    def __init__(self, font: ImageFont.FreeTypeFont):
        self.font = font
        self.advance: dict[str, int] = {}  # 1/64 px
        self.glyph: dict[str, tuple[int, int] | None] = {}  # ink columns from the glyph's pen, None: blank
        self.lead: dict[str, int] = {}  # the shift a string starting with it gets
        self.kern: dict[str, int] = {}  # a pair's kerning, 1/64 px

    def _length(self, text: str) -> int:
        return round(self.font.getlength(text, mode="1") * 64)

    def _learn(self, ch: str) -> int:
        advance = self._length(ch)
        alone = drawn_ink(self.font, ch)
        # measured after a blank space, as it sits inside a line: a glyph first in a line whose ink
        # starts left of its pen moves the whole line (the lead)
        after = drawn_ink(self.font, " " + ch)
        if after[1] > after[0]:
            at = _pixel(self._length(" " + ch) - advance)
            glyph: tuple[int, int] | None = (after[0] - at, after[1] - at)
        else:  # drawn past the pair's box (an underscore): what it draws alone
            glyph = alone if alone[1] > alone[0] else None
        self.glyph[ch] = glyph
        self.lead[ch] = alone[0] - glyph[0] if glyph is not None and alone[1] > alone[0] else 0
        # the advance last: the panel and the console measure from two threads, and a glyph whose
        # advance is known must have its ink known too
        self.advance[ch] = advance
        return advance

    def ink(self, text: str) -> tuple[int, int]:
        advance, glyphs, kern = self.advance, self.glyph, self.kern
        pen, left, right, before = 0, 0, 0, ""
        inked = False
        for ch in text:
            step = advance.get(ch)
            if step is None:
                step = self._learn(ch)
            if before:
                pair = before + ch
                k = kern.get(pair)
                if k is None:
                    k = kern[pair] = self._length(pair) - advance[before] - step
                pen += k
            glyph = glyphs[ch]
            if glyph is not None:
                at = _pixel(pen)
                if not inked or at + glyph[0] < left:
                    left = at + glyph[0]
                if not inked or at + glyph[1] > right:
                    right = at + glyph[1]
                inked = True
            pen += step
            before = ch
        if not inked:
            return (0, 0)
        lead = self.lead[text[0]]
        return (left + lead, right + lead)


def _pixel(pen: int) -> int:
    """A pen position in 1/64 px rounded to the pixel, as FreeType's PIXEL macro does."""
    return (pen + 32) >> 6


_METRICS: "weakref.WeakKeyDictionary[ImageFont.FreeTypeFont, GlyphMetrics]" = weakref.WeakKeyDictionary()


def ink(font: ImageFont.FreeTypeFont, text: str) -> tuple[int, int]:
    """The first and past-the-last columns the text's pixels reach from the origin, as drawn without grey."""
    metrics = _METRICS.get(font)
    if metrics is None:
        metrics = _METRICS[font] = GlyphMetrics(font)
    return metrics.ink(text)


def ink_width(font: ImageFont.FreeTypeFont, text: str) -> int:
    """How far right of the origin the text's pixels reach (0 for blank text)."""
    return ink(font, text)[1]


def centred(font: ImageFont.FreeTypeFont, text: str, width: int) -> int:
    """Where to put the origin so the text's pixels sit in the middle of width."""
    left, right = ink(font, text)
    return (width - (right - left)) // 2 - left


def shorten(font: ImageFont.FreeTypeFont, text: str, width: int) -> str:
    """The text, or its longest head that fits in width pixels with "…" after it."""
    if ink_width(font, text) <= width:
        return text
    for cut in range(len(text) - 1, 0, -1):
        if unicodedata.combining(text[cut]):
            continue  # a mark belongs with the letter before it
        head = text[:cut].rstrip() + ELLIPSIS
        if ink_width(font, head) <= width:
            return head
    return ELLIPSIS


def wrap(text: str, font: ImageFont.FreeTypeFont | None = None, width: int = WIDTH) -> list[str]:
    """The text broken at spaces into lines of at most width pixels; a word wider than a line (a
    twenty-letter name) is broken between letters rather than cut."""
    font = font or default_fonts().text
    if ink_width(font, text) <= width:
        return [text]  # most lines: one measure
    lines: list[str] = []
    for word in text.split(" "):
        if lines and ink_width(font, f"{lines[-1]} {word}") <= width:
            lines[-1] = f"{lines[-1]} {word}"
            continue
        while ink_width(font, word) > width:
            cut = len(word) - 1
            while cut > 1 and (ink_width(font, word[:cut]) > width or unicodedata.combining(word[cut])):
                cut -= 1
            lines.append(word[:cut])
            word = word[cut:]
        lines.append(word)
    return lines


@dataclass(frozen=True)
class Frame:
    """One screenful, as plain text in the screen's language."""

    title: str = ""
    big: str = ""  # centred in digits at least 20 px tall: a balance, a price
    lines: tuple[str, ...] = ()  # left-aligned under the title and the big line; those past the bottom drop
    inverse_title: bool = False  # light band, dark letters: menus
    footer: str = ""  # centred on the last row: the ledger's head words, "reader offline"
    selected: int = -1  # the line drawn inverse: a menu's choice
    qr: str = ""  # a QR code of this text (the phone page's address) at the right; the
    # title, lines and footer go in the column left of it, lines wrapped


def line_room(title: bool = False, big: bool = False, footer: bool = False, height: int = HEIGHT) -> int:
    """How many lines a frame with these parts has room for (the layout `render` draws)."""
    top = (TITLE_ROWS + 1 if title else 0) + (BIG_ROWS if big else 0)
    bottom = height - 1 - PITCH if footer else height - 1
    return max(0, (bottom - top) // PITCH)


@dataclass(frozen=True)
class QrCode:
    """A QR code laid out for the screen: its picture (dark modules unlit) and the lit field around it."""

    image: Image.Image  # the modules only, scale px each, dark modules 0
    version: int
    scale: int  # px a module
    field: int  # the lit field's width: the code and QR_QUIET modules either side


@lru_cache(maxsize=8)
def qr_code(text: str, size: tuple[int, int] = (WIDTH, HEIGHT)) -> QrCode | None:
    """The QR code of text at the largest module size the screen's rows allow, or None when even 1 px
    modules would not fit (or there is no text): a code is drawn whole or not at all."""
    if not text:
        return None
    width, height = size
    try:
        # never a Micro QR (segno.make picks one for short texts): phone cameras do not read them
        qr = segno.make_qr(text, error=QR_ERROR)
    except segno.DataOverflowError:
        return None
    modules = len(qr.matrix)
    for scale, edge in ((2, QR_EDGE_MIN), (1, QR_QUIET)):
        field = (modules + 2 * QR_QUIET) * scale
        if modules * scale + 2 * edge <= height and field <= width:
            picture = Image.new("1", (modules, modules))
            picture.putdata([0 if dark else 1 for row in qr.matrix for dark in row])
            picture = picture.resize((modules * scale, modules * scale), Image.Resampling.NEAREST)
            return QrCode(picture, int(qr.version), scale, field)
    return None


def qr_fits(text: str) -> bool:
    """Whether a frame can carry text as a QR code on the 128x64 screen (render reports "qr" otherwise)."""
    return qr_code(text) is not None


def render(frame: Frame, fonts: Fonts, size: tuple[int, int] = (WIDTH, HEIGHT)) -> tuple[Image.Image, list[str]]:
    """The frame's picture (mode "1") and the parts that were shortened or dropped to fit ("qr" for a
    code too long for the screen, drawn not at all)."""
    width, height = size
    image = Image.new("1", size)
    draw = ImageDraw.Draw(image)
    draw.fontmode = "1"  # on/off pixels: grey anti-aliasing would threshold unevenly
    cut: list[str] = []

    def fit(part: str, font: ImageFont.FreeTypeFont, text: str, room: int) -> str:
        text = flat(text)
        short = shorten(font, text, room)
        if short != text and part not in cut:
            cut.append(part)
        return short

    lines = list(enumerate(map(flat, frame.lines)))
    code = qr_code(frame.qr, size) if frame.qr else None
    if frame.qr and code is None:
        cut.append("qr")
    elif code is not None:
        # the lit field runs the full height: the quiet zone above and below is all the rows there are
        left = width - code.field
        draw.rectangle((left, 0, width - 1, height - 1), fill=1)
        image.paste(code.image, (left + QR_QUIET * code.scale, (height - code.image.height) // 2))
        width = left - QR_GAP  # the text's column
        # the column is too narrow for lines shortened to fit: each is wrapped, its pieces keep its number
        lines = [(number, piece) for number, line in lines for piece in wrap(line, fonts.text, width)]

    top, bottom = 0, height - 1
    if frame.title:
        text = fit("title", fonts.text, frame.title, width - 2)
        if frame.inverse_title:
            draw.rectangle((0, 0, width - 1, TITLE_ROWS - 1), fill=1)
        draw.text((centred(fonts.text, text, width), 0), text, font=fonts.text, fill=0 if frame.inverse_title else 1)
        top = TITLE_ROWS + 1
    if frame.big:
        text = fit("big", fonts.big, frame.big, width)
        # baseline placement keeps the digits on the same rows whatever the text
        draw.text((centred(fonts.big, text, width), top + BIG_ROWS - 1), text, font=fonts.big, fill=1, anchor="ls")
        top += BIG_ROWS
    if frame.footer:
        bottom = height - 1 - PITCH
        text = fit("footer", fonts.text, frame.footer, width)
        draw.text((centred(fonts.text, text, width), bottom), text, font=fonts.text, fill=1)
    room = line_room(bool(frame.title), bool(frame.big), bool(frame.footer), height)
    for row, (number, line) in enumerate(lines):
        part = f"lines[{number}]"
        y = top + row * PITCH
        if row >= room:
            if part not in cut:
                cut.append(part)
            continue
        chosen = number == frame.selected
        if chosen:
            draw.rectangle((0, y, width - 1, y + PITCH), fill=1)
        draw.text(
            (1 if chosen else 0, y),
            fit(part, fonts.text, line, width - 2 if chosen else width),
            font=fonts.text,
            fill=0 if chosen else 1,
        )
    return image, cut


def flat(text: str) -> str:
    """The text on one line: a newline or a tab in a catalogue entry is a space on the screen."""
    return text.replace("\n", " ").replace("\t", " ")


def fits(frame: Frame, fonts: Fonts | None = None) -> list[str]:
    """The parts of the frame ("title", "big", "lines[2]", "footer") that would be shortened or dropped."""
    return render(frame, fonts or default_fonts())[1]


class Screen:
    """One OLED: draws frames, pushing pixels only when they change, and only the pages that changed.

    last_pages are the pages the last show or clear wrote (on the dummy, which has no pages, the ones a
    real display would have got; none when the picture was unchanged) and pages_written counts them
    all: a full frame is 8.
    """

    def __init__(self, device: Any, fonts: Fonts | None = None):
        self.device = device
        self.fonts = fonts or default_fonts()
        self.image: Image.Image | None = None  # the last picture pushed
        self.draws = 0  # pushes to the device
        self.pages_written = 0
        self.last_pages: tuple[int, ...] = ()
        self.contrast: int | None = None

    def show(self, frame: Frame) -> bool:
        """Draw the frame; True when the device was written (its pixels changed).

        A display that stops answering (a loose wire) raises DisplayMissing;
        the picture counts as not drawn, so the next show tries it again.
        """
        image, _ = render(frame, self.fonts, self.device.size)
        if self.image is not None and image.tobytes() == self.image.tobytes():
            self.last_pages = ()
            return False
        try:
            self.device.display(image)
        except (DeviceNotFoundError, OSError) as exc:
            raise DisplayMissing(f"OLED: the display stopped answering ({exc})") from None
        self._pushed(image)
        return True

    def _pushed(self, image: Image.Image) -> None:
        if isinstance(self.device, PageWriter):
            pages = self.device.last_pages  # what went over the wire
        else:
            # in the controller's orientation, as a real one would have been written
            before = None if self.image is None else self.device.preprocess(self.image)
            pages = changed_pages(before, self.device.preprocess(image))
        self.image = image
        self.draws += 1
        self.last_pages = pages
        self.pages_written += len(pages)

    def dim(self, level: int) -> None:
        """Set the contrast (0-255): the daemon lowers it step by step while idle, against burn-in."""
        level = max(0, min(255, int(level)))
        if level != self.contrast:
            self.device.contrast(level)
            self.contrast = level

    def clear(self) -> None:
        self.device.clear()
        self._pushed(Image.new("1", self.device.size))

    def close(self) -> None:
        """Blank and switch off the display and free its bus."""
        self.device.cleanup()

    def __enter__(self) -> "Screen":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
