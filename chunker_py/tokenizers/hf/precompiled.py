"""SentencePiece's precompiled charsmap (the ``Precompiled`` normalizer), as HF reads it.

The charsmap is a darts-clone double-array trie over UTF-8 bytes followed by the
NUL-separated replacement strings (``spm_precompiled``). HF applies it per extended
grapheme cluster: a cluster shorter than 6 bytes is looked up whole, and if any prefix of
it is in the trie the whole cluster becomes the replacement of the *shortest* such prefix
(SentencePiece's behaviour, kept as is); otherwise each character is looked up alone.
"""

from __future__ import annotations

from ...text.graphemes import Graphemes
from .normalizers import Normalizer
from .tables import Owners, refuse, transform_owners

MAX_CLUSTER = 6  # bytes


class Precompiled(Normalizer):
    def __init__(self, data: bytes) -> None:
        if len(data) < 4:
            refuse("its Precompiled charsmap is truncated")
        size = int.from_bytes(data[:4], "little")
        if size % 4 or 4 + size > len(data) or size == 0:
            refuse("its Precompiled charsmap is truncated")
        trie = data[4 : 4 + size]
        self.units = [int.from_bytes(trie[i : i + 4], "little") for i in range(0, size, 4)]
        self.blob = data[4 + size :]
        try:
            self.blob.decode("utf-8")
        except UnicodeDecodeError:
            refuse("its Precompiled charsmap's replacements are not UTF-8")
        self._found: dict[str, str | None] = {}
        self._active: dict[str, bool] = {}

    def _walk(self, key: bytes) -> tuple[list[int], bool]:
        """(values of the prefixes of ``key`` in the trie, whether all of ``key`` walked)."""
        units = self.units
        results: list[int] = []
        unit = units[0]
        position = (unit >> 10) << ((unit & (1 << 9)) >> 6)
        for byte in key:
            if byte == 0:
                return results, False
            position ^= byte
            if position >= len(units):
                return results, False
            unit = units[position]
            if unit & ((1 << 31) | 0xFF) != byte:
                return results, False
            position ^= (unit >> 10) << ((unit & (1 << 9)) >> 6)
            if (unit >> 8) & 1:
                results.append(units[position] & ((1 << 31) - 1))
        return results, True

    def transform(self, chunk: str) -> str | None:
        """The replacement of the shortest prefix of ``chunk`` in the trie, if any."""
        if chunk in self._found:
            return self._found[chunk]
        results, _ = self._walk(chunk.encode("utf-8"))
        image = None
        if results:
            start = results[0]
            end = self.blob.find(b"\0", start)
            image = self.blob[start : end if end >= 0 else len(self.blob)].decode("utf-8")
        self._found[chunk] = image
        return image

    def active(self, char: str) -> bool:
        """Whether some trie key starts with ``char`` (else no cluster starting with it,
        and not the character alone, is replaced)."""
        known = self._active.get(char)
        if known is None:
            results, walked = self._walk(char.encode("utf-8"))
            known = self._active[char] = bool(results) or walked
        return known

    def apply(self, text: str, owners: Owners) -> tuple[str, Owners]:
        if not any(map(self.active, set(text))):
            return text, owners
        graphemes = Graphemes(text)
        out: list[str] = []
        changes: list[int] = []  # HF's (char, change) stream, for the alignments
        start = 0
        for end in range(1, len(text) + 1):
            if end < len(text) and not graphemes.is_boundary(end):
                continue
            cluster = text[start:end]
            image = None
            if len(cluster.encode("utf-8")) < MAX_CLUSTER and self.active(cluster[0]):
                image = self.transform(cluster)
            if image is not None:
                replace(out, changes, len(cluster), image)
            else:
                for ch in cluster:
                    single = self.transform(ch) if self.active(ch) else None
                    if single is None:
                        out.append(ch)
                        changes.append(0)
                    else:
                        replace(out, changes, 1, single)
            start = end
        new_text = "".join(out)
        if owners is None:
            return new_text, None
        return new_text, transform_owners(owners, changes)


def replace(out: list[str], changes: list[int], old_count: int, new: str) -> None:
    """HF's ``replace`` in precompiled.rs: new characters replace, extra ones are inserted,
    and missing ones are removed after the last character written."""
    out.extend(new)
    changes.extend([0] * len(new))
    diff = len(new) - old_count
    if diff > 0:
        changes[len(changes) - diff :] = [1] * diff
    # mutation: equivalent 0 -> 1 — diff 0 would add 0 to the last change
    elif diff < 0 and changes:
        changes[-1] += diff
