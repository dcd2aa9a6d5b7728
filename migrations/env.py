"""Alembic environment for the 詩牌 store: the target metadata is poetry.store.metadata.

The app runs the migrations itself at start (poetry.store.upgrade_database passes its connection in
``config.attributes["connection"]``). From the command line::

    alembic -c migrations/alembic.ini upgrade head          # DATABASE_URL or instance/shipai.sqlite3
    alembic -c migrations/alembic.ini revision --autogenerate -m "what changed"
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from alembic import context
from sqlalchemy import create_engine

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from poetry.store import metadata  # noqa: E402

config = context.config
target_metadata = metadata


def _url() -> str:
    return (
        os.environ.get("DATABASE_URL")
        or config.get_main_option("sqlalchemy.url")
        or "sqlite:///" + str(ROOT / "instance" / "shipai.sqlite3")
    )


def run_migrations_offline() -> None:
    """Emit SQL to stdout (alembic upgrade --sql)."""
    context.configure(url=_url(), target_metadata=target_metadata, literal_binds=True,
                      render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = create_engine(_url())
    with engine.connect() as connection:
        context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
