"""The four rule sets, one module each. ``VARIANTS`` maps the API name to its variant."""

from .base import Judgement, Situation, Variant
from .jincheng import VARIANT as JINCHENG
from .panjin import VARIANT as PANJIN
from .sanmenxia import VARIANT as SANMENXIA
from .zhengzhou import VARIANT as ZHENGZHOU

VARIANTS: dict[str, Variant] = {v.name: v for v in (SANMENXIA, ZHENGZHOU, PANJIN, JINCHENG)}

__all__ = ["VARIANTS", "Judgement", "Situation", "Variant"]
