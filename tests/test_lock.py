"""constraints.txt pins every dependency the project declares: deployment and CI
install exactly the versions that were tested. After changing pyproject.toml: `make lock`."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent


def pins() -> dict[str, str]:
    out = {}
    for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            m = re.fullmatch(r"([A-Za-z0-9_.\-]+)==(\S+)", line)
            assert m, f"constraints.txt: not an exact pin: {line!r}"
            out[canonicalize_name(m.group(1))] = m.group(2)
    return out


def test_every_declared_dependency_is_pinned_within_its_range():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    declared = list(project["dependencies"])
    for extra in project.get("optional-dependencies", {}).values():
        declared += extra
    locked = pins()
    for spec in declared:
        req = Requirement(spec)
        name = canonicalize_name(req.name)
        assert name in locked, f"{req.name} is not in constraints.txt: run `make lock`"
        assert req.specifier.contains(locked[name], prereleases=True), (
            f"constraints.txt pins {req.name}=={locked[name]}, outside {spec}: run `make lock`")


def test_gunicorn_is_23_or_later():
    major = int(pins()["gunicorn"].split(".")[0])
    assert major >= 23
