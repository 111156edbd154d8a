"""The analysis form: a GET form whose URL is the shareable state (no session, no CSRF)."""

from __future__ import annotations

from flask_wtf import FlaskForm
from wtforms import SelectChoice, SelectField, StringField
from wtforms.fields.core import UnboundField
from wtforms.validators import Length, Optional

from ..analysis import VARIANT_LABELS
from ..errors import InputError
from .i18n import gettext as _
from .i18n import lazy_gettext as _l

#: The form fields that map one-to-one to request keys of the engine (and so to
#: ``InputError.field``).
TEXT_FIELDS = ("hand", "melds", "indicator", "visible", "winning_tile", "history")


class _VariantName:
    """A rule set's name in the language of the page that shows it, looked up when shown
    (the select drawn by ``templating.select_input``, which escapes its ``str``). Most pages
    never draw it (the toolbar is spliced: ``templating.toolbar_line``), and naming the four
    rule sets was 11-17 µs of a form's 100-150 (timeit in a request context, load 6,
    2026-12-07; 5-6 µs now, the choices made without their names). No cache: the name is looked up each
    time it is shown, in the language of the request showing it."""

    __slots__ = ("name", "label")

    def __init__(self, name: str, label) -> None:
        self.name, self.label = name, label

    def __str__(self) -> str:
        from .templating import VARIANT_NAMES

        return str(VARIANT_NAMES.get(self.name, self.label))


def _too_long(n: int) -> Length:
    return Length(max=n, message=_l("Too long: at most %(n)s characters.", n=n))


class AnalyzeForm(FlaskForm):
    """Fields named like the API request keys, bound to ``request.args``."""

    class Meta:
        csrf = False  # a GET form: nothing changes on the server

    variant = SelectField(_l("Variant"), choices=[],
                          invalid_choice_message=_l("No such variant: pick one from the list."))
    hand = StringField(_l("Hand"), validators=[Optional(), _too_long(200)])
    melds = StringField(_l("Melds (chow, pong, kong)"), validators=[Optional(), _too_long(200)])
    indicator = StringField(_l("Indicator (the tile turned up)"),
                            validators=[Optional(), _too_long(20)])
    visible = StringField(_l("Seen tiles (discarded, shown by others)"),
                          validators=[Optional(), _too_long(800)])
    winning_tile = StringField(_l("Winning tile (the last one in)"),
                               validators=[Optional(), _too_long(20)])
    #: the winner's last turns as 摸/打 pairs (``7z7z 1m2m``, webcalc.web.turns), only where
    #: the variant takes a history (its 表 counts the winner's turns); elsewhere the page
    #: drops it
    history = StringField(_l("The winner's last turns (摸/打)"),
                          validators=[Optional(), _too_long(400)])
    #: choices are the chosen variant's win methods (:meth:`set_variant`); a value the variant
    #: does not allow is passed on, so the engine's error cites the rule (C-14).
    win_by = SelectField(_l("Win by"), choices=[], validate_choice=False, default="self_draw")

    def __init__(self, formdata, **kwargs):
        # the fields' defaults given as the form's data: WTForms otherwise calls each field's
        # ``default`` and catches the TypeError of one that is not callable, eight a form
        # (106 → 78 µs a form, −26 %: bench/RESULTS.md "Issue 38, round 6: the request path")
        super().__init__(formdata=formdata, data=_DEFAULTS, **kwargs)
        self.variant.choices = [SelectChoice(name, _VariantName(name, label))
                                for name, label in VARIANT_LABELS.items()]
        if not self.variant.data:
            self.variant.data = next(iter(VARIANT_LABELS))

    def set_variant(self, methods: list[tuple[str, str]], stale: bool = False) -> None:
        """Offer only ``methods`` (``(value, 中文)``); after a variant switch (``stale``) a
        method the new variant lacks falls back to 自摸."""
        from .templating import WIN_BY_LABELS

        allowed = [m for m, _label in methods]
        if not self.win_by.data:
            self.win_by.data = "self_draw"
        if self.win_by.data not in allowed and stale:
            self.win_by.data = "self_draw"
        choices = [SelectChoice(m, WIN_BY_LABELS.get(m, label)) for m, label in methods]
        if self.win_by.data not in allowed:
            label = WIN_BY_LABELS.get(self.win_by.data, self.win_by.data)
            choices.append(SelectChoice(self.win_by.data,
                                        _("%(label)s (not allowed here)", label=label)))
        self.win_by.choices = choices

    @property
    def submitted(self) -> bool:
        """A hand was typed: something to analyse."""
        return bool((self.hand.data or "").strip())

    def to_request(self) -> dict:
        """The engine's request dict (API.md); empty fields are left out.

        Raises:
            webcalc.errors.InputError: from the melds text (``field="melds"``).

        The texts go to the engine as typed (it skips spaces itself), so an error's position
        counts the characters the player typed, leading spaces included; only trailing spaces
        go (they hold no position, and would count against the engine's length caps).
        """
        from ..notation import melds_from_text

        req: dict = {"variant": self.variant.data, "hand": (self.hand.data or "").rstrip()}
        melds = (self.melds.data or "").rstrip()
        if melds.strip():
            req["melds"] = melds_from_text(melds)
        for name in ("indicator", "visible", "winning_tile"):
            value = (getattr(self, name).data or "").rstrip()
            if value.strip():
                req[name] = value
        req["win_by"] = self.win_by.data or "self_draw"
        history = (self.history.data or "").strip()
        if history:
            from .turns import history_request

            req["history"] = history_request(history)
        return req


#: each field's data before the request's (its ``default``)
_DEFAULTS = {name: field.kwargs.get("default") for name, field in vars(AnalyzeForm).items()
             if isinstance(field, UnboundField)}


def field_of(err: InputError) -> str | None:
    """The form field an engine error belongs to (``"melds"`` for ``"melds.0.tiles"``)."""
    top = (err.field or "").split(".")[0]
    if top in ("variant", "win_by") or top in TEXT_FIELDS:
        return top
    return None


def attach_error(form: AnalyzeForm, err: InputError) -> bool:
    """Put ``err`` under its form field; False when it names none."""
    name = field_of(err)
    if name:
        field = getattr(form, name)
        field.errors = list(field.errors or []) + [err.message]
        field.error_position = err.position
        field.error_turn = err.turn         # a history's turn (the page marks its chip)
        return True
    return False
