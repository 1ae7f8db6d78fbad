"""The REST API and web app: ``create_app(settings)`` builds the FastAPI application."""

from __future__ import annotations

from .app import create_app

__all__ = ["create_app"]
