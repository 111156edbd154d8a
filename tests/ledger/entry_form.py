"""Reading the table page's entry as a browser does, for the tests that post it without one.

The entry is the calculator's GET form (``id="calc-form"``); its 记入 button posts that form
(``formmethod="post"``) with the CSRF token as the button's value and the record's own fields
in its ``formaction``: ``shown`` (the state the result was computed from),
``expected_number`` or ``expected_revision``, and ``idempotency_key``."""

from __future__ import annotations

import html as htmllib
import re
from urllib.parse import parse_qsl, urlsplit

RECORD = re.compile(r'<button type="submit" class="primary record-button" id="record" '
                    r'name="csrf_token" value="([^"]+)" formmethod="post" formaction="([^"]+)"')


def entry_of(html: str) -> str:
    """The entry's form (the calculator's room at the table)."""
    start = html.index('id="calc-form"')
    return html[start:html.index("</form>", start)]


def record_button(html: str) -> tuple[str, str, dict]:
    """``(csrf token, action path, the action's query)`` of the 记入 button."""
    m = RECORD.search(html)
    assert m, "no 记入 button on the page"
    action = htmllib.unescape(m.group(2))
    return m.group(1), urlsplit(action).path, dict(parse_qsl(urlsplit(action).query))


def record_fields(html: str, shown: bool = False) -> dict:
    """What a browser posts besides the room's fields: the CSRF token and the record's own
    fields (``shown`` only when asked: a test posting other fields than the page showed
    leaves it out, as older pages did)."""
    token, _path, query = record_button(html)
    out = {"csrf_token": token, **query}
    if not shown:
        out.pop("shown", None)
    return out


def form_names(html: str) -> set[str]:
    """The names of the entry's inputs (the record button's ``csrf_token`` among them)."""
    return set(re.findall(r'name="([^"]+)"', entry_of(html)))
