"""Chunk Inspector's build: the package behind ``python build.py`` (standard library only;
flit_core, pinned, builds the wheel). One job per module, each importing only those above
it in this list:

    paths        where things are (the repository's folders, dist/, .cache/, Chromium)
    shell        the log line and running a command
    pypi         pinned, hash-checked wheels from PyPI (requirements-build.txt)
    npm          node_modules from package-lock.json (npm ci)
    tokendata    chunker_py/_data/: the tokenizers' rank files and vocabulary
    bundle       the page's Python as reproducible zips
    wheel        the chunker_py wheel, built by flit_core
    vendor       the runtime copied into dist/static/vendor/
    snapshot     the start-up snapshot (snapshot_maker.mjs runs snapshot_imports.py in
                 Node's Pyodide) and the lib.zip / app.zip split
    policy       the page's Content-Security-Policy
    offline      the service worker sw.js, its manifest and the build's offline id
    compress     gzip/brotli: which files, the precompressed copies, the server's bodies
    site         dist/ written whole (its layout is described there)
    serve        the development server
    devtest      `build.py test`: test tools, lint, pytest
    mutate       `build.py mutate`: planted bugs the core tests must catch
"""
