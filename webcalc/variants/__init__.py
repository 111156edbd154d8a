"""The four rule sets, one module each. ``VARIANTS`` maps the API name to its variant."""

from .base import Judgement, Situation, Variant
from .jincheng import VARIANT as JINCHENG
from .panjin import VARIANT as PANJIN
from .sanmenxia import VARIANT as SANMENXIA
from .zhengzhou import VARIANT as ZHENGZHOU

VARIANTS: dict[str, Variant] = {v.name: v for v in (SANMENXIA, ZHENGZHOU, PANJIN, JINCHENG)}
#: what each 番 key multiplies by where it is not ×2 (盘锦 PJ-10: 群鸡 ×4), over every variant
FAN_MULTIPLIERS: dict[str, int] = {k: m for v in VARIANTS.values()
                                   for k, m in v.fan_multipliers.items()}

#: the rule set a form starts on when none is chosen (a new table, a circle's next table)
DEFAULT_VARIANT = ZHENGZHOU.name
#: the hand the pages show as an example (a 郑州 hand with indicator 西, ready on 北, whose
#: text the page's hint describes)
EXAMPLE_REQUEST = {"variant": ZHENGZHOU.name, "hand": "123m456p789s1134z", "indicator": "3z"}

__all__ = ["DEFAULT_VARIANT", "EXAMPLE_REQUEST", "FAN_MULTIPLIERS", "VARIANTS", "Judgement",
           "Situation", "Variant"]
