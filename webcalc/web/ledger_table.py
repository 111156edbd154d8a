"""The table page (``GET /t/<token>``) and its parts: the page itself with the entry (the
room at the table, :class:`.ledger_home.TableHome`, or a free table's entry), the live region
(``/live``), the entry's outcomes (``/outcomes``), 记入牌桌 with a pasted link (``/send``) and
我的牌桌 (``/mine``).
"""

from __future__ import annotations

import json
import re
import threading
from collections import OrderedDict
from urllib.parse import urlencode

from flask import abort, current_app, make_response, redirect, render_template, request, url_for
from flask_babel import gettext as _
from markupsafe import Markup

from ..ledger import Busy, NotFound, is_free
from ..ledger.checks import KEY_MAX, fresh_key
from . import form_proof, ledger_free
from .htmx import add_vary, wants_fragment
from .i18n import current_lang, lang_param
from .ledger_entry import fixed_key
from .ledger_home import TableHome, home_of
from .ledger_load import ledger, links_of, load_table, page_etag, view_token_of
from .ledger_outcomes import outcomes
from .ledger_view import filename, table_title, view_helpers
from .room_page import analyse, needs_redirect, read_room_state, render_room


# GET /t/<token>
def table(token: str):
    """The table page. With the edit token of a ruled table, its entry is a room read from
    the query (:func:`.ledger_home.home_of`): a URL that is not the room's canonical one
    answers 303 to it, an htmx tap the room alone, else the whole page (:func:`table_page`).
    A free table's edit page answers 303 to its URL with the entry's idempotency key when
    the URL names none (:func:`.ledger_free.url_key`): there is no tap before its 记入 to
    put the key in the URL (as a room's first tap does), and the page the back button draws
    again must be the same entry (docs/LEDGER.md "Idempotency keys")."""
    t = load_table(token)
    if t["access"] != "edit":
        return table_page(token, t)
    if is_free(t["variant"]):
        if ledger_free.url_key(request.args) is None:
            args = request.args.copy()
            args["idempotency_key"] = fresh_key()
            return add_vary(redirect(url_for(".table", token=token) + "?" + urlencode(
                list(args.items(multi=True))), 303))
        return table_page(token, t)
    home = home_of(t, token, request.args)
    st = read_room_state(home, request.args)
    if needs_redirect(st) and not home.notes and home.refused is None:
        return add_vary(redirect(st.canonical, 303))
    analyse(st)
    if wants_fragment(request):
        return render_room(st)
    return table_page(token, t, st=st)

# GET /t/<token>/live
def live(token: str):
    """The live region of the table page in one answer: the totals (``#live-top``) and the
    settle-up, chart and hands (``#live``), so they change together; 304 while the table's
    version is the one the client has. ``?part=top``/``rest`` answers one part (pages loaded
    before the one-poll page asked so)."""
    try:
        version, editor = ledger().probe(token)       # one cheap query for the common 304
    except NotFound:
        abort(404)
    except Busy:
        abort(503)
    etag = page_etag(version, editor)
    part = request.args.get("part")
    if request.if_none_match.contains(etag):
        resp = current_app.response_class(status=304)
    else:
        t = load_table(token)
        etag = page_etag(t, editor)
        edit = t["access"] == "edit"
        html = Markup("")
        if part != "rest":
            html += Markup(render_template(
                "_ledger_live.html", table=t, token=token, edit=edit, etag=etag,
                conflict_hand=None, part="top", **view_helpers(t, token)))
        if part != "top":
            html += live_rest(t, token, edit)
        resp = make_response(html)
    resp.set_etag(etag)
    return add_vary(resp)

# GET /t/<token>/outcomes
def entry_outcomes(token: str):
    """What the next hand records for each outcome without tiles (:func:`outcomes`), the
    entry's other inputs read from the query as the table page reads them: JSON
    ``{"version", "dealer", "outcomes": {"dealer:winner:win_by:discarder": [nets, next
    dealer]}}``. static/js/ledger.js asks once the page has loaded, and shows these for a
    hand queued without a network (docs/decisions.md "What a queued hand will record")."""
    t = load_table(token)
    if t["access"] != "edit":
        abort(403)
    st = read_room_state(TableHome(t, token), request.args)
    if st.room is None:
        abort(422)
    resp = current_app.response_class(
        json.dumps({"version": t["version"], "dealer": t["dealer"],
                    "outcomes": outcomes(t, st.args)}, ensure_ascii=False, separators=(",", ":")),
        mimetype="application/json")
    return resp

