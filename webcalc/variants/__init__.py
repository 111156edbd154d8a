"""The rule sets, one module each. ``VARIANTS`` maps the API name to its variant: the one
registry. Everything else reads it when it is used (the engine, the API, the pages, the
ledger, the catalogue's texts of a rule set, the rules pages), so registering a rule set is
one step: :func:`register` (or ``VARIANTS[v.name] = v``)."""

from collections.abc import Iterator, Mapping

from .. import messages
from .base import Judgement, Situation, Variant
from .jincheng import VARIANT as JINCHENG
from .panjin import VARIANT as PANJIN
from .sanmenxia import VARIANT as SANMENXIA
from .zhengzhou import VARIANT as ZHENGZHOU

VARIANTS: dict[str, Variant] = {v.name: v for v in (SANMENXIA, ZHENGZHOU, PANJIN, JINCHENG)}


def register(variant: Variant) -> Variant:
    """Add ``variant`` to :data:`VARIANTS` (after the others: menus list it last)."""
    if variant.name in VARIANTS:
        raise ValueError(f"a rule set named {variant.name!r} is registered already")
    VARIANTS[variant.name] = variant
    return variant


def owned_text(code: str) -> tuple[str, str] | None:
    """``(English, Chinese)`` of ``code`` where a registered rule set owns it (its
    ``texts``), else None: the catalogue's look-up of the codes it does not hold."""
    for v in VARIANTS.values():
        text = v.texts.get(code)
        if text is not None:
            return text
    return None


messages.own_texts(owned_text)


class _FanMultipliers(Mapping[str, int]):
    """What each 番 key multiplies by where it is not ×2 (盘锦 PJ-10: 群鸡 ×4), over every
    registered variant, read when asked."""

    def _now(self) -> dict[str, int]:
        return {k: m for v in VARIANTS.values() for k, m in v.fan_multipliers.items()}

    def __getitem__(self, key: str) -> int:
        return self._now()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._now())

    def __len__(self) -> int:
        return len(self._now())


FAN_MULTIPLIERS: Mapping[str, int] = _FanMultipliers()

#: the rule set a form starts on when none is chosen (a new table, a circle's next table)
DEFAULT_VARIANT = ZHENGZHOU.name
#: the hand the pages show as an example (a 郑州 hand with indicator 西, ready on 北, whose
#: text the page's hint describes)
EXAMPLE_REQUEST = {"variant": ZHENGZHOU.name, "hand": "123m456p789s1134z", "indicator": "3z"}

__all__ = ["DEFAULT_VARIANT", "EXAMPLE_REQUEST", "FAN_MULTIPLIERS", "VARIANTS", "Judgement",
           "Situation", "Variant", "register"]
