"""What the share-picture tests share (tests/test_web_cards.py, tests/ledger/test_cards.py):
a settled hand of any rule set, found by asking the engine, and the QR code read back from a
PNG by zxing-cpp."""

from __future__ import annotations

import io
import random

from webcalc.analysis import analyze
from webcalc.errors import InputError
from webcalc.tiles import ALL_TILES, format_tiles
from webcalc.warmup import complete_tiles

#: the widest and narrowest pictures allowed, and the largest (API.md "Pictures")
WIDTH_MIN, WIDTH_MAX, BYTES_MAX = 750, 1080, 200 * 1024


def settled_hand(variant: str, seed: int = 1) -> dict:
    """A complete hand of ``variant`` that the engine settles as seat 0's self-drawn win
    with seat 0 dealing: ``{"hand", "winning_tile"}`` (the engine decides which: no rule is
    assumed here)."""
    rng = random.Random(seed)
    for _ in range(1000):
        tiles = complete_tiles(rng)
        req = {"variant": variant, "hand": format_tiles(tiles),
               "winning_tile": ALL_TILES[tiles[-1]].code, "win_by": "self_draw",
               "settlement": {"base": 1, "dealer": 0, "winner": 0}}
        try:
            if analyze(req, advice=False).settlement:
                return {"hand": req["hand"], "winning_tile": req["winning_tile"]}
        except InputError:
            continue
    raise AssertionError(f"no settled hand of {variant}")


def qr_texts(png: bytes) -> list[str]:
    """The text of every QR code in the picture."""
    import zxingcpp
    from PIL import Image

    img = Image.open(io.BytesIO(png))
    return [r.text for r in zxingcpp.read_barcodes(img.convert("L"))
            if r.format == zxingcpp.BarcodeFormat.QRCode]


def picture(png: bytes):
    """The PNG opened (Pillow), checked to be one."""
    from PIL import Image

    img = Image.open(io.BytesIO(png))
    assert img.format == "PNG"
    img.load()
    return img
