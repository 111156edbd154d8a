"""Alembic migrations of the ledger (run by :func:`webcalc.ledger.db.upgrade`)."""
