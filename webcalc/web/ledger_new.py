"""新开一桌 (``GET/POST /t/new``) and import (``POST /t/import``): the two forms and their
pages.
"""

from __future__ import annotations

import json
import re

from flask import make_response, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from werkzeug.datastructures import MultiDict
from wtforms import FileField, SelectChoice, SelectField, StringField, TextAreaField
from wtforms.validators import Length, Optional, ValidationError

from ..analysis import VARIANT_LABELS
from ..errors import InputError
from ..json_checks import reject_constant
from ..ledger import FREE, LedgerError, is_free
from ..ledger.checks import NAME_MAX, table_base
from ..messages import seat
from ..variants import DEFAULT_VARIANT
from .htmx import add_vary
from .i18n import VARIANT_NAMES, lang_param, localized
from .ledger_free import table_url
from .ledger_load import STATUS, error_text, ledger
from .room_url import read_room
from .security import IMPORT_MAX

# -- forms ------------------------------------------------------------------------------------

class NewTableForm(FlaskForm):
    """新开一桌 (the room options come from ``_options.html``, read by :func:`read_room`)."""

    class Meta:
        csrf = False    # the blueprint's hook checks the form (ledger_pages._prove)

    variant = SelectField(_l("Variant"), choices=[])
    base = StringField(_l("Base points"), default="1", validators=[Length(max=20, message=_l(
        "Base points should be a positive number, such as 1, 100 or 0.5."))])
    n0 = StringField(_l("East seat"))          # checked by _seat_names
    n1 = StringField(_l("South seat"))          # checked by _seat_names
    n2 = StringField(_l("West seat"))          # checked by _seat_names
    n3 = StringField(_l("North seat"))          # checked by _seat_names
    dealer = SelectField(_l("First dealer"), choices=[], default="0")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        from .templating import SEAT_LABELS, VARIANT_NAMES

        self.variant.choices = [SelectChoice(n, VARIANT_NAMES.get(n, label))
                                for n, label in VARIANT_LABELS.items()]
        # a table with no rule set: four amounts a hand (any four-player game)
        self.variant.choices.append(SelectChoice(FREE, VARIANT_NAMES[FREE]))
        #: the rule set sent when it is none this app knows (a stale or hand-made form); the
        #: select then shows the default: a GET's ``?variant=`` only prefills the form, and
        #: :meth:`validate_variant` refuses it (only a POST is validated)
        self.unknown_variant: str | None = None
        if self.variant.data not in VARIANT_LABELS and not is_free(self.variant.data):
            if self.variant.raw_data:
                self.unknown_variant = self.variant.raw_data[0]
            self.variant.data = DEFAULT_VARIANT
        self.dealer.choices = [SelectChoice(str(i), SEAT_LABELS[i]) for i in range(4)]

    def validate_variant(self, field) -> None:
        """Never silently another rule set (the default): the table would count by rules
        not asked for. A GET's prefill of it stays (it creates nothing, the select shows
        it); :func:`new_table` validates only a POST."""
        if self.unknown_variant is not None:
            raise ValidationError(_('No such variant "%(name)s": pick one from the list.',
                                    name=self.unknown_variant))


class ImportForm(FlaskForm):
    class Meta:
        csrf = False    # the blueprint's hook checks the form (ledger_pages._prove)

    file = FileField(_l("Exported JSON file"))
    text = TextAreaField(_l("…or paste the JSON"), validators=[Optional()])


# -- new table --------------------------------------------------------------------------------

