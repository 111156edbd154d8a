"""The ledger's tables (SQLAlchemy 2 declarative models).

* :class:`Table` — one evening at one physical table: variant, room options, base, seat names,
  first dealer, the carried-bets setting, the hashes of the creator's edit token (editor 0)
  and of the view token, counters (``next_number`` of the next entry, ``version`` bumped by
  every write, for ETags) and ``derived``: what the counted entries add up to (totals, who
  deals next, the last counted entry, …), kept up to date by every write in its own
  transaction, so that no write reads the table's other entries (docs/LEDGER.md "Storage").
* :class:`Editor` — a co-scorer's edit link (editor 1, 2, …): its token's hash, the view token
  sealed with it, and when it was revoked.
* :class:`Hand` — one entry of a table, numbered from 1: a hand (``kind`` ``hand``) or an
  adjustment (``kind`` ``adjustment``). The row holds the current revision: the request as
  recorded, what the engine computed from it (``result``: ``settlement`` and, where the
  variant reports them, ``biao``/``fan``), the dealer it was played with and whether the tiles
  were given (``verified``), and apart, in ``codes``, what the result says as message codes
  (never read with the table). Nothing is deleted by a user: a void sets ``status``
  ``voided`` with its reason (or ``void_code`` ``undone`` for an undo). Derived, kept by the
  writes: ``next_dealer`` (from the result), ``dealer_flag`` and ``seq``, the table version
  at which the row last changed (a reader that holds the table at version v reads only the
  rows with ``seq`` > v).
* :class:`Revision` — a superseded revision of a hand, kept when a correction replaces it.
* :class:`Circle` — a circle (牌友圈): a name and the hashes of its edit and view tokens.
* :class:`CirclePlayer` — one player of a circle, numbered from 1 in it (the API's player id).
* :class:`Seat` — a seat of a table in a circle: which player sat there, and the kept
  figures of that seat (hands, wins, self-draws, deal-ins, net, biggest win, and which
  entries they count), updated by every write of the table in its transaction, so that a
  circle's standings sum these rows and never read a hand (docs/LEDGER.md "Circles").
* :class:`Creation` — when a table was created from which address (hashed), for the
  tables-per-address-per-hour cap; purged with idle tables.

Times are stored in UTC and read back as aware ``datetime`` values on both databases.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

from .db import is_sqlite

#: the largest value every INTEGER column holds on both databases (PostgreSQL's ``integer`` is
#: 32 bits, SQLite's 64): a number from a request past it names no row and is never put in a
#: query, which the database would refuse (docs/API.md "Limits and edges of the input")
INT_MAX = 2 ** 31 - 1


class UTCDateTime(TypeDecorator):
    """An aware UTC datetime on both databases (SQLite stores it naive)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value, dialect):
        if value is not None:
            value = value.astimezone(UTC)
            if is_sqlite(dialect):
                value = value.replace(tzinfo=None)
        return value

    def process_result_value(self, value, dialect):
        if value is not None and value.tzinfo is None:
            value = value.replace(tzinfo=UTC)
        return value


class SerializedJSON(TypeDecorator):
    """A JSON column's value bound as the JSON text it already is (``json.dumps`` done before
    the transaction, as :meth:`~webcalc.ledger.service.Ledger.import_table` does for a whole
    table, so the write lock is not held while hundreds of results are serialized). Read
    back as JSON, like the column."""

    impl = JSON
    cache_ok = True

    def bind_processor(self, dialect):
        return None


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    pass


