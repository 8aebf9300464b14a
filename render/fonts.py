"""The fonts the pictures are drawn in, shipped in `render/fonts/` so that a picture looks the same on any host.

cairosvg draws text with cairo's simple text API: one font per text element, the first family of its
`font-family`, found by fontconfig, with no fallback per character (a character the font lacks is a box). So
every language has one font that holds all it draws: DejaVu Sans (Latin, Greek, Cyrillic) and, for Japanese,
"TTR Noto Sans JP", a subset of Noto Sans CJK JP with Latin, kana and the common kanji
(`render/tools/build_fonts.py` makes it). Further families in `font-family` serve browsers (the live map).

`use_packaged_fonts` makes fontconfig's current configuration, in this process, one that knows only the package's
fonts (through ctypes: `FcConfigParseAndLoad` then `FcConfigSetCurrent`; no environment variable, so a browser
the tests start keeps the host's fonts): a host's own fonts, or none, change nothing. `render` calls it on import,
so the render workers, the bot and the command line all draw with them.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import os
import tempfile
import zlib
from functools import cache
from pathlib import Path
from xml.sax.saxutils import escape

log = logging.getLogger(__name__)

FONT_DIR = Path(__file__).resolve().parent / "fonts"
LATIN_FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
JAPANESE_FONT = "TTR Noto Sans JP, Noto Sans CJK JP, Noto Sans JP, Hiragino Sans, Yu Gothic, sans-serif"
#: The font of each language that DejaVu cannot write; the others are drawn in `LATIN_FONT`.
FONT_OF_LANGUAGE = {"ja": JAPANESE_FONT}
#: The file of each family and weight (text widths are measured with it: `render.layout.geometry.text_width`).
FILES = {
    ("DejaVu Sans", False): "DejaVuSans.ttf",
    ("DejaVu Sans", True): "DejaVuSans-Bold.ttf",
    ("TTR Noto Sans JP", False): "TTRNotoSansJP-Regular.otf",
    ("TTR Noto Sans JP", True): "TTRNotoSansJP-Bold.otf",
}

_CONFIG = """<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <dir>{fonts}</dir>
  <cachedir>{cache}</cachedir>
  <config><rescan><int>0</int></rescan></config>
  <!-- how glyphs are drawn, pinned as Debian's defaults draw them, so no host's own settings change it -->
  <match target="font">
    <edit name="antialias" mode="assign"><bool>true</bool></edit>
    <edit name="hinting" mode="assign"><bool>true</bool></edit>
    <edit name="hintstyle" mode="assign"><const>hintslight</const></edit>
    <edit name="autohint" mode="assign"><bool>false</bool></edit>
    <edit name="rgba" mode="assign"><const>none</const></edit>
    <edit name="lcdfilter" mode="assign"><const>lcddefault</const></edit>
    <edit name="embolden" mode="assign"><bool>false</bool></edit>
  </match>
</fontconfig>
"""


def font_for(language: str) -> str:
    """The `font-family` pictures in `language` ("ja", "fr-FR") are drawn in."""
    return FONT_OF_LANGUAGE.get(language.split("-")[0], LATIN_FONT)


def font_file(family: str, bold: bool = True) -> Path:
    """The packaged file of a `font-family` value's first family (DejaVu Sans for one not packaged)."""
    first = family.split(",")[0].strip().strip("'\"")
    return FONT_DIR / FILES.get((first, bold), FILES[("DejaVu Sans", bold)])


@cache
def config_file() -> Path:
    """A fontconfig configuration that knows only the package's fonts (written once per user and font dir)."""
    folder = Path(tempfile.gettempdir()) / f"ttr-fontconfig-{os.getuid() if hasattr(os, 'getuid') else 0}"
    folder.mkdir(parents=True, exist_ok=True)
    text = _CONFIG.format(fonts=escape(str(FONT_DIR)), cache=escape(str(folder / "cache")))
    path = folder / f"fonts-{zlib.crc32(str(FONT_DIR).encode()):08x}.conf"
    if not path.exists() or path.read_text("utf-8") != text:
        partial = path.with_suffix(f".{os.getpid()}.tmp")
        partial.write_text(text, "utf-8")
        partial.replace(path)
    return path


@cache
def use_packaged_fonts() -> bool:
    """Make fontconfig (hence cairo, hence cairosvg) find only the package's fonts in this process; False (and a
    warning) where there is no fontconfig to tell (the host's fonts are then used). Once per process."""
    name = ctypes.util.find_library("fontconfig") or "libfontconfig.so.1"
    try:
        fc = ctypes.CDLL(name)
    except OSError:
        log.warning("no fontconfig library (%s): pictures use the host's fonts", name)
        return False
    fc.FcConfigCreate.restype = ctypes.c_void_p
    fc.FcConfigParseAndLoad.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
    fc.FcConfigBuildFonts.argtypes = [ctypes.c_void_p]
    fc.FcConfigSetCurrent.argtypes = [ctypes.c_void_p]
    config = fc.FcConfigCreate()
    loaded = (
        config
        and fc.FcConfigParseAndLoad(config, str(config_file()).encode(), 1)
        and fc.FcConfigBuildFonts(config)
        and fc.FcConfigSetCurrent(config)
    )
    if not loaded:
        log.warning("fontconfig refused the packaged fonts' configuration: pictures use the host's fonts")
        return False
    return True
