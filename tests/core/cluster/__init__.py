"""CPython only (tests/pyodide/run.py leaves this package out)."""

import pytest

pytestmark = pytest.mark.cpython_only  # Pyodide: a Dask cluster: worker processes and sockets
