"""The page's modules run here in-process, and the page installs its own embedder (one
that waits for the model's vectors) and adds loaded tokenizer.json files, as it does in
the browser: both are process-wide and put back after each test (the tokenizers after each file,
whose tests share what it loaded)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.conftest import tokenizers_kept


@pytest.fixture(autouse=True)
def _the_pages_embedder_is_put_back() -> Iterator[None]:
    from chunker_py.embedding.supply import current_embedder, use_embedder

    before = current_embedder()
    yield
    use_embedder(before)


@pytest.fixture(autouse=True, scope="module")
def _added_tokenizers_are_dropped() -> Iterator[None]:
    with tokenizers_kept():
        yield
