"""Use a running MemoPilot server from Python: `memopilot serve` first, then run this."""

import sys

from memopilot import Client

with Client(sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000") as mp:
    mp.add("We decided to use PostgreSQL for billing.", type="decision")
    reply = mp.chat("Which database do we use for billing?")
    print(reply.answer)
    for hit in mp.search("billing"):
        print(f"{hit.score:.3f}  {hit.memory.content}")
