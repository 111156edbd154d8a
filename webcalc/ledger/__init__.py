"""The table ledger (牌桌记账): tables, hands, revisions, adjustments, stored with SQLAlchemy
and migrated with Alembic. Never imports Flask. The interface is :mod:`.service`."""

from .errors import (
                     BadKey,
                     Busy,
                     Conflict,
                     IdempotencyConflict,
                     LedgerError,
                     NotFound,
                     NotOwner,
                     RateLimited,
                     ReadOnly,
                     TableFull,
                     TooMany,
                     Voided,
)
from .points import FREE, POINTS, is_free
from .service import Created, Ledger, Recorded, Rotated, TableDoc, view_token_of
from .texts import hand_in, table_in

__all__ = ["Ledger", "Created", "Recorded", "Rotated", "TableDoc", "LedgerError", "NotFound",
           "NotOwner", "ReadOnly", "Conflict", "IdempotencyConflict", "BadKey", "Voided",
           "TableFull", "TooMany", "RateLimited", "Busy", "view_token_of", "table_in",
           "hand_in", "FREE", "POINTS", "is_free"]
