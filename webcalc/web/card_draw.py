"""Drawing the share pictures with Pillow: fonts found by path, text in any script with a
fallback per character, tiles, QR codes and the PNG (docs/decisions.md "Share cards").

No Flask here and no words of its own: :mod:`webcalc.web.cards` lays the two cards out from
what the engine and the ledger computed, in the reader's language, and draws them with this.

Fonts are files of Debian packages (``.ci/run`` installs them; README "Share pictures"):
``fonts-noto-cjk`` (Noto Sans CJK, the Simplified Chinese face of its collection) for
Chinese, Latin and most symbols, ``fonts-noto-color-emoji`` for emoji (a bitmap font, drawn
at its one size and scaled), ``fonts-dejavu-core`` for the scripts Noto CJK lacks (Greek
extended, Arabic, runes …). Each is looked for along :data:`FONT_PATHS`; a missing one is
logged once and its characters fall to the next font, the last resort being Pillow's own
font. A character no font has is drawn as the main font's "missing glyph" box, never an
error.
"""

from __future__ import annotations

import io
import logging
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

#: where each font is looked for, first found wins (Debian's paths, then other systems')
FONT_PATHS: dict[str, tuple[str, ...]] = {
    "sans": ("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
             "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
             "/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc",
             "/usr/share/fonts/truetype/noto/NotoSansCJK-Regular.ttc"),
    "bold": ("/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
             "/usr/share/fonts/noto-cjk/NotoSansCJK-Bold.ttc",
             "/usr/share/fonts/google-noto-cjk/NotoSansCJK-Bold.ttc",
             "/usr/share/fonts/truetype/noto/NotoSansCJK-Bold.ttc"),
    "emoji": ("/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf",
              "/usr/share/fonts/noto/NotoColorEmoji.ttf",
              "/usr/share/fonts/google-noto-emoji/NotoColorEmoji.ttf"),
    "other": ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
              "/usr/share/fonts/dejavu/DejaVuSans.ttf"),
    "other_bold": ("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
                   "/usr/share/fonts/dejavu/DejaVuSans-Bold.ttf"),
}
#: the face of a Noto CJK collection to use: Simplified Chinese
CJK_FACE = "SC"
#: the QR codes' mask pattern (any of 0-7 is valid; segno's choice of the best is slow)
QR_MASK = 4
#: the smallest QR module, in px
QR_MODULE = 4
#: the one size a colour bitmap emoji font has (Noto Color Emoji: 109 px, 128 px a line)
EMOJI_STRIKE = 109



@cache
def font_file(role: str) -> tuple[str, int] | None:
    """``(path, index)`` of the font for ``role`` (:data:`FONT_PATHS`), or None (logged once)."""
    for path in FONT_PATHS[role]:
        if Path(path).is_file():
            return path, _face_index(path)
    log.warning("share pictures: no %s font in %s; install the Debian packages of README "
                "\"Share pictures\"", role, ", ".join(FONT_PATHS[role]))
    return None


def _face_index(path: str) -> int:
    """The Simplified Chinese face of a font collection (``.ttc``), else 0."""
    if not path.endswith(".ttc"):
        return 0
    from PIL import ImageFont

    for i in range(16):
        try:
            family = ImageFont.truetype(path, 12, index=i).getname()[0] or ""
        except OSError:
            break
        if family.endswith(" " + CJK_FACE):
            return i
    return 0


def fonts_found() -> tuple:
    """Which font file each role uses (part of the pictures' ETags: another font draws
    another picture)."""
    return tuple((role, font_file(role)) for role in FONT_PATHS)


@lru_cache(maxsize=128)
def font(role: str, size: int) -> Any:
    """The Pillow font of ``role`` at ``size`` px; Pillow's own font when the file is
    missing (``sans``/``bold`` only: the others are skipped then, :func:`_has`)."""
    from PIL import ImageFont

    found = font_file(role)
    if found is None:
        return ImageFont.load_default(size)
    path, index = found
    return ImageFont.truetype(path, size, index=index)


# -- text: runs of one font, a fallback per character ------------------------------------------

ZWJ = "\u200d"
#: what joins the character before it into one emoji (variation selectors, keycap, skin tones)
_EMOJI_TAIL = {0xFE0E, 0xFE0F, 0x20E3} | set(range(0x1F3FB, 0x1F400)) | set(range(0xE0020, 0xE0080))
_REGIONAL = range(0x1F1E6, 0x1F200)


