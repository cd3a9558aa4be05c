"""The OLED's drawing layer on luma's dummy device: what is lit, when the device is written, what fits;
and the real SSD1306/SH1106 drivers on a recording serial interface: which pages go over the wire.

Reference pictures of typical screens are in tests/display_ref/ and compared
pixel for pixel. After a deliberate change of the drawing, record them again
and look at each one before committing:

    RECORD_DISPLAY=1 .venv/bin/python -m pytest -q tests/test_display.py

They depend on the font files (DejaVu Sans 2.37, Debian's fonts-dejavu-core)
and the FreeType inside Pillow (2.14.3 in Pillow 13): a mismatch right after
upgrading either is worth a look, not a blind re-record.
"""

import errno
import os
import random
import tomllib
import unicodedata
from pathlib import Path

import pytest
import smbus2
from PIL import Image, ImageChops, ImageDraw

from companion.hw import display
from companion.hw.display import Frame, Screen
from companion.words import messages

REF = Path(__file__).parent / "display_ref"
EDITIONS = Path(__file__).parent.parent / "companion" / "editions"


@pytest.fixture
def screen():
    with Screen(display.open_device()) as s:
        yield s


def lit_rows(image, box=None):
    """The first and last lit row (inclusive) of the image, or of a box within it."""
    part = image.crop(box) if box else image
    left, top, right, bottom = part.getbbox()
    return top, bottom - 1


def lit(image):
    return image.convert("L").histogram()[255]


def strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from strings(item)


def test_a_frame_lights_pixels_where_its_text_is(screen):
    assert screen.show(Frame(title="Анна", lines=("Джекпот 600",)))
    image = screen.device.image
    assert image.mode == "1" and image.size == (128, 64)
    assert image.tobytes() == screen.image.tobytes()
    assert image.crop((0, 0, 128, 11)).getbbox() is not None  # the title's band
    assert image.crop((0, 11, 128, 12)).getbbox() is None  # a dark row
    assert image.crop((0, 12, 128, 23)).getbbox() is not None  # the first line
    assert image.crop((0, 23, 128, 64)).getbbox() is None  # nothing below it
    left, _, right, _ = image.crop((0, 0, 128, 11)).getbbox()
    assert abs(left - (128 - right)) <= 2  # the title is centred


def test_an_unchanged_frame_is_not_drawn_again(screen):
    frame = Frame(title="Boris", big="2 000", lines=("Jackpot 200",))
    assert screen.show(frame) and screen.draws == 1
    assert not screen.show(Frame(title="Boris", big="2 000", lines=("Jackpot 200",)))
    assert screen.draws == 1
    assert screen.show(Frame(title="Boris", big="2 050", lines=("Jackpot 200",)))
    assert screen.draws == 2
    screen.clear()
    assert screen.draws == 3 and screen.device.image.getbbox() is None
    assert not screen.show(Frame())  # blank already


@pytest.mark.parametrize(
    "text",
    [
        "Анна → Борис: аренда 1 250 за участок «Кинотеатр» (ход по карточке)",
        "Anna pays Boris 1,250 rent for the Cinema, doubled for the monopoly",
        "Считыватель не отвечает: проверьте кабель",
        "Ш" * 60,
        "W" * 60,
    ],
)
def test_a_line_too_wide_is_shortened_with_an_ellipsis_inside_the_screen(screen, text):
    fonts = screen.fonts
    short = display.shorten(fonts.text, text, 128)
    assert short.endswith("…") and text.startswith(short[:-1].rstrip())
    assert display.ink_width(fonts.text, short) <= 128
    assert display.fits(Frame(lines=(text,))) == ["lines[0]"]
    screen.show(Frame(lines=(text,)))
    # the last lit column is the ellipsis' own: nothing was cut off at the edge
    assert screen.image.getbbox()[2] == display.ink_width(fonts.text, short) <= 128
    # and one more character would not have fitted
    longer = text[: len(short)].rstrip() + "…"
    assert longer == short or display.ink_width(fonts.text, longer) > 128


