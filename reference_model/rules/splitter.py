"""Split an IBM document into sentences and give each a stable key (pure, deterministic).

The sentence map (:mod:`cfconform.reference_model.rules.sentences`) classifies every sentence of
the five source documents; the documents themselves stay outside the package, so the
map is keyed by :func:`sentence_key`, which needs only the sentence's text.

What counts as a sentence: every non-blank line of a document is a block (a heading,
a table row, a list item, a line of a CFRM statement or a paragraph); a list marker
(``•``, ``1.``) is dropped; a block is split into sentences after ``.``, ``!`` or
``?`` (or ``.)``) followed by white space and a capital letter or ``(``, except after a
caption's number (``Table 1.``).  A heading or a table row has no full stop, so it stays
one sentence.
"""

from __future__ import annotations

import hashlib
import re

_LIST_MARKER = re.compile(r"^(?:•|\d{1,2}\.)\s+")
_BOUNDARY = re.compile(r"(?<=[.!?])\s+(?=[A-Z(“\"])|(?<=[.!?]\))\s+(?=[A-Z(“\"])")
_TYPOGRAPHIC = str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"', "\u00a0": " "})
_NOT_WORD = re.compile(r"[^a-z0-9]+")
_CAPTION = re.compile(r"^(?:Table|Figure) \d+\.$")

#: Words of a sentence's opening kept in its key (for people reading the map).
KEY_WORDS = 6
#: Hex digits of the sentence's SHA-256 kept in its key.
KEY_HASH = 8


def normalise(text: str) -> str:
    """``text`` with white space collapsed and typographic quotes made plain."""
    return " ".join(text.translate(_TYPOGRAPHIC).split())


def split_sentences(text: str) -> list[str]:
    """The sentences of a document, in document order, each normalised (see the module text)."""
    sentences: list[str] = []
    for line in text.splitlines():
        block = _LIST_MARKER.sub("", line.strip())
        pieces: list[str] = []
        for piece in (normalise(s) for s in _BOUNDARY.split(block)):
            if piece and pieces and _CAPTION.match(pieces[-1]):
                pieces[-1] = f"{pieces[-1]} {piece}"
            elif piece:
                pieces.append(piece)
        sentences += pieces
    return sentences


def sentence_key(sentence: str) -> str:
    """A stable key of one sentence: its first words as a slug, then a hash of the whole.

    Two sentences with the same normalised text (a statement repeated in one document)
    share a key, so they share a classification.
    """
    text = normalise(sentence)
    words = _NOT_WORD.sub("-", " ".join(text.lower().split()[:KEY_WORDS])).strip("-")[:48].rstrip("-")
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:KEY_HASH]
    return f"{words}-{digest}" if words else digest