@lru_cache(maxsize=8192)
def clusters(text: str) -> tuple[str, ...]:
    """``text`` cut into what is drawn as one: a character with its combining marks,
    variation selector, skin tone or keycap, a ZWJ sequence, a pair of regional indicators
    (a flag). Control and format characters outside an emoji (and lone surrogates) are
    left out; line breaks become spaces."""
    out: list[str] = []
    joined = False
    for ch in text:
        cp = ord(ch)
        cat = unicodedata.category(ch)
        if ch in "\n\r\t\u2028\u2029":
            ch, cat = " ", "Zs"
        if out and (joined or cp in _EMOJI_TAIL or cat in ("Mn", "Me", "Mc")
                    or (cp in _REGIONAL and len(out[-1]) == 1 and ord(out[-1]) in _REGIONAL)):
            out[-1] += ch
            joined = False
            continue
        if ch == ZWJ and out:
            out[-1] += ch
            joined = True
            continue
        joined = False
        if cat in ("Cc", "Cf", "Cs", "Zl", "Zp"):
            continue
        out.append(ch)
    return tuple(out)


def _is_emoji_cluster(c: str) -> bool:
    return (len(c) > 1 and (ZWJ in c or "\ufe0f" in c or "\u20e3" in c
                            or any(ord(x) in _REGIONAL for x in c)
                            or any(0x1F3FB <= ord(x) < 0x1F400 for x in c)))


@lru_cache(maxsize=8192)
def _has(role: str, cluster: str) -> bool:
    """Whether the font of ``role`` draws ``cluster`` (its first character, or the whole of
    an emoji), told by comparing its glyph with the font's missing-glyph box."""
    if font_file(role) is None:
        return role in ("sans", "bold")          # Pillow's own font: drawn anyway
    if role == "emoji":
        return _emoji_bitmap(cluster) is not None
    ch = cluster[0]
    f = font(role, 20)
    mask = f.getmask(ch)
    return (mask.size, bytes(mask)) != _missing(role)


@lru_cache(maxsize=8)
def _missing(role: str) -> tuple:
    mask = font(role, 20).getmask("\U0010fffd")     # a private-use noncharacter: no font has it
    return mask.size, bytes(mask)


@lru_cache(maxsize=1024)
def _emoji_bitmap(cluster: str) -> Any:
    """The colour bitmap of an emoji at the font's one size, cropped (RGBA), or None when
    the emoji font does not have it."""
    from PIL import Image, ImageDraw

    f = font("emoji", EMOJI_STRIKE)
    width = max(int(f.getlength(cluster)) + 8, 8)
    img = Image.new("RGBA", (width, 140), (0, 0, 0, 0))
    ImageDraw.Draw(img).text((0, 0), cluster, font=f, embedded_color=True)
    box = img.getbbox()
    if box is None:
        return None
    return img.crop((0, 0, width - 8, 136))


@lru_cache(maxsize=1024)
def _emoji_scaled(cluster: str, size: int) -> Any:
    from PIL import Image

    src = _emoji_bitmap(cluster)
    scale = size / EMOJI_STRIKE
    return src.resize((max(1, round(src.width * scale)), max(1, round(src.height * scale))),
                      Image.Resampling.LANCZOS)


@dataclass(frozen=True)
class Run:
    """Characters drawn with one font: ``role`` ``main`` (the sans or bold face), ``other``
    (DejaVu) or ``emoji``."""

    role: str
    text: str


@lru_cache(maxsize=4096)
def runs(text: str) -> tuple[Run, ...]:
    """``text`` as runs of one font each (see the module docstring for the order)."""
    out: list[Run] = []
    for c in clusters(text):
        if _is_emoji_cluster(c) and _has("emoji", c):
            role = "emoji"
        elif _has("sans", c):
            role = "main"
            c = c.replace("\ufe0f", "").replace("\ufe0e", "") or c
        elif _has("emoji", c):
            role = "emoji"
        elif _has("other", c):
            role = "other"
            c = c.replace("\ufe0f", "").replace("\ufe0e", "") or c
        else:
            role = "main"                         # the missing-glyph box
        if out and out[-1].role == role and role != "emoji":
            out[-1] = Run(role, out[-1].text + c)
        else:
            out.append(Run(role, c))
    return tuple(out)


@lru_cache(maxsize=16384)
def _width(text: str, size: int, bold: bool) -> float:
    """The advance of ``text`` (runs and emoji summed), kept: a card measures the same words,
    numbers and tiles again and again, and FreeType's measure costs about 60 µs a call."""
    return sum(_run_width(r, size, bold) for r in runs(text))