def test_shortening_never_separates_a_letter_from_its_accent():
    font = display.default_fonts().text
    text = unicodedata.normalize("NFD", "йё" * 40)  # и + breve, е + diaeresis
    short = display.shorten(font, text, 100)
    assert short.endswith("…")
    assert not unicodedata.combining(text[len(short) - 1])


def test_every_part_that_fits_is_left_alone():
    assert display.fits(Frame(title="Меню", big="13 750", lines=("Курс 120", "Джекпот 600", "ФОРТУНА"))) == []
    assert display.fits(Frame(title="Меню", lines=("x",) * 5)) == []
    assert display.fits(Frame(lines=("x",) * 6)) == []
    # what has no room is reported, never drawn over the footer or off the screen
    assert display.fits(Frame(title="Меню", lines=("x",) * 5, footer="#12")) == ["lines[4]"]
    assert display.fits(Frame(title="Меню", big="1", lines=("x",) * 4)) == ["lines[3]"]


def test_the_big_line_is_centred_digits_at_least_20_pixels_tall(screen):
    for title in ("", "Анна"):
        screen.show(Frame(title=title, big="1 234 567 890" if title else "13 750", lines=("Джекпот 600",)))
        top = 12 if title else 0
        band = (0, top, 128, top + display.BIG_ROWS)
        first, last = lit_rows(screen.image, band)
        assert last - first + 1 >= 20
        left, _, right, _ = screen.image.crop(band).getbbox()
        assert abs(left - (128 - right)) <= 2
        # the line under it starts below the digits
        assert lit_rows(screen.image, (0, top + display.BIG_ROWS, 128, 64))[0] > last - display.BIG_ROWS
    assert display.fits(Frame(big="1 234 567 890")) == ["big"]


def test_a_menu_line_is_drawn_inverse(screen):
    screen.show(Frame(title="Меню", inverse_title=True, lines=("Новая игра", "Выключить"), selected=1))
    band = screen.image.crop((0, 22, 128, 32))
    assert lit(band) > 128 * 10 * 0.7  # mostly light, dark letters
    title = screen.image.crop((0, 0, 128, 11))
    assert lit(title) > 128 * 11 * 0.7
    # a dark row keeps the title's band apart from a chosen first line
    screen.show(Frame(title="Меню", inverse_title=True, lines=("Новая игра", "Выключить"), selected=0))
    assert lit(screen.image.crop((0, 11, 128, 12))) == 0 and lit(screen.image.crop((0, 12, 128, 13))) == 128


def test_wrap_breaks_at_spaces_within_the_width():
    font = display.default_fonts().text
    text = messages.CATALOGS["ru"]["reader_offline"]
    lines = display.wrap(text)
    assert " ".join(lines) == text and len(lines) > 1
    assert all(display.ink_width(font, line) <= 128 for line in lines)


def catalogue_characters():
    chars = set()
    for text in strings([messages.CATALOGS, messages.LABELS, messages.EDITIONS]):
        chars.update(text)
    # the boxes' own names for cells, plots and cards
    for path in EDITIONS.glob("*.toml"):
        for text in strings(tomllib.loads(path.read_text(encoding="utf-8"))):
            chars.update(text)
    return "".join(sorted(chars - {"\n", "\t"}))


def test_the_text_font_draws_every_character_of_the_catalogues():
    fonts = display.default_fonts()
    chars = catalogue_characters()
    assert "Ё" in chars and "«" in chars and "—" in chars
    assert display.has_glyphs(fonts.text, chars) == []
    assert display.has_glyphs(fonts.text, "АаЁёЙйЩщЪъЯя«»„“”—–№₽×→ Az09") == []
    assert display.has_glyphs(fonts.big, "0123456789 -−+,.₽") == []


