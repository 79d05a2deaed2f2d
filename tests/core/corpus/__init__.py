"""CPython only (tests/pyodide/run.py leaves this package out)."""

import pytest

pytestmark = pytest.mark.cpython_only  # folders, processes, a terminal, PyYAML
