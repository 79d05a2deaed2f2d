from typing import Any
import pytest
from .conftest import launch_app
from .test_long_tasks import OBSERVE, PROSE, nested_list, tasks

pytestmark = pytest.mark.browser

PATCH = '''
import inspector, time
from js import window
LOG = []
_orig = inspector.Page._guarded
def _guarded(self, work):
    name = getattr(work, "__qualname__", "?")
    code = getattr(work, "__code__", None)
    if code is not None:
        name += f":{code.co_firstlineno}"
    cells = getattr(work, "__closure__", None) or ()
    for c in cells:
        try:
            v = c.cell_contents
        except ValueError:
            continue
        if hasattr(v, "gi_frame") and v.gi_frame is not None:
            f = v.gi_frame
            while f is not None:
                inner = f.f_locals
                name += f" {f.f_code.co_name}:{f.f_lineno}"
                sub = getattr(f, "f_back", None)
                break
    t0 = window.performance.now()
    try:
        return _orig(self, work)
    finally:
        LOG.append((name, t0, window.performance.now() - t0))
inspector.Page._guarded = _guarded
_oc = inspector.Page._collect
def _collect(self):
    t0 = window.performance.now()
    _oc(self)
    LOG.append(("collect", t0, window.performance.now() - t0))
inspector.Page._collect = _collect
'''

def test_trace(browser: Any, server: Any) -> None:
    app = launch_app(browser, server.url, viewport={"width": 1400, "height": 900})
    app.open().wait_ready()
    app.page.evaluate(OBSERVE)
    app.python(PATCH)
    for mode in ("Fixed size", "Token window"):
        app.choose(mode)
        tasks(app, PROSE[:-1])
        tasks(app, PROSE)
        app.python("LOG.clear()")
        print(mode, "nested", tasks(app, nested_list()))
        longs = app.page.evaluate("() => window.__longTasks")
        print("long", [(round(a), round(b)) for a, b in longs])
        for name, t0, d in app.python("[list(x) for x in LOG]"):
            if d > 30 or name == 'collect' and d > 5:
                print("  ", round(t0), round(d), name)
    app.page.context.close()