def _run_font(role: str, size: int, bold: bool) -> Any:
    if role == "main":
        return font("bold" if bold else "sans", size)
    return font("other_bold" if bold and font_file("other_bold") else "other", size)


def _run_width(run: Run, size: int, bold: bool) -> float:
    if run.role == "emoji":
        return _emoji_scaled(run.text, size).width + size * 0.08
    if run.role == "main":
        return sum(_glyph(c, size, bold)[2] for c in clusters(run.text))
    return float(_run_font(run.role, size, bold).getlength(run.text))


@lru_cache(maxsize=8192)
def _glyph(cluster: str, size: int, bold: bool) -> tuple:
    """A character of the main font rendered once: ``(mask, (dx, dy) from the pen on the
    baseline, advance)``. Drawing a line is then one blit per character: FreeType rendered
    each line anew, about 1 ms a line, most of a card's time."""
    f = _run_font("main", size, bold)
    mask, offset = f.getmask2(cluster, "L", anchor="ls")
    return mask, offset, float(f.getlength(cluster))


#: (image mode, colour) → the pixel value Pillow draws it with
_INKS: dict[tuple[str, str], int] = {}


class Pen:
    """Text on one image: measured and drawn run by run, on a baseline."""

    def __init__(self, img, dry: bool = False):
        from PIL import ImageDraw

        self.img = img
        self.draw = ImageDraw.Draw(img)
        self.dry = dry                  # measuring only: text is not drawn

    def _ink(self, fill: str) -> int:
        key = (self.img.mode, fill)
        ink = _INKS.get(key)
        if ink is None:
            ink = _INKS[key] = int(self.draw._getink(fill)[0] or 0)
        return ink

    @staticmethod
    def width(text: str, size: int, bold: bool = False) -> float:
        return _width(text, size, bold)

    def text(self, x: float, baseline: float, text: str, size: int, fill: str,
             bold: bool = False) -> float:
        """Draw ``text`` with its baseline at ``baseline``; returns the x after it."""
        if self.dry:
            return x + _width(text, size, bold)
        for run in runs(text):
            if run.role == "emoji":
                im = _emoji_scaled(run.text, size)
                top = round(baseline - im.height * 0.86)
                self.img.paste(im, (round(x + size * 0.04), top), im)
            elif run.role == "main":
                ink = self._ink(fill)
                y = round(baseline)
                for c in clusters(run.text):
                    mask, (dx, dy), advance = _glyph(c, size, bold)
                    if mask.size[0]:
                        self.draw.draw.draw_bitmap((round(x) + dx, y + dy), mask, ink)
                    x += advance
                continue
            else:
                self.draw.text((x, baseline), run.text, font=_run_font(run.role, size, bold),
                               fill=fill, anchor="ls")
            x += _run_width(run, size, bold)
        return x

    def right(self, x_right: float, baseline: float, text: str, size: int, fill: str,
              bold: bool = False) -> None:
        self.text(x_right - self.width(text, size, bold), baseline, text, size, fill, bold)

    @staticmethod
    def wrap(text: str, size: int, max_width: float, bold: bool = False) -> list[str]:
        """``text`` in lines no wider than ``max_width``: broken after spaces and between
        Chinese characters, a word wider than a line broken anywhere (widths summed token by
        token, each measured once; the lines kept for the drawing pass and the next card)."""
        return list(_wrapped(text, size, max_width, bold))

    @staticmethod
    def _hard_wrap(word: str, size: int, max_width: float, bold: bool) -> list[str]:
        out, cur, used = [], "", 0.0
        for c in clusters(word):
            w = _width(c, size, bold)
            if cur and used + w > max_width:
                out.append(cur)
                cur, used = "", 0.0
            cur, used = cur + c, used + w
        return out + [cur]

    def fit(self, text: str, size: int, max_width: float, smallest: int,
            bold: bool = False) -> int:
        """The largest size from ``size`` down to ``smallest`` at which ``text`` fits in one
        line of ``max_width`` (``smallest`` when none does: wrap it then)."""
        width = _width(text, size, bold)
        if width > max_width:                   # widths scale with the size
            size = int(size * max_width / width)
        while size > smallest and _width(text, size, bold) > max_width:
            size -= 1
        return max(size, smallest)


