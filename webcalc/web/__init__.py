"""The web layer: Flask only. Pages (HTML + htmx fragments) and the JSON API.

It turns requests into the engine's request dict, calls :func:`webcalc.analysis.analyze`
and renders the answer. It never decides a rule.
"""