def catalogue_texts():
    texts = list(strings([messages.CATALOGS, messages.LABELS, messages.EDITIONS]))
    for path in EDITIONS.glob("*.toml"):
        texts.extend(strings(tomllib.loads(path.read_text(encoding="utf-8"))))
    return [display.flat(text) for text in texts]


@pytest.mark.parametrize("which", ["text", "big"])
def test_a_line_is_measured_to_the_pixel_it_is_drawn_at(which):
    # wrapping and shortening measure lines by summing glyph metrics instead of drawing them: a
    # measure one pixel short would let a line's last column fall off the screen
    font = getattr(display.default_fonts(), which)
    texts = catalogue_texts()
    letters = catalogue_characters()
    rng = random.Random(11)
    texts += ["".join(rng.choice(letters) for _ in range(rng.randint(1, 40))) for _ in range(3000)]
    texts += ["W", "_", "a_", "у", "«участок»", "", "   ", "Ёлка", "j", "T.", "Ту"]
    wrong = [
        (text, display.ink(font, text), display.drawn_ink(font, text))
        for text in texts
        if display.ink(font, text) != display.drawn_ink(font, text)
    ]
    assert wrong == [], wrong[:5]


def test_has_glyphs_names_what_the_font_cannot_draw():
    font = display.default_fonts().text
    assert display.has_glyphs(font, "Анна 中文 Борис 中") == ["中", "文"]


def test_no_font_in_the_folders_names_the_package(tmp_path):
    (tmp_path / "DejaVuSans.ttf").write_bytes(b"")  # the bold one is missing
    with pytest.raises(display.FontMissing) as caught:
        display.load_fonts([tmp_path / "nowhere", tmp_path])
    assert "fonts-dejavu-core" in str(caught.value) and "\n" not in str(caught.value)
    assert str(tmp_path) in str(caught.value)


def test_unknown_driver_bus_or_kind_is_refused_by_name():
    with pytest.raises(ValueError, match="ssd1309"):
        display.open_device("real", driver="ssd1309")
    with pytest.raises(ValueError, match="uart"):
        display.open_device("real", bus="uart")
    with pytest.raises(ValueError, match="emulator"):
        display.open_device("emulator")


def test_a_missing_i2c_bus_is_said_in_one_line():
    with pytest.raises(display.DisplayMissing) as caught:
        display.open_device("real", port=97)  # no /dev/i2c-97 on a test machine
    assert str(caught.value) == "OLED: there is no I2C bus 97 (/dev/i2c-97) (is I2C enabled?)"


class SilentBus:
    """An I2C bus on which nothing answers, as smbus2 reports it."""

    def __init__(self, port):
        self.port = port

    def write_i2c_block_data(self, address, register, data):
        raise OSError(errno.EREMOTEIO, "Remote I/O error")

    def i2c_rdwr(self, *messages):
        raise OSError(errno.EREMOTEIO, "Remote I/O error")

    def close(self):
        pass


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_no_display_on_the_bus_is_said_in_one_line_never_a_dummy(monkeypatch, driver):
    monkeypatch.setattr(smbus2, "SMBus", SilentBus)
    with pytest.raises(display.DisplayMissing) as caught:
        display.open_device("real", driver=driver, address=0x3C, port=1)
    assert str(caught.value) == (
        "OLED: no device answers at I2C address 0x3C on bus 1 (is I2C enabled and the display wired?)"
    )


def test_no_permission_for_the_bus_names_the_group(monkeypatch):
    def refused(port):
        raise PermissionError(errno.EACCES, "Permission denied", f"/dev/i2c-{port}")

    monkeypatch.setattr(smbus2, "SMBus", refused)
    with pytest.raises(display.DisplayMissing, match="i2c group"):
        display.open_device("real")


