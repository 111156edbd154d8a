"""``python -m webcalc.ledger.migrate``: upgrade the ledger database at ``$WEBCALC_MIGRATE_URL``
to head (:func:`webcalc.ledger.db.upgrade`, lock-safe) and exit: 0 when the schema is at head,
:data:`~webcalc.ledger.db.UNREACHABLE` (3) when the database cannot be reached, 1 on any other
failure (the traceback on stderr). ``$WEBCALC_MIGRATE_BUSY_MS``: SQLite's busy timeout.

The app runs this in a child process at start-up (:func:`webcalc.ledger.db.upgrade_in_subprocess`)
so Alembic stays out of the server's processes.
"""

from __future__ import annotations

import os
import sys


def main() -> int:
    from sqlalchemy.exc import OperationalError

    from . import db

    engine = db.make_engine(os.environ["WEBCALC_MIGRATE_URL"],
                            int(os.environ.get("WEBCALC_MIGRATE_BUSY_MS") or db.BUSY_TIMEOUT_MS))
    try:
        db.upgrade(engine)
    except OperationalError as err:
        print(f"ledger database unreachable: {err}", file=sys.stderr)
        return db.UNREACHABLE
    finally:
        engine.dispose()
    return 0


if __name__ == "__main__":
    sys.exit(main())
