"""Render the PNG icons from the SVGs beside this file with Debian's Chromium (the browser
the tests drive, through Playwright: nothing else to install).

    .venv/bin/python static/icons/render.py

icon.svg → icon-192.png, icon-512.png (transparent corners: "any" purpose, the favicon);
icon-maskable.svg → icon-maskable-192.png, icon-maskable-512.png (full bleed, the tile inside
the safe zone) and apple-touch-icon.png (180 × 180; iOS rounds the corners itself).
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import sync_playwright

HERE = Path(__file__).resolve().parent
OUT = {
    "icon.svg": [("icon-192.png", 192), ("icon-512.png", 512)],
    "icon-maskable.svg": [("icon-maskable-192.png", 192), ("icon-maskable-512.png", 512),
                          ("apple-touch-icon.png", 180)],
}


def main() -> None:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                    args=["--no-sandbox", "--disable-gpu"])
        for source, targets in OUT.items():
            svg = (HERE / source).read_text(encoding="utf-8")
            for name, size in targets:
                page = browser.new_page(viewport={"width": size, "height": size})
                sized = svg.replace('width="512" height="512"',
                                    f'width="{size}" height="{size}"', 1)
                page.set_content("<!doctype html><style>html,body{margin:0;background:transparent}"
                                 "svg{display:block}</style>" + sized)
                page.screenshot(path=str(HERE / name), omit_background=True)
                page.close()
                print(name, size)
        browser.close()


if __name__ == "__main__":
    main()