class Table(Base):
    __tablename__ = "ledger_table"
    __table_args__ = (UniqueConstraint("edit_hash", name="uq_ledger_table_edit_hash"),
                      UniqueConstraint("view_hash", name="uq_ledger_table_view_hash"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    edit_hash: Mapped[str] = mapped_column(String(64))
    view_hash: Mapped[str] = mapped_column(String(64))
    variant: Mapped[str] = mapped_column(String(16))
    options: Mapped[dict] = mapped_column(JSON)
    base: Mapped[float] = mapped_column(JSON)           # int or float, kept as given
    names: Mapped[list] = mapped_column(JSON)
    first_dealer: Mapped[int] = mapped_column(Integer)
    #: the 跑/加钢 of the last counted hand offered again for the next one ("keep"), or not
    carry_bets: Mapped[str] = mapped_column(String(8), server_default="keep", default="keep")
    #: the view token sealed with the creator's edit token (null: derived from it,
    #: :func:`~webcalc.ledger.service.view_token_of`)
    view_seal: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: the counted entries' sums (:class:`~webcalc.ledger.entries._Derived`)
    derived: Mapped[dict | None] = mapped_column(JSON, nullable=True)
    next_number: Mapped[int] = mapped_column(Integer, default=1)
    version: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, index=True)
    #: the circle this table belongs to (null: none). No foreign key: SQLite adds one only by
    #: rebuilding ``ledger_table``, which would cascade-delete every hand; circles are never
    #: deleted while they have tables (docs/decisions.md "Circles").
    circle_id: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    #: this table's view token sealed with its circle's view token ("" once replaced)
    circle_seal: Mapped[str | None] = mapped_column(String(64), nullable=True)

    hands: Mapped[list[Hand]] = relationship(
        back_populates="table", order_by="Hand.number", cascade="all, delete-orphan",
        passive_deletes=True)


class Editor(Base):
    """A co-scorer's edit link. The creator's own link is on the table row (editor 0)."""

    __tablename__ = "ledger_editor"
    __table_args__ = (UniqueConstraint("edit_hash", name="uq_ledger_editor_edit_hash"),
                      UniqueConstraint("table_id", "number", name="uq_ledger_editor_number"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("ledger_table.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    edit_hash: Mapped[str] = mapped_column(String(64))
    #: the view token sealed with this editor's token ("" once the view link was replaced)
    view_seal: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)


class Hand(Base):
    __tablename__ = "ledger_hand"
    __table_args__ = (UniqueConstraint("table_id", "number", name="uq_ledger_hand_number"),
                      UniqueConstraint("table_id", "idempotency_key",
                                       name="uq_ledger_hand_idempotency"),
                      Index("ix_ledger_hand_seq", "table_id", "seq"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("ledger_table.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))                 # hand | adjustment
    status: Mapped[str] = mapped_column(String(16), default="recorded")   # | voided
    idempotency_key: Mapped[str | None] = mapped_column(String(128), nullable=True)
    revision: Mapped[int] = mapped_column(Integer, default=1)
    request: Mapped[dict] = mapped_column(JSON)
    result: Mapped[dict] = mapped_column(JSON)
    #: what the result says as message codes (``messages``: see ``entries._stored``);
    #: never read with the table, so deferred (None in rows stored before: inside ``result``)
    codes: Mapped[dict | None] = mapped_column(JSON, nullable=True, deferred=True)
    dealer: Mapped[int] = mapped_column(Integer)
    verified: Mapped[bool] = mapped_column(Boolean)
    recorded_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    revised_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    void_reason: Mapped[str | None] = mapped_column(Text, nullable=True)
    voided_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    #: why it was voided when no reason was typed: ``undone`` (an undo)
    void_code: Mapped[str | None] = mapped_column(String(16), nullable=True)
    #: who wrote the current revision (0: the creator's link), and who voided it
    editor: Mapped[int] = mapped_column(Integer, server_default="0", default=0)
    voided_by: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: who deals after this hand (the result's ``next_dealer.seat``; null for an adjustment)
    next_dealer: Mapped[int | None] = mapped_column(Integer, nullable=True)
    dealer_flag: Mapped[bool] = mapped_column(Boolean, server_default="0", default=False)
    seq: Mapped[int] = mapped_column(Integer, server_default="0", default=0)

    table: Mapped[Table] = relationship(back_populates="hands")
    old_revisions: Mapped[list[Revision]] = relationship(
        order_by="Revision.revision", cascade="all, delete-orphan", passive_deletes=True)


class Revision(Base):
    __tablename__ = "ledger_revision"
    __table_args__ = (UniqueConstraint("hand_id", "revision", name="uq_ledger_revision"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    hand_id: Mapped[int] = mapped_column(ForeignKey("ledger_hand.id", ondelete="CASCADE"),
                                         index=True)
    revision: Mapped[int] = mapped_column(Integer)
    request: Mapped[dict] = mapped_column(JSON)
    result: Mapped[dict] = mapped_column(JSON)
    codes: Mapped[dict | None] = mapped_column(JSON, nullable=True, deferred=True)
    dealer: Mapped[int] = mapped_column(Integer)
    verified: Mapped[bool] = mapped_column(Boolean)
    editor: Mapped[int] = mapped_column(Integer, server_default="0", default=0)
    recorded_at: Mapped[datetime] = mapped_column(UTCDateTime)
    replaced_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class Circle(Base):
    __tablename__ = "ledger_circle"
    __table_args__ = (UniqueConstraint("edit_hash", name="uq_ledger_circle_edit_hash"),
                      UniqueConstraint("view_hash", name="uq_ledger_circle_view_hash"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    edit_hash: Mapped[str] = mapped_column(String(64))
    view_hash: Mapped[str] = mapped_column(String(64))
    version: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class CirclePlayer(Base):
    __tablename__ = "ledger_circle_player"
    __table_args__ = (UniqueConstraint("circle_id", "number", name="uq_ledger_circle_player"),
                      UniqueConstraint("circle_id", "name", name="uq_ledger_circle_player_name"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    circle_id: Mapped[int] = mapped_column(ForeignKey("ledger_circle.id", ondelete="CASCADE"))
    #: the player's id in the API: 1, 2, … within the circle
    number: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class Seat(Base):
    """One seat of a table in a circle, with the seat's kept figures over the table's
    counted entries. ``net`` is exact (a fraction's text, as ``ledger_table.derived``);
    ``floats`` counts the counted entries with a non-int amount; ``entries`` says which
    entries the figures count: ``{"wins": {"<n>": {"net": x, "by": win_by}}, "dealt_in":
    {"<n>": winner seat}}``; ``biggest_win`` is the largest net among ``wins`` (null: none)."""

    __tablename__ = "ledger_seat"
    __table_args__ = (UniqueConstraint("table_id", "seat", name="uq_ledger_seat"),
                      Index("ix_ledger_seat_circle", "circle_id"))

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("ledger_table.id", ondelete="CASCADE"))
    circle_id: Mapped[int] = mapped_column(ForeignKey("ledger_circle.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)
    player: Mapped[int] = mapped_column(Integer)            # CirclePlayer.number
    hands: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    self_draws: Mapped[int] = mapped_column(Integer, default=0)
    dealt_in: Mapped[int] = mapped_column(Integer, default=0)
    net: Mapped[str] = mapped_column(String(64), default="0")
    floats: Mapped[int] = mapped_column(Integer, default=0)
    biggest_win: Mapped[float | None] = mapped_column(JSON, nullable=True)
    entries: Mapped[dict] = mapped_column(JSON)


class Creation(Base):
    __tablename__ = "ledger_creation"
    __table_args__ = (Index("ix_ledger_creation_address", "address_hash", "created_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    address_hash: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, index=True)
