"""Players, matches, deals, their actions and the audit log.

Revision ID: 0001
Revises: 
Create Date: 2026-11-21 06:15:21.373970

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision: str = '0001'
down_revision: Union[str, Sequence[str], None] = None
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema."""
    op.create_table('audit_log',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('scorer', sa.String(length=100), nullable=False),
    sa.Column('command', sa.String(length=40), nullable=False),
    sa.Column('entity', sa.String(length=20), nullable=False),
    sa.Column('entity_id', sa.Integer(), nullable=False),
    sa.Column('summary', sa.Text(), nullable=False),
    sa.Column('before', sa.Text(), nullable=True),
    sa.Column('after', sa.Text(), nullable=True),
    sa.Column('reversed_by', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['reversed_by'], ['audit_log.id'], name=op.f('fk_audit_log_reversed_by_audit_log')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_audit_log'))
    )
    with op.batch_alter_table('audit_log', schema=None) as batch_op:
        batch_op.create_index('ix_audit_log_entity_entity_id', ['entity', 'entity_id'], unique=False)

    op.create_table('players',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=60), nullable=False),
    sa.Column('name_key', sa.String(length=60), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_players')),
    sa.UniqueConstraint('name_key', name=op.f('uq_players_name_key'))
    )
    op.create_table('matches',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('player_a_id', sa.Integer(), nullable=False),
    sa.Column('player_b_id', sa.Integer(), nullable=False),
    sa.Column('rules', sa.String(length=400), nullable=False),
    sa.Column('first_dealer_id', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('event_id', sa.Integer(), nullable=True),
    sa.CheckConstraint('first_dealer_id = player_a_id OR first_dealer_id = player_b_id', name=op.f('ck_matches_dealer_plays')),
    sa.CheckConstraint('player_a_id <> player_b_id', name=op.f('ck_matches_two_players')),
    sa.ForeignKeyConstraint(['first_dealer_id'], ['players.id'], name=op.f('fk_matches_first_dealer_id_players')),
    sa.ForeignKeyConstraint(['player_a_id'], ['players.id'], name=op.f('fk_matches_player_a_id_players')),
    sa.ForeignKeyConstraint(['player_b_id'], ['players.id'], name=op.f('fk_matches_player_b_id_players')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_matches'))
    )
    with op.batch_alter_table('matches', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_matches_event_id'), ['event_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_matches_player_a_id'), ['player_a_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_matches_player_b_id'), ['player_b_id'], unique=False)

    op.create_table('deals',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('match_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=10), nullable=False),
    sa.Column('turn_up', sa.String(length=3), nullable=True),
    sa.Column('quick_winner_id', sa.Integer(), nullable=True),
    sa.Column('quick_points', sa.Integer(), nullable=True),
    sa.Column('quick_reason', sa.String(length=20), nullable=True),
    sa.Column('tags', sa.Text(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.CheckConstraint("kind = 'quick' OR turn_up IS NOT NULL", name=op.f('ck_deals_recorded_turn_up')),
    sa.CheckConstraint("kind IN ('recorded', 'quick')", name=op.f('ck_deals_kind')),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], name=op.f('fk_deals_match_id_matches')),
    sa.ForeignKeyConstraint(['quick_winner_id'], ['players.id'], name=op.f('fk_deals_quick_winner_id_players')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_deals')),
    sa.UniqueConstraint('match_id', 'number', name=op.f('uq_deals_match_id_number'))
    )
    with op.batch_alter_table('deals', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_deals_match_id'), ['match_id'], unique=False)

    op.create_table('actions',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('deal_id', sa.Integer(), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('trick', sa.Integer(), nullable=False),
    sa.Column('token', sa.String(length=80), nullable=False),
    sa.ForeignKeyConstraint(['deal_id'], ['deals.id'], name=op.f('fk_actions_deal_id_deals')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_actions')),
    sa.UniqueConstraint('deal_id', 'seq', name=op.f('uq_actions_deal_id_seq'))
    )


def downgrade() -> None:
    """Downgrade schema."""
    op.drop_table('actions')
    with op.batch_alter_table('deals', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_deals_match_id'))

    op.drop_table('deals')
    with op.batch_alter_table('matches', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_matches_player_b_id'))
        batch_op.drop_index(batch_op.f('ix_matches_player_a_id'))
        batch_op.drop_index(batch_op.f('ix_matches_event_id'))

    op.drop_table('matches')
    op.drop_table('players')
    with op.batch_alter_table('audit_log', schema=None) as batch_op:
        batch_op.drop_index('ix_audit_log_entity_entity_id')

    op.drop_table('audit_log')
