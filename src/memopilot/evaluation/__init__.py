"""Evaluation: scenario suites (``memopilot eval scenarios``) and the LoCoMo retrieval benchmark
(``memopilot eval locomo``), each comparing the memory layer with baselines."""
