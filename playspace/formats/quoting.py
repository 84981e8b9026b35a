"""What a message may quote of a user's file: printable, and short.

A message quotes what it found (a key, a value, a file name) so a user can find it; but a
file can hold anything. A value of 5,000 characters would bury the message, and an escape
sequence or a bell would act on the terminal instead of being read. So every message shows
control characters escaped (as Python writes them in a string, ``\\x1b``, ``\\x07``) and cuts a
long quotation short, with ``...`` saying so.
"""

from __future__ import annotations

import re

SHOWN = 60  # characters of a value quoted in a message
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # all but tab and newline
_BREAKS = re.compile(r"[\t\n]")


def _escaped(found: re.Match[str]) -> str:
    return f"\\x{ord(found.group()):02x}"


def printable(text: str) -> str:
    """`text` (a whole message, which may run over lines) with every control character but tab
    and newline escaped (``\\x1b``)."""
    return _CONTROL.sub(_escaped, text)


def clipped(text: str, longest: int = SHOWN) -> str:
    """`text` (a quotation: one line) with every control character escaped, tab and newline
    too, and at most `longest` characters, cut with ``...`` when longer."""
    shown = _BREAKS.sub(_escaped, printable(text))
    return shown if len(shown) <= longest else shown[: longest - 3] + "..."
