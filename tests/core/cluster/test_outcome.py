"""How a file's Dask outcome is read, without a cluster (the cluster tests run workers in
processes, which the mutation run leaves out): a task that killed its workers is reported
as not cut, every other error is raised."""

from __future__ import annotations

from typing import Any

import pytest

from chunker_py.io.cluster import FileTask, _OnDask
from chunker_py.io.corpus import Done


class KilledWorker(Exception):
    """Named as distributed's: the outcome tells the errors apart by name."""


class Failing:
    """A Dask future whose result is ``error``."""

    def __init__(self, error: Exception) -> None:
        self.error = error

    def result(self, timeout: float | None = None) -> Any:
        raise self.error


class Client:
    """Every task submitted fails with ``error``."""

    def __init__(self, error: Exception) -> None:
        self.error = error
        self.submitted = 0

    def submit(self, fn: Any, *args: Any, pure: bool = True) -> Failing:
        self.submitted += 1
        return Failing(self.error)


def job(path: str) -> FileTask:
    return FileTask({"path": path}, 0, path)


def test_a_file_whose_workers_died_is_reported_as_not_cut() -> None:
    client = Client(KilledWorker("3 workers died"))
    outcome = _OnDask(client).submit(print, (job("a.md"),), "run")
    [done] = outcome.result()
    assert isinstance(done, Done) and done.name == "a.md" and done.text == ""
    assert done.error is not None and "a.md was not cut" in done.error
    assert "3 workers died" in done.error


def test_a_batch_whose_workers_died_is_cut_again_file_by_file() -> None:
    client = Client(KilledWorker("gone"))
    outcome = _OnDask(client).submit(print, (job("a.md"), job("b.md")), "run")
    assert [done.name for done in outcome.result()] == ["a.md", "b.md"]
    assert client.submitted == 3  # the batch, then each file alone


def test_any_other_error_is_raised() -> None:
    outcome = _OnDask(Client(ValueError("a bug"))).submit(print, (job("a.md"),), "run")
    with pytest.raises(ValueError, match="a bug"):
        outcome.result()
