"""PyScript's script for the page: starts Chunk Inspector's UI (app/inspector.py).

The start-up snapshot usually holds inspector and the panel modules imported already, so
this file is all PyScript has to compile; on a normal boot the import below loads them.
"""

import inspector
from js import performance

performance.mark("ci:app-imported")  # boot marks: bench/bench_boot.py reports them
inspector.start()
performance.mark("ci:app-started")