# GET/POST /t/new
def new_table():
    data = request.form if request.method == "POST" else request.args
    form = NewTableForm(formdata=data if data else None)
    variant = form.variant.data
    free = is_free(variant)
    room = None if free else read_room(data, variant)
    status = 200
    general = None
    # every field is checked, each error under its own input (not only the first one found)
    valid = request.method == "POST" and form.validate()
    names = _seat_names(form) if request.method == "POST" else None
    if valid:
        spec = {"variant": variant, "options": None if room is None else room.options_request(),
                "names": names, "dealer": int(form.dealer.data)}
        if not free:                        # no rule set: no base, no options
            base = _read_base(form)
            if base is not None:
                spec["base"] = base
        if names is not None and not form.base.errors and not (
                room is not None and any(o.error for o in room.options)):
            try:
                made = ledger().create_table(spec, address=request.remote_addr)
                return redirect(table_url(made.edit_token, spec["variant"], lang=lang_param(),
                                          new=1), 303)
            except InputError as err:
                field = (err.field or "").split(".")[0]
                if field == "base":
                    form.base.errors = [localized(err.message)]
                elif field == "names":
                    form.n0.errors = [localized(err.message)]
                elif room is None or not room.attach(err.field, localized(err.message)):
                    general = localized(err.message)
            except LedgerError as err:
                general = error_text(err)
                status = STATUS.get(type(err), 400)
        status = status if status != 200 else 422
    elif request.method == "POST":
        if not free and not form.base.errors:   # its error beside the others' (names, options)
            _read_base(form)
        status = 422
    html = render_template("ledger_new.html", form=form, room=room, general=general,
                           import_form=ImportForm(formdata=None),
                           free=free, variant_label=VARIANT_NAMES.get(variant, variant))
    return add_vary(make_response(html, status))


def _read_base(form: NewTableForm) -> int | float | None:
    """The 底分 typed, as the ledger will take it (:func:`webcalc.ledger.checks.table_base`:
    its bounds), or None with the error under the box."""
    base = (form.base.data or "1").strip()
    try:
        return table_base(int(base) if re.fullmatch(r"\d{1,12}", base) else float(base))
    except InputError as err:               # a number out of the ledger's range
        form.base.errors = [localized(err.message)]
    except ValueError:                      # no number at all
        form.base.errors = [_("Base points should be a positive number, such as 1, 100 or 0.5.")]
    return None


def _seat_names(form: NewTableForm) -> list[str] | None:
    """The four names typed, a blank one named as its placeholder says (in the page's
    language); None with the error under each refused box, naming its seat (the ledger's
    bounds: :data:`NAME_MAX` visible characters)."""
    names: list[str] = []
    for i in range(4):
        f = getattr(form, f"n{i}")
        name = (f.data or "").strip()
        f.errors = list(f.errors or [])
        if len(name) > NAME_MAX:
            f.errors.append(_("The name for %(seat)s is too long: at most %(n)s characters.",
                              seat=f.label.text, n=NAME_MAX))
        elif not name.isprintable():
            f.errors.append(_("The name for %(seat)s should be visible characters only (no "
                              "line breaks or control characters).", seat=f.label.text))
        names.append(name or localized(seat(i)))
    if any(getattr(form, f"n{i}").errors for i in range(4)):
        return None
    return names


# POST /t/import
def import_table():
    form = ImportForm()
    raw = b""
    upload = request.files.get("file")
    if upload is not None and upload.filename:
        raw = upload.read(IMPORT_MAX + 1)
    elif form.text.data:
        raw = form.text.data.encode("utf-8")
    general = None
    try:
        if not raw:
            raise InputError("bad_json", _("Choose an exported JSON file or paste its text."))
        try:
            data = json.loads(raw.decode("utf-8-sig"), parse_constant=reject_constant)
        except (UnicodeDecodeError, ValueError, RecursionError):
            raise InputError("bad_json", _("This is not a JSON file exported from a table.")) \
                from None
        edit = import_json(data, request.remote_addr, raw)
        return redirect(url_for(".table", token=edit, lang=lang_param(), new=1), 303)
    except (InputError, LedgerError) as err:
        general = _("Import failed: %(why)s", why=error_text(err))
    nform = NewTableForm(formdata=None)
    room = read_room(MultiDict(), nform.variant.data)
    html = render_template("ledger_new.html", form=nform, room=room, general=general,
                           import_form=form, variant_label=localized(VARIANT_LABELS[nform.variant.data]))
    return make_response(html, 422)


def import_json(data, address: str | None, raw: bytes | None = None) -> str:
    """A new table from an export (:meth:`Ledger.import_table`); returns its edit token."""
    return ledger().import_table(data, address=address, raw=raw).edit_token
