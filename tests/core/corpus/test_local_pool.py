"""``--jobs N``'s process pool (corpus speed): workers forked with the parent's
objects frozen for the garbage collector, the parent's collector left as it was."""

from __future__ import annotations

import gc
import os
import sys

import pytest

from chunker_py.io.corpus import LocalPool

pytestmark = [pytest.mark.cpython_only, pytest.mark.subprocess]


def _worker_state() -> tuple[int, int]:
    """In the worker: its process id and how many objects its collector never scans."""
    return os.getpid(), gc.get_freeze_count()


def test_workers_inherit_the_parents_objects_frozen_and_the_parent_unfreezes() -> None:
    assert gc.get_freeze_count() == 0
    kept_dicts = [{"n": n} for n in range(1000)]  # tracked objects the workers inherit
    with LocalPool(2) as pool:
        states = [pool.submit(_worker_state).result() for _ in range(4)]
        assert gc.get_freeze_count() == 0  # the parent's collections as before
    assert all(pid != os.getpid() for pid, _frozen in states)
    # every worker holds at least the dicts created above among its frozen objects
    assert min(frozen for _pid, frozen in states) >= len(kept_dicts)


def test_a_renewed_pool_forks_its_workers_frozen_too() -> None:
    with LocalPool(1) as pool:
        first = pool.submit(_worker_state).result()
        pool._renew(pool._pool)  # as after a worker died
        second = pool.submit(_worker_state).result()
        assert gc.get_freeze_count() == 0
    assert first[0] != second[0]
    assert first[1] > 0 and second[1] > 0


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork is chosen on Linux")
def test_workers_are_forked_on_linux() -> None:
    from chunker_py.io.pool import _process_pool

    pool = _process_pool(1)
    try:
        assert pool._mp_context.get_start_method() == "fork"  # type: ignore[attr-defined]
    finally:
        pool.shutdown()
