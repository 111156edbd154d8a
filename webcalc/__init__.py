"""webcalc: 麻将听牌与结算计算器 — a mahjong hand analyser for four Chinese regional rule sets.

The engine modules (tiles, hand, decompose, waits, variants, analysis …) never import Flask;
``create_app`` imports the web layer only when it is called.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:                   # the engine's modules import this package: no Flask here
    from flask import Flask

from typing import Any


def create_app(test_config: dict[Any, Any] | None = None) -> Flask:
    """Build the Flask application (see :func:`webcalc.web.app.create_app`)."""
    from .web.app import create_app as _create_app

    return _create_app(test_config)


__all__ = ["create_app"]