@lru_cache(maxsize=4096)
def _wrapped(text: str, size: int, max_width: float, bold: bool) -> tuple[str, ...]:
    """:meth:`Pen.wrap`'s lines."""
    lines: list[str] = []
    line, used = "", 0.0
    for token in _tokens(text):
        w = _width(token, size, bold)
        bare = w - (_width(" ", size, bold) if token.endswith(" ") else 0)
        if line and used + bare > max_width:
            lines.append(line.rstrip())
            token = token.lstrip()
            line, used = "", 0.0
            w = _width(token, size, bold)
        if w > max_width and not line:
            *head, token = Pen._hard_wrap(token, size, max_width, bold)
            lines += head
            w = _width(token, size, bold)
        line, used = line + token, used + w
    if line.strip() or not lines:
        lines.append(line.rstrip())
    return tuple(lines)


#: what never starts a line (closing brackets and punctuation, Chinese and Latin), and what
#: never ends one (opening brackets)
NO_LINE_START = frozenset("）)】」』》〉〕］｝]}，,。.、：:；;！!？?…%％")
NO_LINE_END = frozenset("（(【「『《〈〔［｛[{")


def _tokens(text: str) -> list[str]:
    """Where a line may break: after a space, around a wide (CJK) character or an emoji,
    never before closing punctuation nor after an opening bracket (:data:`NO_LINE_START`,
    :data:`NO_LINE_END`)."""
    out: list[str] = []
    word = ""
    held = ""                                   # opening brackets, kept for what follows
    for c in clusters(text):
        if c in NO_LINE_END:
            if word:
                out.append(word)
                word = ""
            held += c
            continue
        wide = unicodedata.east_asian_width(c[0]) in ("W", "F") or len(c) > 1
        closing = c in NO_LINE_START
        c, held = held + c, ""
        if closing and (word or out):
            if word:
                word += c
                if wide:                        # a break may follow 。 or ）
                    out.append(word)
                    word = ""
            else:
                out[-1] += c
        elif c == " ":
            out.append(word + c)
            word = ""
        elif wide:
            if word:
                out.append(word)
                word = ""
            out.append(c)
        else:
            word += c
    if word or held:
        out.append(word + held)
    return out


# -- tiles ---------------------------------------------------------------------------------------

#: the page's tile colours (static/css/app.css): 万 red, 筒 blue, 条 green, honours ink
INK = {"m": "#b42318", "p": "#1d4ed8", "s": "#15803d", "z": "#1f2328"}
TILE_FACE, TILE_EDGE, TILE_BACK = "#fffef9", "#c9c2ae", "#2f7d5b"
WILD, WILD_FACE = "#946200", "#fff6d9"


def draw_tile(img, x: float, y: float, w: int, h: int, code: str, *, wild: bool = False,
              mark: bool = False, dim: bool = False) -> None:
    """One tile with its top left at (x, y), ``w`` × ``h`` px, as the page draws it
    (templates/_tiles.html): the rank over the suit, coloured by suit. ``wild``: a wildcard
    standing in (dashed gold edge, 混 badge); ``mark``: a wildcard kind (gold edge, 混 badge);
    ``dim``: greyed (a wait none of which is left). Each distinct tile is drawn once per
    process and pasted after that (:func:`_tile_image`)."""
    im, over = _tile_image(code, w, h, wild, mark, dim)
    img.paste(im, (round(x), round(y) - over), im)


