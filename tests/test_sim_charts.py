"""`companion sim --charts DIR`: the charts are drawn from a small run, as PNG and SVG, and the same
study draws the same SVG files."""

import struct
import xml.etree.ElementTree as ET

from companion.cli import main

PNG = b"\x89PNG\r\n\x1a\n"


def png_size(path):
    data = path.read_bytes()
    assert data[:8] == PNG, f"{path.name} is no PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def svg_texts(path):
    root = ET.parse(path).getroot()
    assert root.tag.endswith("svg")
    return root


def test_charts_are_rendered_for_elite_with_the_share_price(tmp_path, capsys):
    code = main(["--lang", "en", "sim", "elite", "--games", "3", "--round-cap", "40", "--charts", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0
    names = sorted(p.name for p in tmp_path.iterdir())
    for chart in ("rounds", "wins", "payback", "share-price"):
        assert f"sim-elite-{chart}.png" in names and f"sim-elite-{chart}.svg" in names
        width, height = png_size(tmp_path / f"sim-elite-{chart}.png")
        assert width > 200 and height > 150
        svg_texts(tmp_path / f"sim-elite-{chart}.svg")
    assert "charts: " in out and "sim-elite-share-price.svg" in out
    assert "Share price" in (tmp_path / "sim-elite-share-price.svg").read_text(encoding="utf-8")


def test_classic_draws_the_charity_fund_and_a_comparison(tmp_path, capsys):
    code = main(
        [
            "--lang",
            "ru",
            "sim",
            "classic",
            "--games",
            "3",
            "--charts",
            str(tmp_path),
            "--compare",
            "black_business_fine=100",
        ]
    )
    capsys.readouterr()
    assert code == 0
    assert (tmp_path / "sim-classic-charity.png").exists()
    compare = (tmp_path / "sim-classic-compare.svg").read_text(encoding="utf-8")
    assert "black_business_fine=100" in compare and "раунды" in compare


def test_the_same_study_draws_the_same_svg(tmp_path, capsys):
    first, second = tmp_path / "a", tmp_path / "b"
    for folder in (first, second):
        assert main(["sim", "monopoly", "--games", "2", "--charts", str(folder)]) == 0
    capsys.readouterr()
    for path in sorted(first.glob("*.svg")):
        assert path.read_bytes() == (second / path.name).read_bytes(), path.name
