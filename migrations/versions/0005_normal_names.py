"""Names stored before 0002_harden, normalised as new ones are (NFKC, no invisible characters).

Revision ID: 0005_normal_names
Revises: 0004_club
Create Date: 2026-12-01

A data step, no schema change: each seat's name goes through ``poetry.store.fields.clean_name``, the
function that cleans a name on the way in, so 「東坡」 followed by a zero-width space becomes 「東坡」.
Two names of one round that were look-alikes would then be one: the name that was already normal keeps
it (else the lower seat), the other gets its seat number, 「東坡（2）」. A name with nothing visible left
becomes 「座N」. Names quoted in earlier events keep their old spelling. Not undone by a downgrade.
"""

import sqlalchemy as sa
from alembic import op

from poetry.errors import PoetryError
from poetry.store.fields import clean_name

revision = "0005_normal_names"
down_revision = "0004_club"
branch_labels = None
depends_on = None

seats = sa.table("seats", sa.column("id", sa.Integer), sa.column("round_id", sa.Integer),
                 sa.column("seat", sa.Integer), sa.column("name", sa.Text))


def normal_names(rows: list[tuple[int, int, str]]) -> dict[int, str]:
    """One round's seats (id, seat, name) → the new name of each seat whose name changes.

    >>> normal_names([(7, 1, "東坡"), (8, 2, "東坡\\u200b"), (9, 3, "\\u200b"), (10, 4, "\\uf90a")])
    {8: '東坡（2）', 9: '座3', 10: '金'}
    """
    wanted = {}
    for seat_id, seat, name in rows:
        try:
            wanted[seat_id] = clean_name(name, "name", "名號")
        except PoetryError:  # nothing visible left (or longer than the limit once normalised)
            wanted[seat_id] = f"座{seat}"
    taken = {name for seat_id, _, name in rows if wanted[seat_id] == name}
    renamed = {}
    for seat_id, seat, name in sorted(rows, key=lambda row: row[1]):
        if wanted[seat_id] == name:
            continue
        new = wanted[seat_id]
        while new in taken:
            new = f"{new}（{seat}）"
        taken.add(new)
        renamed[seat_id] = new
    return renamed


def upgrade() -> None:
    connection = op.get_bind()
    by_round: dict[int, list[tuple[int, int, str]]] = {}
    for seat_id, round_id, seat, name in connection.execute(
            sa.select(seats.c.id, seats.c.round_id, seats.c.seat, seats.c.name)):
        by_round.setdefault(round_id, []).append((seat_id, seat, name))
    for rows in by_round.values():
        for seat_id, name in normal_names(rows).items():
            connection.execute(seats.update().where(seats.c.id == seat_id).values(name=name))


def downgrade() -> None:
    """Nothing: the look-alike spellings are not kept."""