def test_a_display_that_stops_answering_is_said_and_tried_again(screen, monkeypatch):
    frame = Frame(title="Анна", big="13 750")
    pushed = screen.device.display

    def unplugged(image):
        raise OSError(errno.EREMOTEIO, "Remote I/O error")

    monkeypatch.setattr(screen.device, "display", unplugged)
    with pytest.raises(display.DisplayMissing, match="stopped answering"):
        screen.show(frame)
    assert screen.draws == 0 and screen.image is None
    monkeypatch.setattr(screen.device, "display", pushed)
    assert screen.show(frame) and screen.draws == 1


def test_dimming_sets_the_contrast_once_per_level(screen, monkeypatch):
    levels = []
    monkeypatch.setattr(screen.device, "contrast", levels.append)
    for level in (200, 200, 120, -5, 300):
        screen.dim(level)
    assert levels == [200, 120, 0, 255]


class Recorder:
    """A serial interface that keeps what a luma driver sends, in order: ("command", bytes), ("data", bytes)."""

    def __init__(self):
        self.sent = []

    def command(self, *cmd):
        self.sent.append(("command", bytes(cmd)))

    def data(self, data):
        self.sent.append(("data", bytes(data)))

    def cleanup(self):
        pass

    def take(self):
        sent, self.sent = self.sent, []
        return sent


def data_bytes(sent):
    return sum(len(payload) for kind, payload in sent if kind == "data")


def recording(driver, rotate=0):
    """The page-writing device and luma's own driver, each on its recorder, set up and forgotten."""
    from luma.oled.device import sh1106, ssd1306

    plain = {"ssd1306": ssd1306, "sh1106": sh1106}[driver]
    paged_bus, plain_bus = Recorder(), Recorder()
    paged = display.DRIVERS[driver](paged_bus, width=128, height=64, rotate=rotate)
    full = plain(plain_bus, width=128, height=64, rotate=rotate)
    assert paged_bus.take() == plain_bus.take()  # the same set-up sequence, luma's own
    return paged, paged_bus, full, plain_bus


def luma_pages(driver, sent):
    """The page bytes a full luma display() sent, by page: ssd1306 sends 1024 bytes at once, sh1106 a
    command and 128 bytes per page."""
    data = b"".join(payload for kind, payload in sent if kind == "data")
    assert len(data) == 1024
    return {page: data[page * 128 : (page + 1) * 128] for page in range(8)}


def picture(*boxes):
    image = Image.new("1", (128, 64))
    draw = ImageDraw.Draw(image)
    for box in boxes:
        draw.rectangle(box, fill=1)
    return image


