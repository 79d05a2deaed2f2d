"""The embedding model on the command line (run as a real process): ``--retrieval dense``
and ``hybrid`` with ``--questions``, ``--embeddings`` (384 numbers per record, the model in
``settings``), the model's window in records and summaries, and BAD-INPUT 35 (without the
optional dependency: one line naming the install command, status 2). The model file is the
one the build converts, placed in a user cache folder (``CHUNKER_PY_CACHE``)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from chunker_py.embedding import DIMENSIONS, MODEL_NAME
from chunker_py.embedding.onnx_runtime import cached_model_path

pytestmark = [pytest.mark.subprocess, pytest.mark.cpython_only]
pytest.importorskip("onnxruntime")  # never skipped in CPython: requirements-test.txt

ROOT = Path(__file__).resolve().parents[3]
GUIDE = ROOT / "tests" / "data" / "user_guide.txt"
QUESTIONS = ROOT / "tests" / "data" / "user_guide-questions.csv"


@cache
def built_model() -> Path:
    from sitebuild.model import MODEL_CACHE, model_file, recipe_key

    model_file()
    return next(MODEL_CACHE.glob(f"*-{recipe_key()}.onnx"))


@pytest.fixture(scope="module")
def cache_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("user-cache")
    target = folder / cached_model_path().name
    shutil.copyfile(built_model(), target)
    return folder


def cli(*args: str, cache_dir: Path, extra_env: dict[str, str] | None = None):
    env = {**os.environ, "CHUNKER_PY_CACHE": str(cache_dir), **(extra_env or {})}
    return subprocess.run(
        [sys.executable, *args],
        capture_output=True,
        cwd=ROOT,
        check=False,
        timeout=300,
        text=True,
        encoding="utf-8",
        env=env,
    )


def test_embeddings_are_384_numbers_and_settings_name_the_model(cache_folder: Path) -> None:
    done = cli("-m", "chunker_py", str(GUIDE), "--embeddings", cache_dir=cache_folder)
    assert done.returncode == 0, done.stderr
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert records
    for record in records:
        assert len(record["embedding"]) == DIMENSIONS
        assert abs(sum(x * x for x in record["embedding"]) - 1) < 1e-4
        assert record["settings"]["embedding_model"] == MODEL_NAME
        assert "beyond_model_window" not in record["damage"]  # bm25: the window is no damage


@pytest.mark.parametrize("method", ["dense", "hybrid"])
def test_dense_and_hybrid_name_their_method_and_count_the_window(
    cache_folder: Path, method: str
) -> None:
    args = ["-m", "chunker_py", str(GUIDE), "--questions", str(QUESTIONS), "--size", "2000"]
    done = cli(*args, "--retrieval", method, "--format", "summary", cache_dir=cache_folder)
    assert done.returncode == 0, done.stderr
    (summary,) = [json.loads(line) for line in done.stdout.splitlines()]
    assert summary["evidence"]["retrieval"]["method"] == method
    assert summary["evidence"]["retrieval"]["recall"] > 0.5
    assert summary["damage"]["beyond_model_window"] > 0  # 2,000 code points exceed 256 pieces
    records = cli(*args, "--retrieval", method, cache_dir=cache_folder)
    unseen = [
        json.loads(line)["damage"]["beyond_model_window"] for line in records.stdout.splitlines()
    ]
    assert sum(unseen) == summary["damage"]["beyond_model_window_word_pieces"]
    assert sum(1 for n in unseen if n) == summary["damage"]["beyond_model_window"]


def test_without_the_optional_dependency_one_line_and_status_2(tmp_path: Path) -> None:
    """BAD-INPUT 35: onnxruntime hidden (a module that fails to import) and no model in the
    cache: one line naming the install command, status 2, no traceback."""
    hide = tmp_path / "hide"
    hide.mkdir()
    (hide / "sitecustomize.py").write_text(
        "import sys\nsys.modules['onnxruntime'] = None\n", "utf-8"
    )
    for flags in (["--retrieval", "dense"], ["--embeddings"]):
        done = cli(
            "-m",
            "chunker_py",
            str(GUIDE),
            *flags,
            cache_dir=tmp_path / "empty",
            extra_env={"PYTHONPATH": f"{hide}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"},
        )
        assert done.returncode == 2
        assert done.stdout == ""
        assert len(done.stderr.strip().splitlines()) == 1, done.stderr
        assert 'pip install "chunker_py[embeddings]"' in done.stderr
        assert "Traceback" not in done.stderr
