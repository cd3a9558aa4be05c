"""QR codes on the OLED, read back as a phone would: the screen's picture, scaled up, through zbarimg.

zbarimg (Debian's zbar-tools) is required, never skipped: a code no scanner
reads is the one failure these tests exist for. Each picture is decoded twice,
with a white border (a generous quiet zone) and with a black one (the
display's unlit edge and bezel, all a real scanner gets beyond the screen's
own lit field).
"""

import shutil
import subprocess

import pytest
from PIL import Image, ImageOps

from companion.hw import display
from companion.hw.display import Frame, Screen

URLS = [
    "http://companion.local:8080/",  # version 3, 2 px a module
    "http://192.168.178.23:8080/t/ABCD12",  # version 3, 2 px a module
    "http://192.168.178.23:8080/t/ABCD12/join?seat=3&lang=ru",  # version 4: 1 px a module
    "ABCD12",  # short: a normal QR code (never a Micro QR, which phones miss)
]
TOO_LONG = "http://companion.local:8080/t/ABCD12?" + "&".join(f"player{n}=Константин" for n in range(12))


def zbarimg():
    """zbarimg's path; a test that needs it fails (never skips) on a machine without it."""
    path = shutil.which("zbarimg")
    if path is None:
        pytest.fail("zbarimg is missing: apt-get install zbar-tools", pytrace=False)
    return path


@pytest.fixture
def screen():
    with Screen(display.open_device("dummy")) as s:
        yield s


def decode(image, folder, border):
    """What zbarimg reads in the screen's picture, 4x larger with a border of the given colour."""
    big = image.convert("L").resize((image.width * 4, image.height * 4), Image.Resampling.NEAREST)
    path = folder / f"screen-{border}.png"
    ImageOps.expand(big, border=32, fill=border).save(path)
    result = subprocess.run([zbarimg(), "--raw", "-q", str(path)], capture_output=True, text=True, timeout=30)
    # exit 4: no code found; anything else but 0 is zbarimg itself failing
    assert result.returncode in (0, 4), result.stderr
    return result.stdout.rstrip("\n")


@pytest.mark.parametrize("url", URLS)
def test_the_code_on_the_screen_reads_back_as_its_text(screen, tmp_path, url):
    frame = Frame(title="ABCD12", lines=("scan for the phone page",), qr=url)
    assert display.qr_fits(url) and "qr" not in display.fits(frame)
    assert screen.show(frame)
    image = screen.device.image
    for border in ("white", "black"):
        assert decode(image, tmp_path, border) == url, f"{url} with a {border} border"


@pytest.mark.parametrize("url", URLS)
def test_the_code_is_dark_modules_on_a_lit_field_at_the_right(url):
    code = display.qr_code(url)
    assert code is not None
    image, cut = display.render(Frame(title="ABCD12", qr=url), display.default_fonts())
    assert cut == []
    image = image.convert("L")  # lit 255, dark 0
    left = 128 - code.field
    quiet = display.QR_QUIET * code.scale
    top = (64 - code.image.height) // 2
    # the lit field: the quiet zone left and right of the code, and every row above and below it
    field = image.crop((left, 0, 128, 64))
    assert field.crop((0, 0, quiet, 64)).getextrema() == (255, 255)
    assert field.crop((code.field - quiet, 0, code.field, 64)).getextrema() == (255, 255)
    assert image.crop((left, 0, 128, top)).getextrema() == (255, 255)
    assert image.crop((left, top + code.image.height, 128, 64)).getextrema() == (255, 255)
    assert top >= display.QR_EDGE_MIN if code.scale == 2 else top >= display.QR_QUIET
    # the finder pattern's outer corner is a dark module: unlit pixels, the polarity cameras expect
    assert image.getpixel((left + quiet, top)) == 0
    assert image.getpixel((left + quiet + code.scale * 7, top)) == 255  # the separator beyond it
    # 2 px a module whenever the rows allow
    assert code.scale == (2 if code.version <= 3 else 1)
    # the text keeps to its column, dark columns between it and the field
    assert image.crop((left - display.QR_GAP, 0, left, 64)).getbbox() is None


def test_the_text_beside_the_code_is_wrapped_into_its_column(screen):
    frame = Frame(
        title="ABCD12",
        lines=("scan for the phone page",),
        footer="пингвин эскимо палатка",
        qr="http://companion.local:8080/",
    )
    image, cut = display.render(frame, screen.fonts)
    code = display.qr_code(frame.qr)
    column = 128 - code.field - display.QR_GAP
    # the line is wrapped whole onto two rows; the footer (the ledger's head words) is shortened into the
    # column, never drawn over the code, and said
    assert cut == ["footer"]
    assert image.crop((0, 12, column, 22)).getbbox() and image.crop((0, 22, column, 32)).getbbox()
    assert image.crop((0, 53, column, 64)).getbbox() is not None
    plain, _ = display.render(Frame(qr=frame.qr), screen.fonts)
    assert image.crop((column, 0, 128, 64)).tobytes() == plain.crop((column, 0, 128, 64)).tobytes()


def test_lines_past_the_column_s_room_are_reported_by_number():
    text = "наведите камеру телефона, чтобы открыть страницу стола"
    cut = display.fits(Frame(title="ABCD12", lines=("scan", text, "third"), qr="http://companion.local:8080/"))
    assert "lines[1]" in cut and "lines[2]" in cut and "lines[0]" not in cut


def test_a_text_too_long_for_the_screen_is_reported_never_drawn_broken(screen, tmp_path):
    assert not display.qr_fits(TOO_LONG) and not display.qr_fits("")
    frame = Frame(title="ABCD12", lines=("scan for the phone page",), qr=TOO_LONG)
    image, cut = display.render(frame, screen.fonts)
    assert cut == ["qr"]
    # nothing of a code: the frame is drawn as if it had none
    without, _ = display.render(Frame(title="ABCD12", lines=("scan for the phone page",)), screen.fonts)
    assert image.tobytes() == without.tobytes()
    screen.show(frame)
    assert decode(screen.device.image, tmp_path, "white") == ""


def test_the_longest_text_that_fits_still_reads(screen, tmp_path):
    fits = max(n for n in range(100, 260) if display.qr_fits("x" * n))
    assert 150 < fits < 250  # version 10 at 1 px a module: 57 of the 64 rows
    url = "http://companion.local:8080/t/" + "a" * (fits - 30)
    assert display.qr_code(url).version == 10
    screen.show(Frame(title="ABCD12", qr=url))
    assert decode(screen.device.image, tmp_path, "white") == url
    assert not display.qr_fits(url + "a")