def noise(seed):
    """A picture lit at random, so every byte of every page is tested."""
    import random

    rng = random.Random(seed)
    image = Image.new("1", (128, 64))
    image.putdata([rng.getrandbits(1) for _ in range(128 * 64)])
    return image


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
@pytest.mark.parametrize("rotate", [0, 2])
def test_the_first_frame_is_written_whole_as_luma_would(driver, rotate):
    paged, bus, full, plain_bus = recording(driver, rotate)
    image = noise(1)
    paged.display(image)
    full.display(image)
    assert paged.last_pages == tuple(range(8))
    # byte for byte what luma's own display() sends, addressing commands included
    assert bus.take() == plain_bus.take()


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
@pytest.mark.parametrize("rotate", [0, 2])
def test_a_change_in_one_band_writes_only_its_page(driver, rotate):
    paged, bus, full, plain_bus = recording(driver, rotate)
    before = noise(2)
    paged.display(before)
    bus.take()
    after = before.copy()
    after.paste(noise(3).crop((0, 40, 128, 48)), (0, 40))  # rows 40-47: page 5 of the picture
    paged.display(after)
    page = 5 if rotate == 0 else 2  # mounted upside down, the controller's page 2
    assert paged.last_pages == (page,)
    sent = bus.take()
    if driver == "ssd1306":
        # column window 0-127 (0x21), page window page-page (0x22), then the page's 128 bytes
        assert [(kind, payload if kind == "command" else len(payload)) for kind, payload in sent] == [
            ("command", bytes([0x21, 0, 127, 0x22, page, page])),
            ("data", 128),
        ]
    else:
        # the page (0xB0 | page), the low column nibble with the SH1106's offset of 2, high nibble 0
        assert [(kind, payload if kind == "command" else len(payload)) for kind, payload in sent] == [
            ("command", bytes([0xB0 | page, 0x02, 0x10])),
            ("data", 128),
        ]
    full.display(after)
    assert sent[1][1] == luma_pages(driver, plain_bus.take())[page]


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_the_pages_written_rebuild_luma_s_full_frame(driver):
    paged, bus, full, plain_bus = recording(driver)
    memory = {}  # the controller's memory as the page writes leave it
    for step, image in enumerate(
        [
            noise(4),
            picture((0, 0, 127, 10)),
            picture((0, 0, 127, 10), (5, 30, 60, 41)),
            picture((0, 0, 127, 10), (5, 30, 60, 41), (0, 63, 127, 63)),
            noise(5),
        ]
    ):
        paged.display(image)
        sent = bus.take()
        commands = [payload for kind, payload in sent if kind == "command"]
        datas = [payload for kind, payload in sent if kind == "data"]
        if driver == "ssd1306":
            for command, data in zip(commands, datas, strict=True):
                first, last = command[4], command[5]
                assert command[:4] == bytes([0x21, 0, 127, 0x22]) and len(data) == 128 * (last - first + 1)
                for page in range(first, last + 1):
                    memory[page] = data[(page - first) * 128 : (page - first + 1) * 128]
        else:
            for command, data in zip(commands, datas, strict=True):
                memory[command[0] & 0x0F] = data
        full.display(image)
        assert memory == luma_pages(driver, plain_bus.take()), f"step {step}"


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_an_identical_frame_writes_nothing(driver):
    paged, bus, _, _ = recording(driver)
    paged.display(noise(6))
    bus.take()
    paged.display(noise(6))
    assert bus.take() == [] and paged.last_pages == ()


def test_consecutive_pages_share_one_addressing_command():
    paged, bus, _, _ = recording("ssd1306")
    paged.display(picture())
    bus.take()
    paged.display(picture((0, 8, 127, 23), (0, 48, 127, 48)))  # pages 1-2 and 6
    sent = bus.take()
    assert paged.last_pages == (1, 2, 6)
    assert [payload if kind == "command" else len(payload) for kind, payload in sent] == [
        bytes([0x21, 0, 127, 0x22, 1, 2]),
        256,
        bytes([0x21, 0, 127, 0x22, 6, 6]),
        128,
    ]


def test_a_write_that_fails_part_way_sends_the_next_frame_whole():
    paged, bus, _, _ = recording("sh1106")
    paged.display(picture())
    failing = {"after": 2}

    def data(payload):
        if failing["after"] == 0:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")
        failing["after"] -= 1
        bus.sent.append(("data", bytes(payload)))

    bus.data = data
    with pytest.raises(OSError):
        paged.display(noise(7))
    bus.data = Recorder.data.__get__(bus)
    bus.take()
    paged.display(noise(7))  # some pages hold it already, some not: all are written again
    assert paged.last_pages == tuple(range(8)) and data_bytes(bus.take()) == 1024


def test_a_one_line_change_on_the_screen_writes_only_its_pages():
    device = display.DRIVERS["ssd1306"](Recorder(), width=128, height=64)
    bus = device._serial_interface
    screen = Screen(device)
    bus.take()
    assert screen.show(Frame(title="Анна", lines=("Джекпот 600", "Курс 120", "ФОРТУНА")))
    full = bus.take()
    assert screen.last_pages == tuple(range(8)) and data_bytes(full) == 1024
    assert screen.show(Frame(title="Анна", lines=("Джекпот 600", "Курс 130", "ФОРТУНА")))
    line = bus.take()
    # the second line's rows 22-32 lie in pages 2-4; only those whose pixels changed go out
    assert set(screen.last_pages) <= {2, 3, 4} and screen.last_pages == device.last_pages
    assert data_bytes(line) == 128 * len(screen.last_pages) < 1024
    assert screen.pages_written == 8 + len(screen.last_pages)


