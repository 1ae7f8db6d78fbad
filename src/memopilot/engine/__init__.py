"""The engine: the MemoPilot facade and the operations it is made of (lifecycle, maintenance,
the chat turn, portability, views), over the read path (``memopilot.read``), the write path
(``memopilot.write``) and a store (``memopilot.store``)."""
