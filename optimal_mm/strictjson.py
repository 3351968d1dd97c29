"""JSON documents read strictly, within a size bound, and at any depth, both ways.

Strategy trees nest two JSON levels per tree level (a node, its ``next``), and a
file may hold anything; the standard :mod:`json` functions recurse and stop with
``RecursionError`` about 1000 levels down, so a valid tree 600 levels deep could be
written by nobody and read by nobody. This module keeps the fast C functions for
ordinary documents and falls back, only when they run out of depth, to an
iterative parser and writer that give the same results (the fuzzing suite checks
that the two agree).

What *strict* means here, for reading (:func:`loads`):

* a key repeated within one object is refused (the standard reader keeps the last,
  so a junk first subtree would pass unseen);
* ``NaN``, ``Infinity`` and ``-Infinity`` (not JSON) are refused;
* integers longer than :data:`MAX_INT_DIGITS` digits are refused (Python refuses to
  convert more than 4300 digits, with a message about its own limit).

Each refusal raises :class:`JSONError` (a ``ValueError``) with a short reason.
:func:`read_bounded` reads a file, gzip or not, refusing one whose content
exceeds a byte limit *while* reading, so ``/dev/zero`` or a gzip bomb costs at
most the limit.

>>> loads('{"a": [1, 2, {"b": null}]}')
{'a': [1, 2, {'b': None}]}
>>> loads('{"a": 1, "a": 2}')
Traceback (most recent call last):
...
optimal_mm.strictjson.JSONError: duplicate key 'a' in one object
>>> deep = "[" * 5000 + "]" * 5000
>>> dumps(loads(deep)) == deep
True
"""

from __future__ import annotations

import io
import json
import re
from json.decoder import scanstring

#: Integers in a document may have at most this many digits.
MAX_INT_DIGITS = 100


class JSONError(ValueError):
    """A document that is valid JSON for Python's reader but not for a strict one."""


def _object(pairs):
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen = set()
        for key, _ in pairs:
            if key in seen:
                raise JSONError(f"duplicate key {key[:40]!r} in one object")
            seen.add(key)
    return obj


def _int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > MAX_INT_DIGITS:
        raise JSONError(f"an integer of {digits} digits (at most {MAX_INT_DIGITS} accepted)")
    return int(text)


def _constant(name: str):
    raise JSONError(f"{name} is not a JSON value")


def loads(text: str):
    """Parse ``text`` strictly (module docstring), at any depth.

    Raises
    ------
    json.JSONDecodeError
        For text that is not JSON (with line and column).
    JSONError
        For a duplicate key, ``NaN``/``Infinity`` or an integer too long.
    """
    try:
        return json.loads(text, object_pairs_hook=_object, parse_int=_int,
                          parse_constant=_constant)
    except RecursionError:
        return _loads_iterative(text)


_WS = re.compile(r"[ \t\n\r]*")
_NUMBER = re.compile(r"(-?(?:0|[1-9][0-9]*))(\.[0-9]+)?([eE][-+]?[0-9]+)?")
_LITERALS = {"null": None, "true": True, "false": False}


def _key(s: str, i: int) -> tuple[str, int]:
    if s[i:i + 1] != '"':
        raise json.JSONDecodeError("Expecting property name enclosed in double quotes", s, i)
    key, i = scanstring(s, i + 1, True)
    i = _WS.match(s, i).end()
    if s[i:i + 1] != ":":
        raise json.JSONDecodeError("Expecting ':' delimiter", s, i)
    return key, _WS.match(s, i + 1).end()


