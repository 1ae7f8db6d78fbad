"""Benchmarks: ``memopilot bench`` (sizes, read/write latency, ingest, disk, RSS) and a peer run."""
