"""A toy fifth rule set, defined under tests/ only (issue 37 point 5): 郑州 without 跑.

The proof that a rule set is cheap to add: :class:`Toy` is a :class:`Zhengzhou` subclass
(the shapes, wildcards, kongs, doubles and dealer of ZZ-1..ZZ-7) with no 跑 at all. Its room
options are its own dataclass, :class:`ToyOptions` (郑州's without ``pao_max`` and
``kong_pao``); its rule ids are ``TOY-…``:

* TOY-1: 郑州's rules (ZZ-1..ZZ-7) as they stand, but no seat has 跑: ZZ-4 and ZZ-5 are
  counted with 跑 0 (C-15 refuses a 跑 above 0);
* TOY-2: the options the toy keeps are 郑州's, under 郑州's names.

So every answer of the toy equals 郑州's answer to the same request with ``pao_max`` 0
(and ``kong_pao`` off, which then changes nothing): :mod:`tests.test_toy_variant` holds the
two equal on random hands, fuzzes the API with it, opens the calculator on it and keeps a
ledger table of it.

:func:`registered` puts the toy where the app looks a rule set up, for the duration of a
test (the fixture ``toy`` of tests/test_toy_variant.py), and takes it away again, in one step:
``webcalc.variants.VARIANTS[NAME] = VARIANT`` (through the test's monkeypatch, so undone).
Nothing else is patched and no shared file is edited: everything reads the registry when it
is used (the engine's ``analyze``, the API's ``/api/v1/variants``, the ledger's table check,
the pages' menus, option specs, settlement fields and win methods, the variant names, the
warm-up's sample hands, the rules pages), and the toy carries its own words
(:attr:`Toy.texts`: its label and its message, in English and Chinese), which the catalogue
finds through the registry.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, ClassVar

import pytest

from webcalc.messages import Message
from webcalc.options import opt
from webcalc.variants import VARIANTS
from webcalc.variants.zhengzhou import Zhengzhou

NAME = "toy"
#: the toy's own words: code → (English, Chinese) (:attr:`webcalc.variants.Variant.texts`)
TEXTS = {"variant.toy": ("Toy (no pao)", "无跑郑州"),
         "toy.no_pao": ("{variant} has no pao (TOY-1).", "{variant}不下跑（TOY-1）。")}


def _same(option: str, rule: str, *also: str) -> dict[Any, Any]:
    """郑州's option ``option`` under its own label and help (TOY-2), cited as ``rule``."""
    return opt(Message(f"opt.zhengzhou.{option}"), Message(f"opt.zhengzhou.{option}.help"),
               rule, also=("TOY-2", *also))


@dataclass(frozen=True)
class ToyOptions:
    """Room options of the toy: 郑州's without ``pao_max`` and ``kong_pao`` (TOY-1)."""

    wildcard: bool = field(default=True, metadata=_same("wildcard", "ZZ-1", "C-2", "C-7",
                                                        "ZZ-3"))
    draw_settles_kongs: bool = field(default=True, metadata=_same(
        "draw_settles_kongs", "ZZ-5", "C-10"))
    seven_pairs_double: bool = field(default=False, metadata=_same("seven_pairs_double", "ZZ-4"))
    kong_bloom_double: bool = field(default=False, metadata=_same(
        "kong_bloom_double", "ZZ-4", "C-14"))
    four_wildcards_double: bool = field(default=False, metadata=_same(
        "four_wildcards_double", "ZZ-4"))
    dealer_plus_base: bool = field(default=False, metadata=_same(
        "dealer_plus_base", "ZZ-4", "ZZ-5"))
    #: what 郑州's code reads of its 跑 options, fixed (TOY-1): not room options (no field)
    pao_max: ClassVar[int] = 0
    kong_pao: ClassVar[bool] = False


class Toy(Zhengzhou):
    """郑州 without 跑 (TOY-1): everything else is :class:`Zhengzhou`'s."""

    name = NAME
    label = Message("variant.toy")
    seed = ""
    sample_hand = dict(Zhengzhou.sample_hand)
    Options = ToyOptions
    texts = TEXTS
    #: no rules pages of its own (TOY-… are its docstring's; 郑州's pages stay 郑州's)
    rules = ()
    rule_prefix = "TOY"

    def pao_max(self, opts: Any) -> tuple[int, str | Message]:
        """TOY-1: no 跑, and the message saying why."""
        return 0, Message("toy.no_pao", {"variant": self.label}, "TOY-1")


VARIANT = Toy()


def parent_options(options: dict[str, Any] | None) -> dict[str, Any]:
    """The 郑州 room options that answer as the toy does under ``options`` (TOY-1)."""
    return {**(options or {}), "pao_max": 0, "kong_pao": False}


@contextlib.contextmanager
def registered(mp: pytest.MonkeyPatch) -> Iterator[Toy]:
    """The toy registered through ``mp`` (undone when ``mp`` is): the one step."""
    assert NAME not in VARIANTS
    mp.setitem(VARIANTS, NAME, VARIANT)
    yield VARIANT