@lru_cache(maxsize=2048)
def _tile_image(code: str, w: int, h: int, wild: bool, mark: bool, dim: bool) -> tuple:
    """The tile as an RGBA image with room above and to the right for the 混 badge, and how
    far above the tile's top that room reaches."""
    from PIL import Image

    from ..tiles import Tile

    badge = max(12, round(w * 0.34)) if (wild or mark) else 0
    over = round(badge * 0.35)
    img = Image.new("RGBA", (w + round(badge * 0.1) + 1, h + over + 1), (0, 0, 0, 0))
    pen = Pen(img)
    d, y = pen.draw, over
    t = Tile.parse(code)
    r = max(3, w // 9)
    d.rounded_rectangle((0, y + h * 0.06, w, y + h), r, fill=TILE_BACK)
    d.rounded_rectangle((0, y, w, y + h * 0.94), r, fill=WILD_FACE if wild else TILE_FACE,
                        outline=WILD if (wild or mark) else TILE_EDGE,
                        width=max(2, w // 22) if (wild or mark) else max(1, w // 40))
    suit = code[-1]
    ink = INK["m"] if code == "7z" else INK["s"] if code == "6z" else INK[suit]
    if dim:
        ink = "#9aa3ad"
    if t.suit_char:
        size = round(w * 0.56)
        pen.text((w - pen.width(t.rank_char, size, True)) / 2, y + h * 0.47, t.rank_char, size,
                 INK["z"] if suit == "m" and not dim else ink, True)
        size = round(w * 0.44)
        pen.text((w - pen.width(t.suit_char, size)) / 2, y + h * 0.84, t.suit_char, size, ink)
    elif code == "5z":                           # 白: a framed face
        m = w * 0.2
        d.rectangle((m, y + h * 0.2, w - m, y + h * 0.74), outline=INK["p"],
                    width=max(2, w // 18))
    else:
        size = round(w * 0.7)
        pen.text((w - pen.width(t.rank_char, size, True)) / 2, y + h * 0.66, t.rank_char, size,
                 ink, True)
    if badge:
        bx = w - badge * 0.9
        d.rounded_rectangle((bx, 0, bx + badge, badge), badge // 4, fill=WILD)
        size = round(badge * 0.78)
        pen.text(bx + (badge - pen.width("混", size, True)) / 2, badge * 0.8, "混", size,
                 "#ffffff", True)
    return img, over


# -- QR codes and the PNG -------------------------------------------------------------------------

def draw_qr(img, x: int, y: int, url: str, size: int, dry: bool = False) -> int:
    """The QR code of ``url`` with its quiet zone, about ``size`` px square but never less than
    :data:`QR_MODULE` px a module (a picture forwarded is often recompressed), each module
    whole pixels; returns its side in px (``dry``: only that), 0 when ``url`` is too long for
    any QR code (a calculator URL can be several KB)."""
    from PIL import Image

    mx = _qr_matrix(url)
    if mx is None:
        return 0
    scale = max(QR_MODULE, size // mx.width)
    side = mx.width * scale
    if not dry:
        img.paste(mx.resize((side, side), Image.Resampling.NEAREST).convert(img.mode), (x, y))
    return side


@lru_cache(maxsize=8)
def _qr_matrix(url: str) -> Any:
    """The QR code of ``url`` as an "L" image, one pixel a module, with its 4-module quiet
    zone (segno; kept for the drawing pass after the measuring one): error level M, else L
    for a long URL, else None."""
    import segno
    from PIL import Image, ImageOps

    for level in ("m", "l"):
        try:
            # the mask is fixed: choosing the best one costs segno 12 ms, and any mask scans
            qr = segno.make(url, error=level, boost_error=False, mask=QR_MASK)
            break
        except segno.DataOverflowError:
            continue
    else:
        return None
    n = len(qr.matrix)
    modules = Image.frombytes("L", (n, n), b"".join(bytes(row) for row in qr.matrix))
    return ImageOps.expand(modules.point(lambda v: 0 if v else 255), border=4, fill=255)


def png(img, colours: Iterable[str] = ()) -> bytes:
    """The picture as a PNG of 256 colours (a card's flat grounds, text and a few emoji lose
    nothing a phone shows): a third of the bytes of RGB and of the time to compress them.
    The palette is the card's own ``colours`` (exact: thin strokes of a colour vanish from
    a shrunk picture) and colours chosen on the picture shrunk 4 × 4 (a sixteenth of the
    pixels: the grounds, blends and emoji); every pixel takes its nearest. A third of the
    time of Pillow's quantizing the whole."""
    from PIL import Image, ImageColor

    exact = list(dict.fromkeys(ImageColor.getrgb(c)[:3] for c in (*colours, *INK.values(),
                                                                   TILE_FACE, TILE_EDGE,
                                                                   TILE_BACK, WILD, WILD_FACE)))
    chosen = img.reduce(4).quantize(256 - len(exact), method=Image.Quantize.FASTOCTREE)
    flat = [v for rgb in exact for v in rgb] + chosen.getpalette()[:3 * (256 - len(exact))]
    palette = Image.new("P", (1, 1))
    palette.putpalette(flat + [0] * (768 - len(flat)))
    buf = io.BytesIO()
    img.quantize(palette=palette, dither=Image.Dither.NONE).save(buf, "PNG", compress_level=1)
    return buf.getvalue()


def canvas(width: int, height: int, color: str):
    from PIL import Image

    return Image.new("RGB", (width, height), color)


def forget_fonts() -> None:
    """Look for the fonts again, drawing every text and tile afresh (the tests change
    :data:`FONT_PATHS`)."""
    for cached in (font_file, font, _has, _missing, _emoji_bitmap, _emoji_scaled, runs, _width,
                   _glyph, _tile_image, _qr_matrix, clusters, _wrapped):
        cached.cache_clear()
