"""记入 and corrections (``POST /t/<edit>/hands``, ``/hands/<n>``) and the 荒庄 confirm
(``/draw``): what the entry's result shows, recorded; the page again with the error under its
input, the conflict, or the new result when the posted fields are not what the page showed.
"""

from __future__ import annotations

from typing import Any

from flask import abort, make_response, redirect, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.datastructures import MultiDict

from ..errors import InputError
from ..ledger import BadKey, Conflict, IdempotencyConflict, LedgerError, Recorded, is_free, table_in
from . import ledger_free
from .htmx import add_vary
from .i18n import current_lang, lang_param
from .ledger_entry import CONTROL_KEYS, DECLARED_FIELDS, TILE_KEYS
from .ledger_home import TableHome
from .ledger_load import STATUS, error_text, key_refused_text, ledger, load_table
from .ledger_table import edit_only, not_editable, table_page
from .room_page import analyse, read_room_state


# POST /t/<token>/hands
def record(token: str):
    return _save(token, None)


# POST /t/<token>/hands/<int:number>
def correct(token: str, number: int):
    return _save(token, number)


def _posted_room(t: dict, token: str, correcting: dict | None, renumber: bool = False,
                 fresh_key: bool = False, dealer: int | None = None):
    """The entry's room from the posted form, as the GET of the same fields reads it (the
    record's own fields taken out; 荒庄 in one tap: no tiles, nobody won). ``renumber``: the
    entry is for the next hand now (after a conflict was shown, 记入 records it as that).
    ``fresh_key``: under a new idempotency key, not the one posted. ``dealer``: this one,
    not the table's."""
    data = MultiDict(request.form)
    for k in CONTROL_KEYS + (("number",) if renumber else ()):
        data.poplist(k)
    if "form_variant" not in data:          # posted by the form: an unticked box is off
        data["form_variant"] = t["variant"]
    if request.values.get("draw"):
        for k in TILE_KEYS + tuple(f"d_{n}" for n in DECLARED_FIELDS):
            data.poplist(k)
        data.setlist("s_winner", ["none"])
    key = None if fresh_key else request.values.get("idempotency_key")
    home = TableHome(t, token, correcting, key=key, dealer=dealer)
    st = read_room_state(home, data)
    analyse(st)
    return st


def _save(token: str, number: int | None):
    """记入 (``number`` None) or a correction: what the entry's result shows, recorded."""
    t = load_table(token)
    if t["access"] != "edit":
        return not_editable(token, t)
    if is_free(t["variant"]):               # four amounts, not a room
        done = ledger_free.save(token, t, number, ledger=ledger(), page=table_page,
                                load=load_table, status=lambda e: STATUS.get(type(e), 400))
        if not isinstance(done, Recorded):  # the page again: an error, a conflict
            return done
        return _recorded(token, number, done, lambda fresh: {
            "free_entry": ledger_free.posted(fresh, token, None, fresh_key=True)})
    correcting = None
    if number is not None:
        correcting = next((x for x in t["hands"] if x["number"] == number), None)
        if correcting is None:
            abort(404)
    st = _posted_room(t, token, correcting)
    home = st.home
    if "remove_kong" in request.form:       # a kong row taken out: show the form again
        return table_page(token, t, st=st, status=200)
    shown = request.values.get("shown")
    if shown and not request.values.get("draw") and shown != st.fingerprint:
        home.general = _("What you entered changed after the result was shown, so nothing was "
                         "recorded: the result is now worked out from it. Check it, then press "
                         "the button again.")
        return table_page(token, t, st=st, status=409)
    try:
        body = home.body(st)
        if number is None:
            rec = _record(token, home, body)
        else:
            body["expected_revision"] = request.values.get("expected_revision", type=int)
            rec = ledger().correct(token, number, body)
    except InputError as err:
        home.attach_record_error(st, err)
        return table_page(token, t, st=st, status=422)
    except Conflict as err:
        fresh = table_in(err.table, current_lang()) if err.table else load_table(token)
        again = None if correcting is None else next(
            (h for h in fresh["hands"] if h["number"] == correcting["number"]), None)
        st = _posted_room(fresh, token, again, renumber=True)
        hand = request.values.get("expected_number", type=int)
        return table_page(token, fresh, st=st, status=409, conflict=error_text(err),
                          conflict_hand=hand)
    except (IdempotencyConflict, BadKey) as err:
        # the key recorded another entry (a page kept from before it) or is unusable: this
        # entry is offered again, as the next one, under a key of its own (docs/LEDGER.md
        # "Idempotency keys")
        fresh = load_table(token)
        st = _posted_room(fresh, token, correcting, renumber=True, fresh_key=True)
        return table_page(token, fresh, st=st, status=STATUS[type(err)],
                          message=key_refused_text(err))
    except LedgerError as err:
        return table_page(token, load_table(token), st=st, status=STATUS.get(type(err), 400),
                          message=error_text(err))
    return _recorded(token, number, rec, lambda fresh: {
        "st": _posted_room(fresh, token, None, renumber=True, fresh_key=True)})


