"""Builds the engine's two compiled parts, webcalc._pjunit (its hot searches in C) and
webcalc._plain (a hand's advice from dense unit tables).
Everything else is in pyproject.toml. Both extensions are optional: without a C compiler the
install still succeeds and the Python twins (webcalc/compiled.py) run the same searches.

The pages: ``templates/`` and ``static/`` stay at the top of the checkout (the project's
layout), and a built wheel carries them inside the package as ``webcalc/templates`` and
``webcalc/static``, where :func:`webcalc.web.app.create_app` looks first (tests/test_wheel.py
builds, installs and serves one). An editable install reads them from the checkout."""

import shutil
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
PAGES = ("templates", "static")


class BuildWithPages(build_py):
    """build_py, then the top-level page folders copied into the built package."""

    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return                      # the checkout's own folders serve an editable install
        for name in PAGES:
            target = Path(self.build_lib) / "webcalc" / name
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(HERE / name, target,
                            ignore=shutil.ignore_patterns("__pycache__", "*.py", "*.pyc"))


# one extension, its sources split by job (webcalc/_pjunit.h lists them); a rule set's own
# search sits next to its variant
PJUNIT_SOURCES = ["webcalc/_pjunit.c", "webcalc/_pjunit_free.c", "webcalc/_pjunit_draws.c",
                  "webcalc/_pjunit_rows.c", "webcalc/_pjunit_jokers.c",
                  "webcalc/_pjunit_listing.c", "webcalc/_pjunit_flags.c",
                  "webcalc/variants/panjin_unit.c", "webcalc/variants/panjin_hand.c",
                  "webcalc/variants/panjin_lower.c", "webcalc/variants/panjin_advice.c",
                  "webcalc/variants/panjin_advice14.c", "webcalc/variants/panjin_merge.c",
                  "webcalc/variants/panjin_bounds.c", "webcalc/variants/panjin_table.c",
                  "webcalc/variants/panjin_table_merge.c"]

setup(ext_modules=[Extension("webcalc._pjunit", PJUNIT_SOURCES,
                             depends=["webcalc/_pjunit.h", "webcalc/_rowkit.h",
                                      "webcalc/variants/panjin_unit.h",
                                      "webcalc/variants/panjin_advice.h",
                                      "webcalc/variants/panjin_table.h"],
                             optional=True, extra_compile_args=["-O2"]),
                   # a plain hand's advice from dense unit tables (webcalc/_plain.h lists
                   # its sources)
                   Extension("webcalc._plain", ["webcalc/_plain.c", "webcalc/_plain_tables.c",
                                                "webcalc/_plain_search.c",
                                                "webcalc/_plain_wild.c"],
                             depends=["webcalc/_plain.h", "webcalc/_rowkit.h"], optional=True,
                             extra_compile_args=["-O2"])],
      cmdclass={"build_py": BuildWithPages})
