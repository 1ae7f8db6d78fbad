"""Versioned schema migrations of the PostgreSQL store.

Each entry of :data:`MIGRATIONS` moves the schema from version ``i`` to ``i + 1``; the
current version lives in ``meta.schema_version``, as in SQLite. Never edit a released
migration: append a new one.

Every table is keyed by ``user_id`` first (primary keys and indexes), so a deployment can
distribute the tables by ``user_id`` (Citus) and keep ``meta`` as a reference table. Ids
use the "C" collation: ordering is bytewise, as in SQLite.

The HNSW index over the vectors is not here: its dimension is the embedder's, known at
the first write, so the store creates it then (``memories_embedding_hnsw_<dim>``).
"""

from __future__ import annotations

__all__ = ["MIGRATIONS", "SCHEMA_VERSION"]

_V1 = """
CREATE EXTENSION IF NOT EXISTS vector;

CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

-- Keyword search: English Snowball stemming without a stopword list (SQLite's FTS5 uses the
-- Porter stemmer and no stopwords; the question's stopwords are dropped before the search).
CREATE TEXT SEARCH DICTIONARY memopilot_stem (TEMPLATE = snowball, LANGUAGE = english);
CREATE TEXT SEARCH CONFIGURATION memopilot_english (COPY = english);
ALTER TEXT SEARCH CONFIGURATION memopilot_english ALTER MAPPING REPLACE english_stem WITH memopilot_stem;

CREATE TABLE memories (
    user_id         TEXT COLLATE "C" NOT NULL,
    id              TEXT COLLATE "C" NOT NULL,
    seq             BIGINT GENERATED ALWAYS AS IDENTITY,  -- insertion order: ties on created_at
    project_id      TEXT COLLATE "C",
    type            TEXT NOT NULL,
    state           TEXT NOT NULL,
    content         TEXT NOT NULL,
    tags            JSONB NOT NULL DEFAULT '[]',
    importance      DOUBLE PRECISION NOT NULL,
    confidence      DOUBLE PRECISION NOT NULL,
    usage_count     INTEGER NOT NULL DEFAULT 0,
    last_used_at    TIMESTAMPTZ,
    privacy         TEXT NOT NULL,
    created_at      TIMESTAMPTZ NOT NULL,
    updated_at      TIMESTAMPTZ NOT NULL,
    expires_at      TIMESTAMPTZ,
    occurred_at     TIMESTAMPTZ,
    valid_from      TIMESTAMPTZ,
    valid_to        TIMESTAMPTZ,
    supersedes      TEXT COLLATE "C",
    superseded_by   TEXT COLLATE "C",
    session_id      TEXT,
    message_id      TEXT,
    source_ids      JSONB NOT NULL DEFAULT '[]',
    promoted_at     TIMESTAMPTZ,
    embedding       vector,        -- unit length; the HNSW index casts to the embedder's dimension
    embedding_model TEXT,
    -- the keyword index covers the memories that may reach a context (active, pinned)
    fts             TSVECTOR GENERATED ALWAYS AS (
        CASE WHEN state IN ('active', 'pinned') THEN
            to_tsvector('memopilot_english'::regconfig, content)
            || jsonb_to_tsvector('memopilot_english'::regconfig, tags, '["string"]')
        END
    ) STORED,
    PRIMARY KEY (user_id, id)
);
CREATE INDEX memories_id ON memories (id);
CREATE INDEX memories_user_state ON memories (user_id, state, project_id);
CREATE INDEX memories_user_created ON memories (user_id, created_at, seq);
CREATE INDEX memories_expiry ON memories (state, expires_at) WHERE expires_at IS NOT NULL;
CREATE INDEX memories_archive ON memories (state, usage_count, created_at);
CREATE INDEX memories_fts ON memories USING gin (fts) WHERE state IN ('active', 'pinned');

CREATE TABLE events (
    user_id     TEXT COLLATE "C" NOT NULL,
    seq         BIGINT GENERATED ALWAYS AS IDENTITY,  -- ties on `at` keep insertion order
    id          TEXT COLLATE "C" NOT NULL,
    project_id  TEXT COLLATE "C",
    memory_id   TEXT COLLATE "C",
    kind        TEXT NOT NULL,
    actor       TEXT NOT NULL,
    reason      TEXT NOT NULL,
    details     JSON NOT NULL DEFAULT '{}',
    at          TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (user_id, seq),
    UNIQUE (user_id, id)
);
CREATE INDEX events_memory ON events (memory_id, at, seq);
CREATE INDEX events_user ON events (user_id, at, seq);

CREATE TABLE traces (
    user_id     TEXT COLLATE "C" NOT NULL,
    id          TEXT COLLATE "C" NOT NULL,
    seq         BIGINT GENERATED ALWAYS AS IDENTITY,
    project_id  TEXT COLLATE "C",
    created_at  TIMESTAMPTZ NOT NULL,
    message_id  TEXT,
    payload     JSON NOT NULL,
    PRIMARY KEY (user_id, id)
);
CREATE INDEX traces_id ON traces (id);
CREATE INDEX traces_user ON traces (user_id, created_at, seq);
CREATE INDEX traces_message ON traces (user_id, message_id);

CREATE TABLE turns (
    user_id     TEXT COLLATE "C" NOT NULL,
    seq         BIGINT GENERATED ALWAYS AS IDENTITY,
    id          TEXT COLLATE "C" NOT NULL,
    project_id  TEXT COLLATE "C",
    session_id  TEXT NOT NULL,
    message_id  TEXT,
    role        TEXT NOT NULL,
    content     TEXT NOT NULL,
    at          TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (user_id, seq),
    UNIQUE (user_id, id)
);
CREATE INDEX turns_session ON turns (user_id, session_id, seq);
CREATE INDEX turns_message ON turns (user_id, message_id);

-- The messages whose write path has been applied: one message (user, message id) applies once.
CREATE TABLE applied_messages (
    user_id     TEXT COLLATE "C" NOT NULL,
    message_id  TEXT COLLATE "C" NOT NULL,
    seq         BIGINT GENERATED ALWAYS AS IDENTITY,
    PRIMARY KEY (user_id, message_id)
);

-- Bumped after every commit that changes memories or vectors: the change token other
-- processes compare to know their in-memory vector cache is stale.
CREATE SEQUENCE memopilot_changes;
"""

