"""Each rule set's room options are one typed value (issue 37.3): a frozen dataclass with an
exact type and a default per field, the type the variant's hooks take (``Variant[Options]``),
built once from the request by ``parse_options``."""

from __future__ import annotations

import dataclasses
import typing

import pytest

from webcalc.errors import BadOptionError
from webcalc.options import option_specs, parse_options
from webcalc.variants import VARIANTS
from webcalc.variants.base import Variant

KINDS = {"bool": bool, "int": int, "choice": str}


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_options_are_a_frozen_dataclass_of_exact_types(name):
    variant = VARIANTS[name]
    cls = variant.Options
    assert dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen
    hints = typing.get_type_hints(cls)
    for spec in option_specs(cls):
        # the annotation is the option's one type, and its default is of that type
        assert hints[spec["name"]] is KINDS[spec["type"]], spec["name"]
        assert type(spec["default"]) is KINDS[spec["type"]], spec["name"]
        if spec["type"] == "choice":
            assert spec["default"] in [value for value, _label in spec["choices"]]
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(cls(), option_specs(cls)[0]["name"], None)


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_the_variant_is_generic_in_its_own_options(name):
    variant = VARIANTS[name]
    bases = [b for b in type(variant).__orig_bases__ if typing.get_origin(b) is Variant]
    assert [typing.get_args(b) for b in bases] == [(variant.Options,)]


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_parse_options_builds_the_typed_value(name):
    cls = VARIANTS[name].Options
    assert parse_options(cls, None) == cls() == parse_options(cls, {})
    spec = option_specs(cls)[0]
    flipped = {"bool": lambda d: not d, "int": lambda d: d + 1,
               "choice": lambda d: next(v for v, _ in spec["choices"] if v != d)}
    value = flipped[spec["type"]](spec["default"])
    built = parse_options(cls, {spec["name"]: value})
    assert type(built) is cls and getattr(built, spec["name"]) == value
    wrong = "x" if spec["type"] != "choice" else 1
    with pytest.raises(BadOptionError) as info:
        parse_options(cls, {spec["name"]: wrong})
    assert info.value.field == f"options.{spec['name']}"
