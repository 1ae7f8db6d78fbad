"""Versioned schema migrations of the SQLite store.

Each entry of :data:`MIGRATIONS` moves the schema from version ``i`` to ``i + 1``; the
current version lives in ``meta.schema_version``. Never edit a released migration:
append a new one.
"""

from __future__ import annotations

__all__ = ["MIGRATIONS", "SCHEMA_VERSION"]

_V1 = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

CREATE TABLE memories (
    id              TEXT PRIMARY KEY,
    user_id         TEXT NOT NULL,
    project_id      TEXT,
    type            TEXT NOT NULL,
    state           TEXT NOT NULL,
    content         TEXT NOT NULL,
    tags            TEXT NOT NULL DEFAULT '[]',
    importance      REAL NOT NULL,
    confidence      REAL NOT NULL,
    usage_count     INTEGER NOT NULL DEFAULT 0,
    last_used_at    TEXT,
    privacy         TEXT NOT NULL,
    created_at      TEXT NOT NULL,
    updated_at      TEXT NOT NULL,
    expires_at      TEXT,
    occurred_at     TEXT,
    valid_from      TEXT,
    valid_to        TEXT,
    supersedes      TEXT,
    superseded_by   TEXT,
    session_id      TEXT,
    message_id      TEXT,
    source_ids      TEXT NOT NULL DEFAULT '[]',
    promoted_at     TEXT,
    embedding       BLOB,          -- float32 little-endian, unit length
    embedding_model TEXT
);
CREATE INDEX memories_user_state ON memories (user_id, state, project_id);
CREATE INDEX memories_user_created ON memories (user_id, created_at);
CREATE INDEX memories_expiry ON memories (state, expires_at) WHERE expires_at IS NOT NULL;
CREATE INDEX memories_archive ON memories (state, usage_count, created_at);