#: a table link as pasted: the token after /t/ (or the token alone), ended by anything a
#: token cannot hold, so that the words of the WeChat message it was copied from, or the
#: sentence's "，" or "。", do not hide it
_TOKEN_IN_LINK = re.compile(r"(?:^|/t/)([A-Za-z0-9_-]{16,64})(?![A-Za-z0-9_-])")


def token_of_link(text: str) -> str | None:
    """The token of a pasted table link (``https://host/t/<token>…``) or of a bare token."""
    m = _TOKEN_IN_LINK.search((text or "").strip())
    return m.group(1) if m else None


# GET /t/send
def send():
    """记入牌桌 with a pasted link: the calculator's state (this query, less ``table``) on
    that table's entry (303 to ``/t/<edit>?<state>``), or a page that says why not."""
    state = [(k, v) for k, v in request.args.items(multi=True) if k != "table"]
    pasted = request.args.get("table", "")
    token = token_of_link(pasted)
    status, why = 422, _("Paste the table's edit link (the address of its page, with /t/ in it).")
    if token is not None:
        try:
            access = ledger().access(token)
        except NotFound:
            access = None
        except Busy:
            abort(503)
        if access == "edit":
            return redirect(url_for(".table", token=token) + "?" + urlencode(state), 303)
        if access == "view":
            status, why = 403, _("This is the table's view link: it can follow the table, not "
                                 "record on it. Paste the edit link (the one the scorer keeps).")
        else:
            status, why = 404, _("No table has this link. Check it, or open the table from My "
                                 "tables.")
    back = url_for("pages.index") + ("?" + urlencode(state) if state else "")
    html = render_template("ledger_send.html", why=why, pasted=pasted[:300], state=state,
                           back=back)
    return add_vary(make_response(html, status))

# GET /t/mine
def mine():
    """我的牌桌: the tables this phone opened, listed from its own localStorage by
    static/js/ledger.js (the table pages keep that list); nothing is stored on the server."""
    return add_vary(make_response(render_template("ledger_mine.html")))

# -- the page and its hand list ----------------------------------------------------------------

def adjust_key(entry_key: str) -> str:
    """The adjustment form's idempotency key: the entry's with ``-adj`` (the same page posts
    the same adjustment), its first characters taken so that it is still at most
    :data:`~webcalc.ledger.checks.KEY_MAX` long (the entry's may be 64, named in the URL)."""
    return entry_key[:KEY_MAX - len("-adj")] + "-adj"


def table_page(token: str, t: dict, *, st=None, status: int | None = None,
               conflict: str | None = None, conflict_hand: int | None = None,
               message: str | None = None, free_entry=None, adjust_form=None):
    """The table page: with the edit token, its entry is the room ``st`` (read here from the
    query when not given), or on a table with no rule set the free entry (``free_entry``,
    :mod:`.ledger_free`); with the view token, the same totals and hands without it."""
    edit = t["access"] == "edit"
    view_token = view_token_of(token) if edit else token
    view_url = url_for(".table", token=view_token, _external=True) if view_token else None
    links = links_of(token) if edit else None
    context = dict(
        table=t, token=token, edit=edit, view_url=view_url, page_title=table_title(t),
        edit_url=url_for(".table", token=token, _external=True) if edit else None,
        view_path=url_for(".table", token=view_token) if view_token else "",
        edit_path=url_for(".table", token=token) if edit else None,
        qr_url=url_for(".qr", token=view_token) if view_token else None, links=links,
        # the picture by the view link where known: its address never shows the edit token
        card_url=url_for(".card", token=view_token or token, lang=lang_param()),
        card_file=filename(t, "png"),
        etag=page_etag(t, links["editor"] if links else None), conflict=conflict,
        conflict_hand=conflict_hand, message=message, adjust_form=adjust_form,
        new=bool(request.args.get("new")), rotated=request.args.get("rotated"), done=_done(t),
        again=request.args.get("again") == "1",
        live_rest=None if conflict_hand is not None else live_rest(t, token, edit),
        **view_helpers(t, token))
    context.update(_revoked(context["links"]))
    if not edit:
        return add_vary(make_response(render_template("ledger_table.html", **context),
                                      status or 200))
    if context["free"]:                     # no rule set: four amounts, no room
        free = ledger_free.entry(t, token, free_entry)
        # a correction is titled as one (as the room's is), not as the next hand
        context.update(free_entry=free, adjust_key=adjust_key(free.key),
                       correcting=free.correcting)
        sent = ledger_free.sent_refusal()
        if sent is not None:                # a calculator's hand: not taken, and why
            context.update(entry_refused=sent[0], entry_refused_back=sent[1])
        return add_vary(make_response(render_template("ledger_table.html", **context),
                                      status or 200))
    if st is None:
        st = read_room_state(home_of(t, token, request.args), request.args)
        analyse(st)
    home = st.home
    refused_url = None
    if home.refused is not None:            # the hand's tiles, in the calculator as this variant
        keep = [(k, v) for k, v in request.args.items(multi=True)
                if not fixed_key(k) and k != "form_variant"]
        refused_url = url_for("pages.index") + "?" + urlencode([("variant", t["variant"])] + keep)
    context.update(entry_notes=home.notes, entry_refused=home.refused,
                   entry_refused_url=refused_url, entry_general=home.general,
                   adjust_key=adjust_key(home.key))
    if status is None and home.refused is not None:
        status = 409
    return render_room(st, template="ledger_table.html", status=status, **context)

