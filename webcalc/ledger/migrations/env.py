"""Alembic environment: migrations run on the connection :mod:`webcalc.ledger.db` hands in
(``config.attributes["connection"]``), or, from the ``alembic`` command line, on
``DATABASE_URL``."""

from __future__ import annotations

import os

from alembic import context

from webcalc.ledger.db import is_sqlite, make_engine
from webcalc.ledger.models import Base

config = context.config


def _run(connection) -> None:
    context.configure(connection=connection, target_metadata=Base.metadata,
                      render_as_batch=is_sqlite(connection),
                      compare_type=True)
    with context.begin_transaction():
        context.run_migrations()


connection = config.attributes.get("connection")
if connection is not None:
    _run(connection)
else:
    engine = make_engine(os.environ["DATABASE_URL"])
    with engine.connect() as conn:
        _run(conn)
        conn.commit()