-- Keyword index of memories that may reach a context (active, pinned). External
-- content: the text lives once, in memories; triggers keep the index in step.
CREATE VIRTUAL TABLE memories_fts USING fts5(
    user_id, content, tags, content='memories', content_rowid='rowid',
    tokenize='porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER memories_fts_insert AFTER INSERT ON memories
WHEN new.state IN ('active', 'pinned') BEGIN
    INSERT INTO memories_fts (rowid, user_id, content, tags)
    VALUES (new.rowid, new.user_id, new.content, new.tags);
END;
CREATE TRIGGER memories_fts_delete AFTER DELETE ON memories
WHEN old.state IN ('active', 'pinned') BEGIN
    INSERT INTO memories_fts (memories_fts, rowid, user_id, content, tags)
    VALUES ('delete', old.rowid, old.user_id, old.content, old.tags);
END;
-- One trigger for updates, so the old entry is always removed before the new one is added
-- (SQLite runs separate triggers on the same event in an unspecified order, and an FTS5
-- external-content index corrupts if a rowid is added twice).
CREATE TRIGGER memories_fts_update AFTER UPDATE OF state, content, tags, user_id ON memories BEGIN
    INSERT INTO memories_fts (memories_fts, rowid, user_id, content, tags)
    SELECT 'delete', old.rowid, old.user_id, old.content, old.tags WHERE old.state IN ('active', 'pinned');
    INSERT INTO memories_fts (rowid, user_id, content, tags)
    SELECT new.rowid, new.user_id, new.content, new.tags WHERE new.state IN ('active', 'pinned');
END;

CREATE TABLE events (
    seq         INTEGER PRIMARY KEY AUTOINCREMENT,  -- ties on `at` keep insertion order
    id          TEXT NOT NULL UNIQUE,
    user_id     TEXT NOT NULL,
    project_id  TEXT,
    memory_id   TEXT,
    kind        TEXT NOT NULL,
    actor       TEXT NOT NULL,
    reason      TEXT NOT NULL,
    details     TEXT NOT NULL DEFAULT '{}',
    at          TEXT NOT NULL
);
CREATE INDEX events_memory ON events (memory_id, at);
CREATE INDEX events_user ON events (user_id, at);

CREATE TABLE traces (
    id          TEXT PRIMARY KEY,
    user_id     TEXT NOT NULL,
    project_id  TEXT,
    created_at  TEXT NOT NULL,
    payload     TEXT NOT NULL
);
CREATE INDEX traces_user ON traces (user_id, created_at);
"""

# v2: the conversation log of chat turns (recent turns are shown to the answering model),
# and the message each trace answered, so that Forget can erase a memory's source message.
_V2 = """
CREATE TABLE turns (
    seq         INTEGER PRIMARY KEY AUTOINCREMENT,
    id          TEXT NOT NULL UNIQUE,
    user_id     TEXT NOT NULL,
    project_id  TEXT,
    session_id  TEXT NOT NULL,
    message_id  TEXT,
    role        TEXT NOT NULL,
    content     TEXT NOT NULL,
    at          TEXT NOT NULL
);
CREATE INDEX turns_session ON turns (user_id, session_id, seq);
CREATE INDEX turns_message ON turns (user_id, message_id);
ALTER TABLE traces ADD COLUMN message_id TEXT;
CREATE INDEX traces_message ON traces (user_id, message_id);
"""

# v3: the messages whose write path has been applied. Claiming (user_id, message_id) in the same
# transaction as the message's memories makes a message apply once, even when two processes
# receive it at the same moment.
_V3 = """
CREATE TABLE applied_messages (
    user_id     TEXT NOT NULL,
    message_id  TEXT NOT NULL,
    PRIMARY KEY (user_id, message_id)
);
"""

# v4: usage_count leaves the archive index, so counting the uses of a read (on every read)
# rewrites the memory rows only, not an index entry per memory as well; and the forgetting
# indexes lead with the user, as the read path asks when one user's next sweep is due.
_V4 = """
DROP INDEX memories_archive;
CREATE INDEX memories_archive ON memories (user_id, state, created_at);
DROP INDEX memories_expiry;
CREATE INDEX memories_expiry ON memories (user_id, state, expires_at) WHERE expires_at IS NOT NULL;
"""

# v5: uses of memories in a narrow table of their own (store/use_counts.py): a batch of uses
# rewrites rows of a few dozen bytes instead of whole memory rows with their vectors.
_V5 = """
CREATE TABLE memory_uses (
    user_id     TEXT NOT NULL,
    memory_id   TEXT NOT NULL,
    use_count   INTEGER NOT NULL,
    last_use_at TEXT NOT NULL,
    PRIMARY KEY (user_id, memory_id)
) WITHOUT ROWID;
"""

# v6: a change counter per user (store/change_counters.py): another process reloads only the
# users whose memories changed, not every user it holds. (meta's store-wide 'memory_changes'
# counter is no longer used.)
_V6 = """
CREATE TABLE memory_changes (
    user_id TEXT PRIMARY KEY,
    counter INTEGER NOT NULL
) WITHOUT ROWID;
"""

# v7: each memory row carries the user's change counter of the commit that last wrote it or its
# vector (store/change_counters.py): another process applies the rows changed since the counter it
# holds instead of reloading the whole user.
_V7 = """
ALTER TABLE memories ADD COLUMN change_seq INTEGER NOT NULL DEFAULT 0;
CREATE INDEX memories_changes ON memories (user_id, change_seq);
"""

# v8: each memory row keeps the words it is found by, as the in-memory index counts them
# (text.stored_index_terms): loading a user reads them instead of tokenizing every memory again.
# Rows written before (NULL) are tokenized at load, as they were.
_V8 = """
ALTER TABLE memories ADD COLUMN index_terms TEXT;
"""

# v9: memories whose vector holds only its fast part, for the background worker that
# completes them (engine/refinement.py): a small index of what is still to do.
_V9 = """
CREATE INDEX memories_pending_vectors ON memories (embedding_model) WHERE embedding_model LIKE '%|pending';
"""

MIGRATIONS: list[str] = [_V1, _V2, _V3, _V4, _V5, _V6, _V7, _V8, _V9]
SCHEMA_VERSION = len(MIGRATIONS)
