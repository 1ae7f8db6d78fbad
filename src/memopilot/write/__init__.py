"""The write path: redaction, the memory editors, dates, contradictions and the planner that
turns one message into a change set."""
