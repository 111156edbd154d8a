"""Room options: one frozen dataclass per variant, built from API/form input in one place.

Each option field carries metadata used by the page and the docs::

    field(default=..., metadata=opt("带风", "with honors: 136 tiles; off: 108", rule="C-1",
                                    also=("<another rule id>",)))

``rule`` is the RULES id the option belongs to; ``also`` every other rule whose outcome or
inputs it changes. ``rules`` (both) is the one list the rules pages read ("options that
change it"), so the link is written once, beside the option (docs/decisions.md).

:func:`parse_options` turns a JSON-like mapping into the variant's dataclass, rejecting
unknown keys and values of the wrong type with :class:`~webcalc.errors.BadOptionError`
(``bad_option``). It is called once per request, where the request is read (``analyze``,
``review``, the forms); the engine's hooks take the typed value, never the raw mapping.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from .errors import BadOptionError
from .messages import Message

if TYPE_CHECKING:
    # a default (PEP 696; typing has it from Python 3.13) for the checker only: a bare
    # ``Variant``, ``Situation`` or ``Table`` in shared code is one of any rule set's
    from typing_extensions import TypeVar

    OptionsT = TypeVar("OptionsT", default=Any)
else:
    from typing import TypeVar

    #: a rule set's room options, the frozen dataclass of its ``Variant.Options``: the
    #: variant (:class:`webcalc.variants.base.Variant`), the hands it judges (``Situation``)
    #: and the tables it settles (:class:`webcalc.settlement.Table`) are generic in it
    OptionsT = TypeVar("OptionsT")

T = TypeVar("T")


def opt(label: Message, help: Message, rule: str = "",
        choices: tuple[tuple[str, Message], ...] = (),
        minimum: int | None = None, maximum: int | None = None,
        also: tuple[str, ...] = ()) -> dict[Any, Any]:
    """Metadata of one option: ``label`` and one-line ``help`` (messages), the RULES id,
    for enum options the ``choices`` as ``(value, label message)`` pairs, for ints a range,
    and ``also`` the other rules it changes (``rules`` = ``(rule, *also)``)."""
    return {"label": label, "help": help, "rule": rule, "rules": (rule, *also),
            "choices": choices, "minimum": minimum, "maximum": maximum}


def option_specs(cls: type) -> list[dict[Any, Any]]:
    """Describe the options of ``cls``: ``[{"name", "type", "default", "label", "help",
    "rule", "rules", "choices", "minimum", "maximum"}]`` in declaration order. ``type`` is
    ``"bool"``, ``"int"`` or ``"choice"``."""
    out = []
    for f in dataclasses.fields(cls):
        meta = dict(f.metadata)
        if meta.get("choices"):
            kind = "choice"
        elif isinstance(f.default, bool):
            kind = "bool"
        else:
            kind = "int"
        out.append({"name": f.name, "type": kind, "default": f.default, **meta})
    return out


def parse_options(cls: type[T], raw: Any) -> T:
    """Build the options dataclass ``cls`` from ``raw`` (a mapping or ``None``).

    Raises:
        BadOptionError: ``bad_option`` for a non-object, an unknown key, or a value of the
            wrong type or out of range; ``field`` is ``"options.<key>"``.
    """
    if raw is None:
        return cls()
    if not isinstance(raw, Mapping):
        raise BadOptionError(Message("option.not_object"), "options")
    specs = {s["name"]: s for s in option_specs(cls)}
    values: dict[str, Any] = {}
    for key, value in raw.items():
        spec = specs.get(key)
        if spec is None:
            raise BadOptionError(Message("option.unknown", key=key, known=list(specs)),
                                 f"options.{key}")
        values[key] = _coerce(spec, value)
    return cls(**values)


def _coerce(spec: dict[Any, Any], value: Any) -> Any:
    name, label = spec["name"], spec["label"]
    field = f"options.{name}"
    if spec["type"] == "bool":
        if isinstance(value, bool):
            return value
        raise BadOptionError(Message("option.not_bool", label=label), field)
    if spec["type"] == "choice":
        allowed = [c[0] for c in spec["choices"]]
        if isinstance(value, str) and value in allowed:
            return value
        raise BadOptionError(Message("option.not_choice", label=label,
                                     choices=[c[1] for c in spec["choices"]]), field)
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadOptionError(Message("option.not_int", label=label), field)
    lo, hi = spec.get("minimum"), spec.get("maximum")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise BadOptionError(Message("option.out_of_range", label=label, lo=lo, hi=hi),
                             field)
    return value
