"""Make the fonts the pictures are drawn in (`render/fonts/`, see `render.fonts`): run it again when a catalogue
or a board's city names gain characters (`tests/render/test_fonts.py` says when).

    python render/tools/build_fonts.py [--noto-dir DIR] [--dejavu-dir DIR]

- DejaVu Sans and DejaVu Sans Bold (Latin, Greek, Cyrillic: every language but Japanese), copied unchanged from
  Debian's `fonts-dejavu-core` (2.37); licence: `LICENSE-DejaVu.txt` (Bitstream Vera licence, changes public
  domain).
- "TTR Noto Sans JP", Regular and Bold: a subset of Noto Sans CJK JP (Debian's `fonts-noto-cjk`,
  NotoSansCJK-{Regular,Bold}.ttc, face 0) made with fontTools to the characters Japanese pictures need: Latin
  (player names, numbers), kana, CJK punctuation and full-width forms, the 2,965 kanji of JIS level 1 (the common
  ones: a new Japanese word seldom needs a new subset), every character of `bot/locales/*ja*.json` and every
  city name of the boards' data in any language (`maps/names/*.json`); renamed (SIL OFL 1.1: a modified font may
  not take a Reserved Font Name, here "Source"; a name of its own also keeps a host's full Noto from standing in
  for it). Noto CJK has no ✔ ✘ ✗: they are mapped to its ✓ and ×. Licence: `LICENSE-NotoSansCJK.txt` (SIL OFL 1.1).

Get the sources without installing them: `apt-get download fonts-noto-cjk && dpkg-deb -x fonts-noto-cjk_*.deb x`
then `--noto-dir x/usr/share/fonts/opentype/noto`.
"""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "render" / "fonts"
FAMILY = "TTR Noto Sans JP"
#: Characters Noto CJK lacks, drawn with a glyph it has.
ALIASES = {"✔": "✓", "✘": "×", "✗": "×"}
RANGES = (
    (0x20, 0x7E),  # Basic Latin
    (0xA0, 0x17F),  # Latin-1 Supplement, Latin Extended-A
    (0x2010, 0x2027),  # dashes, quotes, bullet, ellipsis
    (0x2030, 0x203A),
    (0x2190, 0x2193),  # arrows
    (0x2212, 0x2212),
    (0x25A0, 0x25CF),  # squares, triangles, circles
    (0x3000, 0x30FF),  # CJK punctuation, hiragana, katakana
    (0xFF01, 0xFF5E),  # full-width forms
)


def jis_level_1_kanji() -> str:
    """The 2,965 kanji of JIS X 0208 level 1 (rows 16-47): the common ones, nearly all of the Jōyō list, so that a
    new Japanese word in a catalogue seldom needs a new subset."""
    out = []
    for row in range(16, 48):
        for cell in range(1, 95):
            try:
                out.append(bytes((row + 0xA0, cell + 0xA0)).decode("euc_jp"))
            except UnicodeDecodeError:
                continue
    return "".join(out)


def needed_text() -> str:
    chars = {chr(c) for lo, hi in RANGES for c in range(lo, hi + 1)}
    chars |= set(jis_level_1_kanji())
    for path in sorted((ROOT / "bot" / "locales").glob("*ja*.json")):
        chars |= set(json.dumps(json.loads(path.read_text("utf-8")), ensure_ascii=False))
    for path in sorted((ROOT / "maps" / "names").glob("*.json")):
        chars |= set(json.dumps(json.loads(path.read_text("utf-8")), ensure_ascii=False))
    return "".join(sorted(chars))


def subset_face(ttc: Path, out: Path, style: str, text: str) -> None:
    font = TTCollection(str(ttc)).fonts[0]
    options = subset.Options()
    options.layout_features = ["kern", "palt", "liga", "ccmp", "locl"]
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]
    options.name_languages = [0x409]
    options.hinting = False
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=text + "".join(ALIASES.values()))
    subsetter.subset(font)
    cmap = font.getBestCmap()
    for table in font["cmap"].tables:
        if table.isUnicode():
            for alias, target in ALIASES.items():
                if ord(target) in cmap:
                    table.cmap[ord(alias)] = cmap[ord(target)]
    name = font["name"]
    postscript = f"{FAMILY.replace(' ', '')}-{style}"
    for record_id, value in (
        (1, FAMILY),
        (2, style),
        (3, postscript),
        (4, f"{FAMILY} {style}"),
        (6, postscript),
    ):
        name.setName(value, record_id, 3, 1, 0x409)
    name.names = [n for n in name.names if n.nameID not in (16, 17) and n.platformID == 3]
    if "CFF " in font:
        cff = font["CFF "].cff
        cff.fontNames = [postscript]
        top = cff.topDictIndex[0]
        top.FullName, top.FamilyName = f"{FAMILY} {style}", FAMILY
    font.recalcTimestamp = False  # the same sources make the same bytes
    font.save(str(out))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--noto-dir", type=Path, default=Path("/usr/share/fonts/opentype/noto"))
    parser.add_argument("--dejavu-dir", type=Path, default=Path("/usr/share/fonts/truetype/dejavu"))
    args = parser.parse_args()
    OUT.mkdir(exist_ok=True)
    for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf"):
        shutil.copyfile(args.dejavu_dir / name, OUT / name)
    text = needed_text()
    for style in ("Regular", "Bold"):
        out = OUT / f"{FAMILY.replace(' ', '')}-{style}.otf"
        subset_face(args.noto_dir / f"NotoSansCJK-{style}.ttc", out, style, text)
        print(f"{out.relative_to(ROOT)}: {out.stat().st_size // 1024} KB, {len(text)} characters asked")


if __name__ == "__main__":
    main()
