"""Events (club evenings and round robins), their players and rounds; matches belong to an
event with a round and a table; a cache of each deal's ruling for standings.

The cache (``deal_results``) is left empty here, with its ``cache_state`` row at version "":
the migration stays independent of the engine. The store fills it from the deals, in one
transaction, as soon as the migrations have run (:func:`tally.store.open_store`, so the
command that upgrades the database fills it), and again whenever a tally of another version
is about to read it; see :meth:`tally.store.Store.ensure_results`.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-21 06:49:22.862317

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision: str = '0002'
down_revision: Union[str, Sequence[str], None] = '0001'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema."""
    cache_state = op.create_table('cache_state',
    sa.Column('name', sa.String(length=40), nullable=False),
    sa.Column('version', sa.String(length=40), nullable=False),
    sa.PrimaryKeyConstraint('name', name=op.f('pk_cache_state'))
    )
    # The row exists from the start: a rebuild locks it, so two rebuilds take turns.
    op.bulk_insert(cache_state, [{'name': 'deal_results', 'version': ''}])
    op.create_table('events',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=100), nullable=False),
    sa.Column('kind', sa.String(length=20), nullable=False),
    sa.Column('held_on', sa.Date(), nullable=False),
    sa.Column('rules', sa.String(length=400), nullable=False),
    sa.Column('double_round', sa.Boolean(), nullable=False),
    sa.Column('matches_per_pairing', sa.Integer(), nullable=False),
    sa.Column('match_points_per_win', sa.Float(), nullable=False),
    sa.Column('bye', sa.String(length=10), nullable=False),
    sa.Column('withdrawal', sa.String(length=10), nullable=False),
    sa.Column('tiebreaks', sa.String(length=200), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint("bye IN ('none', 'win')", name=op.f('ck_events_bye')),
    sa.CheckConstraint("kind IN ('club', 'round-robin')", name=op.f('ck_events_kind')),
    sa.CheckConstraint("withdrawal IN ('forfeit', 'void')", name=op.f('ck_events_withdrawal')),
    sa.CheckConstraint('match_points_per_win >= 0', name=op.f('ck_events_match_points_per_win')),
    sa.CheckConstraint('matches_per_pairing >= 1', name=op.f('ck_events_matches_per_pairing')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_events'))
    )
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_events_held_on'), ['held_on'], unique=False)

    op.create_table('event_players',
    sa.Column('event_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('seed', sa.Integer(), nullable=False),
    sa.Column('withdrawn_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['event_id'], ['events.id'], name=op.f('fk_event_players_event_id_events')),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], name=op.f('fk_event_players_player_id_players')),
    sa.PrimaryKeyConstraint('event_id', 'player_id', name=op.f('pk_event_players')),
    sa.UniqueConstraint('event_id', 'seed', name=op.f('uq_event_players_event_id_seed'))
    )
    with op.batch_alter_table('event_players', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_event_players_player_id'), ['player_id'], unique=False)

    op.create_table('event_rounds',
    sa.Column('event_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('bye_player_id', sa.Integer(), nullable=True),
    sa.Column('started_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['bye_player_id'], ['players.id'], name=op.f('fk_event_rounds_bye_player_id_players')),
    sa.ForeignKeyConstraint(['event_id'], ['events.id'], name=op.f('fk_event_rounds_event_id_events')),
    sa.PrimaryKeyConstraint('event_id', 'number', name=op.f('pk_event_rounds'))
    )
    op.create_table('deal_results',
    sa.Column('deal_id', sa.Integer(), nullable=False),
    sa.Column('match_id', sa.Integer(), nullable=False),
    sa.Column('winner_id', sa.Integer(), nullable=True),
    sa.Column('deal_points', sa.Integer(), nullable=False),
    sa.Column('carry_in', sa.Integer(), nullable=False),
    sa.Column('game_points', sa.Integer(), nullable=False),
    sa.Column('reason', sa.String(length=20), nullable=False),
    sa.ForeignKeyConstraint(['deal_id'], ['deals.id'], name=op.f('fk_deal_results_deal_id_deals')),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], name=op.f('fk_deal_results_match_id_matches')),
    sa.ForeignKeyConstraint(['winner_id'], ['players.id'], name=op.f('fk_deal_results_winner_id_players')),
    sa.PrimaryKeyConstraint('deal_id', name=op.f('pk_deal_results'))
    )
    with op.batch_alter_table('deal_results', schema=None) as batch_op:
        batch_op.create_index('ix_deal_results_match_id', ['match_id', 'winner_id', 'deal_points', 'game_points', 'reason'], unique=False)

    with op.batch_alter_table('matches', schema=None) as batch_op:
        batch_op.add_column(sa.Column('round_number', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('table_number', sa.Integer(), nullable=True))
        batch_op.create_foreign_key(batch_op.f('fk_matches_event_id_events'), 'events', ['event_id'], ['id'])


def downgrade() -> None:
    """Downgrade schema."""
    with op.batch_alter_table('matches', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_matches_event_id_events'), type_='foreignkey')
        batch_op.drop_column('table_number')
        batch_op.drop_column('round_number')

    with op.batch_alter_table('deal_results', schema=None) as batch_op:
        batch_op.drop_index('ix_deal_results_match_id')

    op.drop_table('deal_results')
    op.drop_table('event_rounds')
    with op.batch_alter_table('event_players', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_event_players_player_id'))

    op.drop_table('event_players')
    with op.batch_alter_table('events', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_events_held_on'))

    op.drop_table('events')
    op.drop_table('cache_state')