def _recorded(token: str, number: int | None, rec: Recorded, offered) -> Any:
    """The answer to a record or correction the ledger took: 303 to the table page
    (:func:`done_url`), the same for a room's entry and a free table's. A record whose key
    had recorded its entry before (``created`` False) says so (``again``); when that entry
    was undone (or voided) since (the back button after 撤销), nothing is recorded and the
    page says so, 409, the entry offered again as the next one under a key of its own
    (``offered(fresh table)``: the page's arguments for it), else the page said "recorded
    already" of a hand counted nowhere."""
    if number is None and not rec.created and rec.hand["status"] != "recorded":
        fresh = load_table(token)
        n = rec.hand.get("hand_no") or rec.hand["number"]
        if rec.hand.get("void_code") == "undone":
            said = _("This entry was recorded already, as hand %(n)s, and was undone: nothing "
                     "was recorded. Press the button again to record it as a new hand.", n=n)
        else:
            said = _("This entry was recorded already, as hand %(n)s, and was voided: nothing "
                     "was recorded. Press the button again to record it as a new hand.", n=n)
        return table_page(token, fresh, status=409, message=said, **offered(fresh))
    return redirect(done_url(token, rec, again=number is None and not rec.created), 303)


def done_url(token: str, rec: Recorded, again: bool = False) -> str:
    """The table page after a record: the entry it names (``done``), and ``again=1`` when
    it was recorded before and nothing new was written (its form posted again: a double
    tap, or the back button and 记入 again), which the page says. A free table's page names
    its next entry's key (``ledger_table.table``: its URL always does), so it is not sent
    on once more."""
    return ledger_free.table_url(token, rec.table["variant"], lang=lang_param(),
                                 done=rec.hand["number"], again=1 if again else None) + "#entry"


def _record(token: str, home: TableHome, body: dict):
    """记入 of ``body`` under the entry's idempotency key. A page posted twice (a double tap,
    a resend) is read the second time against the table the first one recorded on: when the
    key recorded entry n and the table's dealer has moved on since, the posted form is read
    again with entry n's dealer, so the same form is the same entry and answers as before;
    any other body under the key stays :class:`IdempotencyConflict` (docs/LEDGER.md
    "Idempotency keys")."""
    expected = request.values.get("expected_number", type=int)
    try:
        return ledger().record(token, {**body, "idempotency_key": home.key,
                                       "expected_number": expected})
    except IdempotencyConflict as err:
        t = load_table(token)
        entry = t["hands"][err.detail - 1] if 0 < err.detail <= len(t["hands"]) else None
        then = None if entry is None else \
            (entry["revisions"][0] if entry["revisions"] else entry)["dealer"]
        if then is None or then == home.dealer:
            raise
        st = _posted_room(t, token, None, dealer=then)
        try:
            again = st.home.body(st)
        except InputError:
            raise err from None
        return ledger().record(token, {**again, "idempotency_key": home.key,
                                       "expected_number": expected})


# POST /t/<token>/draw
def confirm_draw(token: str):
    """荒庄 in one tap and a confirm: the entry's 荒庄 button posts the entry here, and this
    page posts it on to the record (``.record`` with ``draw=1``), nothing written before."""
    t, refused = edit_only(token)
    if refused is not None:
        return refused
    kept = [(k, v) for k, v in request.form.items(multi=True)
            if k not in ("csrf_token", "draw")]
    pao = []
    for i, name in enumerate(t["names"]):
        value = (request.form.get(f"s_pao{i}") or "").strip()
        if value not in ("", "0"):
            pao.append(f"{name} {value}")
    query: dict[str, Any] = request.args.to_dict()
    html = render_template("ledger_draw.html", table=t, token=token, kept=kept, pao=pao,
                           action=url_for(".record", token=token, **query),
                           dealer=t["names"][t["dealer"]])
    return add_vary(make_response(html))
