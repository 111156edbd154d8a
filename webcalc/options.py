"""Room options: one frozen dataclass per variant, built from API/form input in one place.

Each option field carries metadata used by the page and the docs::

    field(default=..., metadata=opt("带风", "with honors: 136 tiles; off: 108", rule="C-1"))

:func:`parse_options` turns a JSON-like mapping into the variant's dataclass, rejecting
unknown keys and values of the wrong type with :class:`~webcalc.errors.InputError`
``bad_option``.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Mapping, TypeVar

from .errors import InputError

T = TypeVar("T")


def opt(label: str, help: str, rule: str = "", choices: tuple[tuple[str, str], ...] = (),
        minimum: int | None = None, maximum: int | None = None) -> dict:
    """Metadata of one option: Chinese ``label``, one-line Chinese ``help``, the RULES id,
    for enum options the ``choices`` as ``(value, Chinese label)`` pairs, for ints a range."""
    return {"label": label, "help": help, "rule": rule, "choices": choices,
            "minimum": minimum, "maximum": maximum}


def option_specs(cls: type) -> list[dict]:
    """Describe the options of ``cls``: ``[{"name", "type", "default", "label", "help",
    "rule", "choices", "minimum", "maximum"}]`` in declaration order. ``type`` is
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
        InputError: ``bad_option`` for a non-object, an unknown key, or a value of the
            wrong type or out of range; ``field`` is ``"options.<key>"``.
    """
    if raw is None:
        return cls()
    if not isinstance(raw, Mapping):
        raise InputError("bad_option", "选项（options）必须是一个对象。", "options")
    specs = {s["name"]: s for s in option_specs(cls)}
    values: dict[str, Any] = {}
    for key, value in raw.items():
        spec = specs.get(key)
        if spec is None:
            known = "、".join(specs)
            raise InputError("bad_option", f"未知选项 “{key}”。此玩法的选项有：{known}。",
                             f"options.{key}")
        values[key] = _coerce(spec, value)
    return cls(**values)


def _coerce(spec: dict, value: Any) -> Any:
    name, label = spec["name"], spec["label"]
    field = f"options.{name}"
    if spec["type"] == "bool":
        if isinstance(value, bool):
            return value
        raise InputError("bad_option", f"选项“{label}”应为 true 或 false。", field)
    if spec["type"] == "choice":
        allowed = [c[0] for c in spec["choices"]]
        if isinstance(value, str) and value in allowed:
            return value
        raise InputError("bad_option", f"选项“{label}”只能是："
                         f"{'、'.join(c[1] for c in spec['choices'])}。", field)
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError("bad_option", f"选项“{label}”应为整数。", field)
    lo, hi = spec.get("minimum"), spec.get("maximum")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise InputError("bad_option",
                         f"选项“{label}”应在 {lo} 到 {hi} 之间。", field)
    return value
