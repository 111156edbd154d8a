"""The analysis form: a GET form whose URL is the shareable state (no session, no CSRF)."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import SelectChoice, SelectField, StringField
from wtforms.validators import Length, Optional

from ..analysis import VARIANT_LABELS

#: The form fields that map one-to-one to request keys of the engine (and so to
#: ``InputError.field``).
TEXT_FIELDS = ("hand", "melds", "indicator", "visible", "winning_tile")


def _too_long(n: int) -> Length:
    return Length(max=n, message=f"太长了：最多 {n} 个字符。")


class AnalyzeForm(FlaskForm):
    """Fields named like the API request keys, bound to ``request.args``."""

    class Meta:
        csrf = False  # a GET form: nothing changes on the server

    variant = SelectField("玩法", choices=[], invalid_choice_message="没有这个玩法：请从列表中选择。")
    hand = StringField("手牌", validators=[Optional(), _too_long(200)])
    melds = StringField("副露（吃碰杠）", validators=[Optional(), _too_long(200)])
    indicator = StringField("混皮（翻出的明牌）", validators=[Optional(), _too_long(20)])
    visible = StringField("已见的牌（打出的、别人亮出的）", validators=[Optional(), _too_long(800)])
    winning_tile = StringField("和牌张（最后来的那张）", validators=[Optional(), _too_long(20)])
    #: choices are the chosen variant's win methods (:meth:`set_variant`); a value the variant
    #: does not allow is passed on, so the engine's error cites the rule (C-14).
    win_by = SelectField("胡法", choices=[], validate_choice=False, default="self_draw")

    def __init__(self, formdata, **kwargs):
        super().__init__(formdata=formdata, **kwargs)
        self.variant.choices = [SelectChoice(name, label) for name, label in VARIANT_LABELS.items()]
        if not self.variant.data:
            self.variant.data = next(iter(VARIANT_LABELS))

    def set_variant(self, methods: list[tuple[str, str]], stale: bool = False) -> None:
        """Offer only ``methods`` (``(value, 中文)``); after a variant switch (``stale``) a
        method the new variant lacks falls back to 自摸."""
        from ..variants.base import WIN_METHOD_CHINESE

        allowed = [m for m, _ in methods]
        if not self.win_by.data:
            self.win_by.data = "self_draw"
        if self.win_by.data not in allowed and stale:
            self.win_by.data = "self_draw"
        choices = [SelectChoice(m, label) for m, label in methods]
        if self.win_by.data not in allowed:
            label = WIN_METHOD_CHINESE.get(self.win_by.data, self.win_by.data)
            choices.append(SelectChoice(self.win_by.data, f"{label}（此玩法不允许）"))
        self.win_by.choices = choices

    @property
    def submitted(self) -> bool:
        """A hand was typed: something to analyse."""
        return bool((self.hand.data or "").strip())

    def to_request(self) -> dict:
        """The engine's request dict (API.md); empty fields are left out.

        Raises:
            webcalc.errors.InputError: from the melds text (``field="melds"``).
        """
        from ..notation import melds_from_text

        req: dict = {"variant": self.variant.data, "hand": self.hand.data.strip()}
        melds = (self.melds.data or "").strip()
        if melds:
            req["melds"] = melds_from_text(melds)
        for name in ("indicator", "visible", "winning_tile"):
            value = (getattr(self, name).data or "").strip()
            if value:
                req[name] = value
        req["win_by"] = self.win_by.data or "self_draw"
        return req
