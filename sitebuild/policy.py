"""The page's Content-Security-Policy: in index.html's <meta> tag and sent as a header by
the development server (sitebuild/serve.py) and the tests' servers."""

# The strictest policy under which PyScript, Pyodide and Plotly run (tests/page checks
# that nothing is refused). Why each relaxation is there:
#   script-src 'wasm-unsafe-eval'  Pyodide compiles pyodide.asm.wasm; no 'unsafe-eval' needed.
#   style-src 'unsafe-inline'      PyScript's error banner and Plotly set inline styles and
#                                  Plotly injects <style> elements.
#   img-src data: blob:            Plotly's modebar icons and image export.
#   worker-src blob:               static/snapshot.js starts the worker that downloads and
#                                  inflates the start-up snapshot from a blob URL (so it
#                                  needs no request of its own), as PyScript builds its
#                                  workers (if a script asks for one).
CSP = (
    "default-src 'self'; connect-src 'self'; script-src 'self' 'wasm-unsafe-eval'; "
    "style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; "
    "worker-src 'self' blob:; object-src 'none'; base-uri 'none'; form-action 'none'"
)