def _loads_iterative(s: str):
    """:func:`loads` with an explicit stack instead of recursion (same checks)."""
    ws = _WS.match
    end = len(s)
    i = ws(s, 0).end()
    stack: list[list] = []  # [True, pairs, pending key] for objects, [False, items] arrays
    while True:
        # A value starts at i.
        c = s[i:i + 1]
        if c == "{":
            i = ws(s, i + 1).end()
            if s[i:i + 1] == "}":
                value, i = {}, i + 1
            else:
                key, i = _key(s, i)
                stack.append([True, [], key])
                continue
        elif c == "[":
            i = ws(s, i + 1).end()
            if s[i:i + 1] == "]":
                value, i = [], i + 1
            else:
                stack.append([False, []])
                continue
        elif c == '"':
            value, i = scanstring(s, i + 1, True)
        else:
            for word, literal in _LITERALS.items():
                if s.startswith(word, i):
                    value, i = literal, i + len(word)
                    break
            else:
                for word in ("NaN", "Infinity", "-Infinity"):
                    if s.startswith(word, i):
                        _constant(word)
                m = _NUMBER.match(s, i)
                if not m:
                    raise json.JSONDecodeError("Expecting value", s, i)
                integer, frac, exp = m.groups()
                value = (float(integer + (frac or "") + (exp or "")) if frac or exp
                         else _int(integer))
                i = m.end()
        # The value is complete: put it in its container, closing those that end here.
        while True:
            i = ws(s, i).end()
            if not stack:
                if i != end:
                    raise json.JSONDecodeError("Extra data", s, i)
                return value
            frame = stack[-1]
            if frame[0]:
                frame[1].append((frame[2], value))
                closer = "}"
            else:
                frame[1].append(value)
                closer = "]"
            c = s[i:i + 1]
            if c == ",":
                i = ws(s, i + 1).end()
                if frame[0]:
                    frame[2], i = _key(s, i)
                break
            if c != closer:
                raise json.JSONDecodeError("Expecting ',' delimiter", s, i)
            i += 1
            stack.pop()
            value = _object(frame[1]) if frame[0] else frame[1]


def dumps(obj, *, sort_keys: bool = False, indent: int | None = None,
          ensure_ascii: bool = False) -> str:
    """``json.dumps`` (compact separators without ``indent``) that works at any depth.

    ``NaN`` and infinities are refused (``ValueError``), as :func:`loads` refuses them.
    """
    separators = (",", ":") if indent is None else (",", ": ")
    try:
        return json.dumps(obj, sort_keys=sort_keys, indent=indent, separators=separators,
                          ensure_ascii=ensure_ascii, allow_nan=False)
    except RecursionError:
        return _dumps_iterative(obj, sort_keys, indent, ensure_ascii)


def _dumps_iterative(obj, sort_keys, indent, ensure_ascii) -> str:
    def scalar(value):
        return json.dumps(value, ensure_ascii=ensure_ascii, allow_nan=False)

    key_sep = ":" if indent is None else ": "
    out: list[str] = []
    active: set[int] = set()  # containers on the current path (cycle check)
    work: list = [(obj, 0)]
    while work:
        item = work.pop()
        if isinstance(item, str):
            out.append(item)
            continue
        if isinstance(item, int):  # a container's end: leave the path
            active.discard(item)
            continue
        value, level = item
        if not isinstance(value, (dict, list, tuple)):
            out.append(scalar(value))
            continue
        if not value:
            out.append("{}" if isinstance(value, dict) else "[]")
            continue
        if id(value) in active:
            raise ValueError("Circular reference detected")
        active.add(id(value))
        inner = "" if indent is None else "\n" + " " * (indent * (level + 1))
        outer = "" if indent is None else "\n" + " " * (indent * level)
        seq: list = []
        if isinstance(value, dict):
            items = sorted(value.items()) if sort_keys else list(value.items())
            for n, (key, child) in enumerate(items):
                if not isinstance(key, str):
                    key = scalar(key).strip('"')
                seq.append(("," if n else "") + inner + scalar(key) + key_sep)
                seq.append((child, level + 1))
            out.append("{")
            seq.append(outer + "}")
        else:
            for n, child in enumerate(value):
                seq.append(("," if n else "") + inner)
                seq.append((child, level + 1))
            out.append("[")
            seq.append(outer + "]")
        seq.append(id(value))
        work.extend(reversed(seq))
    return "".join(out)


def read_bounded(path, limit: int) -> bytes:
    """The content of ``path`` (decompressed when it starts like gzip), at most ``limit`` bytes.

    Raises
    ------
    OSError
        When the file cannot be read.
    JSONError
        When the file, or what it inflates to, is longer than ``limit`` bytes.
    EOFError, gzip.BadGzipFile, zlib.error
        For a damaged gzip stream.
    """
    with open(path, "rb") as fh:
        raw = fh.read(limit + 1)
    if len(raw) > limit:
        raise JSONError(f"larger than the limit of {limit:,} bytes")
    if raw[:2] == b"\x1f\x8b":
        import gzip  # here: a command that reads no tree file never needs it

        with gzip.GzipFile(fileobj=io.BytesIO(raw)) as unzip:
            raw = unzip.read(limit + 1)
        if len(raw) > limit:
            raise JSONError(f"inflates to more than the limit of {limit:,} bytes")
    return raw
