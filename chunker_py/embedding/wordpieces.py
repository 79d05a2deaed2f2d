"""Text to the model's input ids, as sentence-transformers feeds all-MiniLM-L6-v2.

HF ``tokenizers`` with the model's tokenizer.json, truncation at ``MAX_WORD_PIECES``:
[CLS], the text's WordPiece tokens (the counting tokenizer's own normalisation, words and
pieces, so a count and an encoding never disagree), [SEP]; a longer text keeps its first
``MAX_WORD_PIECES - 2`` tokens. Pure Python: the page encodes with the same code and hands
the ids to its worker, so both doors feed the model the same numbers.
"""

from __future__ import annotations

from ..tokenizers import get_tokenizer
from ..tokenizers.data import read_data
from ..tokenizers.wordpiece import PREFIX, WordPieceTokenizer
from . import MAX_WORD_PIECES

PAD, UNK, CLS, SEP = 0, 100, 101, 102

_IDS: dict[str, int] = {}


def vocabulary() -> dict[str, int]:
    """Word piece -> id (its line in vocab.txt, counted from 0), read once."""
    if not _IDS:
        data = read_data("wordpiece_vocab.txt", "wordpiece").decode("utf-8")
        _IDS.update((piece, index) for index, piece in enumerate(data.split("\n")) if piece)
    return _IDS


def _tokenizer() -> WordPieceTokenizer:
    tokenizer = get_tokenizer("wordpiece")
    assert isinstance(tokenizer, WordPieceTokenizer)
    return tokenizer


def word_piece_ids(text: str, limit: int | None = None) -> list[int]:
    """The ids of ``text``'s WordPiece tokens (no [CLS]/[SEP]), the first ``limit`` of
    them when given (the rest is not computed)."""
    ids = vocabulary()
    tokenizer = _tokenizer()
    out: list[int] = []
    for start, end, special in tokenizer.segments(text):
        if limit is not None and len(out) >= limit:
            break
        if special:
            out.append(ids[text[start:end]])
            continue
        for word in tokenizer.normalised_words(text[start:end]):
            if limit is not None and len(out) >= limit:
                break
            begin = 0
            for piece_end in tokenizer.word_ends(word):
                piece = word[begin:piece_end] if begin == 0 else PREFIX + word[begin:piece_end]
                # a word WordPiece cannot cover (or over 100 characters) is one [UNK]
                out.append(ids.get(piece, UNK))
                begin = piece_end
    return out if limit is None else out[:limit]


def encode(text: str) -> list[int]:
    """[CLS], ``text``'s first ``MAX_WORD_PIECES - 2`` word pieces, [SEP]."""
    return [CLS, *word_piece_ids(text, MAX_WORD_PIECES - 2), SEP]


def unseen_word_pieces(text: str) -> int:
    """How many of ``text``'s word pieces the model does not see (0 when it fits)."""
    return max(0, _tokenizer().count(text) + 2 - MAX_WORD_PIECES)
