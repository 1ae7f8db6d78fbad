"""The read path: candidates from the in-memory index, scores, the packed context and its trace."""