def _revoked(links: dict | None) -> dict:
    """``?revoked=n`` (``&new_view=1``) after a co-scorer's link was revoked (and the view
    link replaced), for the line that says what they can still read: n only when the
    creator's page lists it revoked."""
    n = request.args.get("revoked", type=int)
    if not links or not any(e["editor"] == n and e.get("revoked_at") for e in links["editors"]):
        return {"revoked": None, "new_view": False}
    return {"revoked": n, "new_view": request.args.get("new_view") == "1"}


def _done(t: dict) -> dict | None:
    """The entry ``?done=n`` names (just recorded or corrected), for the line that says so."""
    n = request.args.get("done", type=int)
    return next((h for h in t["hands"] if h["number"] == n), None) if n else None

def not_editable(token: str, t: dict):
    return table_page(token, t, status=403,
                      message=_("This is the view link: it cannot change the table."))


def edit_only(token: str):
    """The table (edit token), or the answer for the view token (403) or an unknown one."""
    t = load_table(token)
    if t["access"] != "edit":
        return t, table_page(token, t, status=403,
                             message=_("This is the view link: it cannot change the table."))
    return t, None

LIVE_CACHE_MAX = 16
_live_lock = threading.Lock()


def live_rest(table: dict, token: str, edit: bool) -> Markup:
    """The hand list part of the table page (``_ledger_live.html``, part "rest"), rendered
    once per table version, token and language and kept (the last ``LIVE_CACHE_MAX`` per
    worker): a 200-hand table is drawn again only after a write. The void forms' token is
    the table proof of ``token`` (:mod:`webcalc.web.form_proof`), the same for every
    visitor, so it is cached with the list; the key holds the page's ``?lang=`` too, which
    the 撤销 and void forms' actions keep (the answer is then in the page's language), and
    the script root those actions are under (an app reached under /calc and at the root).

    What it buys (``python bench/live_cache.py --samples 30 --seed 37``, 2026-12-06, commit
    79fb094, CPU medians, cache on and off interleaved on fresh tables of 8-40 entries;
    bench/RESULTS.md "The table page's hand-list cache (issue 37)"): one version at a table
    of four (the scorer's page after the write, three phones' ``/live``) 20 % of its CPU
    (16.4 against 20.5 ms), a reload 23 %, a second and third viewer 65-75 %; nothing on a
    version's first render. Within one worker: with several, viewers on other workers miss."""
    key = (token, table["version"], current_lang(), lang_param(), request.script_root, edit)
    cache = current_app.extensions.setdefault("ledger_live_cache", OrderedDict())
    with _live_lock:
        html = cache.get(key)
        if html is not None:
            cache.move_to_end(key)
    if html is None:
        proof = form_proof.table_proof(token)
        html = render_template("_ledger_live.html", table=table, token=token, edit=edit,
                               conflict_hand=None, part="rest",
                               csrf_token=lambda: proof, **view_helpers(table, token))
        with _live_lock:
            cache[key] = html
            while len(cache) > LIVE_CACHE_MAX:
                cache.popitem(last=False)
    return Markup(html)
