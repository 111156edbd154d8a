"""Builds the one compiled part of the engine, webcalc._pjunit (the 盘锦 per-unit search,
issue 13.5). Everything else is in pyproject.toml. The extension is optional: without a C
compiler the install still succeeds and webcalc/shanten.py runs the same search in Python."""

from setuptools import Extension, setup

setup(ext_modules=[Extension("webcalc._pjunit", ["webcalc/_pjunit.c"], optional=True,
                             extra_compile_args=["-O2"])])