# v2: counting a use must not rewrite every index of a wide row. With usage_count out of the
# archive index and room left in each page (fillfactor), the UPDATE that counts uses on every
# read is a heap-only (HOT) update: no new entries in the HNSW, GIN or b-tree indexes. (Measured:
# counting the uses of one read took about 20 ms before this, with the HNSW index.) The
# forgetting indexes lead with the user, as the read path asks when one user's next sweep is due.
_V2 = """
DROP INDEX memories_archive;
CREATE INDEX memories_archive ON memories (user_id, state, created_at);
DROP INDEX memories_expiry;
CREATE INDEX memories_expiry ON memories (user_id, state, expires_at) WHERE expires_at IS NOT NULL;
ALTER TABLE memories SET (fillfactor = 70);
"""

# v3: uses of memories in a narrow table of their own (store/use_counts.py): a batch of uses
# updates rows of a few dozen bytes (heap-only, one index) instead of whole memory rows.
_V3 = """
CREATE TABLE memory_uses (
    user_id     TEXT COLLATE "C" NOT NULL,
    memory_id   TEXT COLLATE "C" NOT NULL,
    use_count   INTEGER NOT NULL,
    last_use_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (user_id, memory_id)
);
"""

# v4: a change counter per user (store/change_counters.py), bumped inside each commit that changes
# the user's memories: another process reloads only those users. (The store-wide sequence
# memopilot_changes is no longer used.)
_V4 = """
CREATE TABLE memory_changes (
    user_id TEXT COLLATE "C" PRIMARY KEY,
    counter BIGINT NOT NULL
);
"""

# v5: each memory row carries the user's change counter of the commit that last wrote it or its
# vector (store/change_counters.py): another process applies the rows changed since the counter it
# holds instead of reloading the whole user.
_V5 = """
ALTER TABLE memories ADD COLUMN change_seq BIGINT NOT NULL DEFAULT 0;
CREATE INDEX memories_changes ON memories (user_id, change_seq);
"""

# v6: each memory row keeps the words it is found by, as the in-memory index counts them
# (text.stored_index_terms): loading a user reads them instead of tokenizing every memory again.
# Rows written before (NULL) are tokenized at load, as they were.
_V6 = """
ALTER TABLE memories ADD COLUMN index_terms TEXT;
"""

# v7: memories whose vector holds only its fast part, for the background worker that
# completes them (engine/refinement.py): a small index of what is still to do.
_V7 = """
CREATE INDEX memories_pending_vectors ON memories (embedding_model, seq)
    WHERE embedding_model LIKE '%|pending';
"""

MIGRATIONS: list[str] = [_V1, _V2, _V3, _V4, _V5, _V6, _V7]
SCHEMA_VERSION = len(MIGRATIONS)
