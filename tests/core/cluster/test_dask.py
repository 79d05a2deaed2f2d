"""Cutting a corpus on a real Dask cluster: a LocalCluster of two worker
processes gives the local run's output byte for byte, the run's shared part reaches each
worker once, and a worker killed mid-run is survived (the file retried, or reported)."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import pytest
from distributed import Client, LocalCluster

from chunker_py import Settings
from chunker_py.io.cli import execute
from chunker_py.io.cluster import cut_on_dask, received, split_tasks
from chunker_py.io.corpus import Output, Task, cut_corpus

from .planted import KillingCutter

pytestmark = pytest.mark.subprocess

PROSE = "Reset password. Keep backup codes 😀.\r\nA line, then\r\n\r\nanother paragraph. " * 40
FILES: dict[str, str | bytes] = {
    "guide.md": "---\ntitle: Guide\n---\n# Guide\n\n```py\nx = 1\n```\n\n| a | b |\n|---|---|\n"
    "| 1 | 2 |\n\n" + PROSE,
    "notes.txt": PROSE,
    "deep/more.txt": PROSE.replace("\r\n", "\n") * 3,
    "deep/broken.txt": b"not \xff UTF-8",
    **{f"deep/n{i}.txt": f"File {i}. " + PROSE[: 200 * i] for i in range(1, 9)},
}
RULES = '[[rule]]\nglob = "*.md"\nmode = "markdown"\nchunk_size = 200\n'


@pytest.fixture
def corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name, content in FILES.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_bytes(content.encode())
    (tmp_path / "rules.toml").write_text(RULES)
    monkeypatch.chdir(tmp_path)  # relative paths: the workers started elsewhere
    return tmp_path


def run_cli(*argv: str) -> tuple[int, str, list[str]]:
    written: list[str] = []
    reported: list[str] = []
    status = execute(list(argv), written.append, reported.append)
    return status, "".join(written), reported


ARGV = ("guide.md", "notes.txt", "deep", "--rules", "rules.toml", "--size", "120")
ARGV += ("--overlap", "20", "--meta", "run=7", "--file-meta", "--quiet")


def test_a_local_cluster_gives_the_records_of_jobs_1_byte_for_byte(
    cluster: LocalCluster, corpus: Path
) -> None:
    local = run_cli(*ARGV, "--jobs", "1")
    assert local[0] == 1 and len(local[2]) == 1 and "broken.txt" in local[2][0]
    assert '"mode":"markdown"' in local[1] and '"title":"Guide"' in local[1]
    on_dask = run_cli(*ARGV, "--dask", cluster.scheduler_address)
    assert on_dask == local
    summary = run_cli(*ARGV, "--format", "summary", "--dask", cluster.scheduler_address)
    assert summary == run_cli(*ARGV, "--format", "summary", "--jobs", "1")


def test_the_shared_part_reaches_each_worker_once_not_once_per_file(
    cluster: LocalCluster, corpus: Path
) -> None:
    """Settings travel in the worker plugin, one copy a worker; a file's task holds the
    number of its settings, not the settings; each worker has loaded its tokenizer."""
    tasks = [
        Task(name, Settings(chunk_size=80, chunk_overlap=0, source_name=name))
        for name in FILES
        if name != "deep/broken.txt"
    ]
    jobs, settings = split_tasks(tasks)
    assert len(settings) == len(tasks)  # a source name each
    assert all(b"Settings" not in pickle.dumps(job) for job in jobs)
    with Client(cluster.scheduler_address) as client:
        before = client.run(received)
        done = list(cut_on_dask(cluster.scheduler_address, tasks, Output()))
        after = client.run(received)
        loaded = client.run(_tokenizer_loaded)
    assert [d.text for d in done] == [d.text for d in cut_corpus(tasks, Output())]
    assert {w: after[w] - before.get(w, 0) for w in after} == dict.fromkeys(after, 1)
    assert len(after) == 2 and all(loaded.values())


def _tokenizer_loaded() -> bool:
    from chunker_py.tokenizers import tokenizer_loaded

    return tokenizer_loaded("cl100k_base")


def killing_run(corpus: Path, flags: Path, address: str, killer: str) -> list[Any]:
    """Cut ``deep/*.txt`` and the file ``killer`` with the planted cutter; return the
    results beside the local run's for the same files."""
    (corpus / "deep" / killer).write_text(PROSE)
    names = sorted(str(p.relative_to(corpus)) for p in (corpus / "deep").glob("*.txt"))
    tasks = [Task(n, Settings(source_name=n), f"The file {n}") for n in names]
    done = list(cut_on_dask(address, tasks, Output(), cutter=KillingCutter(str(flags))))
    assert [d.name for d in done] == names  # none lost
    return list(zip(done, cut_corpus(tasks, Output()), strict=True))


def test_a_file_whose_worker_died_is_cut_again(
    cluster: LocalCluster, corpus: Path, tmp_path: Path
) -> None:
    """The only death of the run: the file is cut again on the other worker (or the one
    Dask starts in place of the dead one) and the output is the local run's."""
    flags = tmp_path / "flags"
    flags.mkdir()
    for done, local in killing_run(corpus, flags, cluster.scheduler_address, "die-once.txt"):
        assert (done.text, done.error) == (local.text, local.error), done.name
    assert (flags / "die-once.txt").exists()  # it did kill a worker


def test_a_file_that_kills_every_worker_is_reported_and_the_run_completes(
    cluster: LocalCluster, corpus: Path, tmp_path: Path
) -> None:
    """Past the allowed failures the file is reported as not cut; each other file comes
    out as in the local run, or (if Dask blamed it for a death beside it) is reported
    too: never lost silently."""
    not_cut = "was not cut: the Dask workers cutting it died"
    for done, local in killing_run(corpus, tmp_path, cluster.scheduler_address, "die-always.txt"):
        if done.name == "deep/die-always.txt" or (done.text, done.error) != (
            local.text,
            local.error,
        ):
            assert done.text == "" and not_cut in (done.error or ""), done.name