def test_the_dummy_records_the_pages_a_real_display_would_get(screen):
    screen.show(Frame(title="Анна", big="13 750", lines=("Джекпот 600",)))
    assert screen.last_pages == tuple(range(8)) and screen.pages_written == 8
    screen.show(Frame(title="Анна", big="13 750", lines=("Джекпот 650",)))
    # the line sits on rows 33-43 under the title and the digits: pages 4 and 5 at most
    assert screen.last_pages and set(screen.last_pages) <= {4, 5}
    assert screen.pages_written == 8 + len(screen.last_pages)
    assert not screen.show(Frame(title="Анна", big="13 750", lines=("Джекпот 650",)))
    assert screen.last_pages == () and screen.pages_written == 8 + 2
    screen.clear()
    # rows 44-63 were dark already: clearing leaves pages 6 and 7 alone
    assert screen.last_pages[0] == 0 and not {6, 7} & set(screen.last_pages)


class SpeakingBus:
    """An I2C bus on which the display answers: keeps every byte written, as smbus2 is called."""

    written = []

    def __init__(self, port):
        self.port = port

    def write_i2c_block_data(self, address, register, data):
        SpeakingBus.written.append(bytes([register, *data]))

    def i2c_rdwr(self, *messages):
        SpeakingBus.written.extend(bytes(message) for message in messages)

    def close(self):
        pass


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_the_real_display_writes_pages(monkeypatch, driver):
    monkeypatch.setattr(smbus2, "SMBus", SpeakingBus)
    monkeypatch.setattr(SpeakingBus, "written", [])
    device = display.open_device("real", driver=driver)
    assert isinstance(device, display.PageWriter)
    screen = Screen(device)
    SpeakingBus.written.clear()
    screen.show(Frame(title="Анна", big="13 750"))
    whole = sum(map(len, SpeakingBus.written))
    SpeakingBus.written.clear()
    screen.show(Frame(title="Анна", big="13 760"))
    part = sum(map(len, SpeakingBus.written))
    assert 0 < part < whole / 2, (part, whole)


# typical screens, as the daemon will compose them
REFERENCES = {
    "idle_balance": Frame(
        title="Анна", big="13 750", lines=("Курс акций 120 ▲ +10", "Джекпот 600", "ФОРТУНА: льготный кредит")
    ),
    "receipt_ru": Frame(
        title="Аренда",
        lines=("Анна → Борис: 1 250", "за участок «Кинотеатр»", "Баланс Анны: 12 500"),
        footer="ждём: бросок Бориса",
    ),
    "menu": Frame(
        title="Меню",
        inverse_title=True,
        selected=0,
        lines=("Новая игра", "Продолжить игру", "Привязать карту", "Язык: русский", "Выключить"),
    ),
    "reader_offline": Frame(
        title="Внимание",
        lines=tuple(display.wrap("Считыватель не отвечает: проверьте кабель")),
        footer="пингвин эскимо палатка",
    ),
    "qr_phone_page": Frame(
        title="ABCD12", lines=("scan for the phone page",), qr="http://192.168.178.23:8080/t/ABCD12"
    ),
}


@pytest.mark.parametrize("name", sorted(REFERENCES))
def test_typical_screens_match_their_reference_pictures(screen, name):
    screen.show(REFERENCES[name])
    path = REF / f"{name}.png"
    if os.environ.get("RECORD_DISPLAY") == "1":
        REF.mkdir(exist_ok=True)
        screen.image.save(path)
    assert path.exists(), f"no {path}: record it with RECORD_DISPLAY=1 and look at it"
    with Image.open(path) as stored:
        expected = stored.convert("1")
    differ = ImageChops.logical_xor(expected, screen.image).getbbox()
    assert expected.tobytes() == screen.image.tobytes(), f"{name} differs from {path} in the box {differ}"
