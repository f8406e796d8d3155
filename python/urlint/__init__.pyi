"""Find URLs in free text and mail archives and lint them strictly against
RFC 1738: the urlint library, as a Python package.

Offsets index what was passed: ``start``/``end`` count the characters of a
``str`` (slice the ``str`` with them) or the bytes of ``bytes``;
``start_byte``/``end_byte`` always count bytes (of a ``str``'s UTF-8
encoding). Lines and columns are 1-based, columns in characters;
``end_line``/``end_column`` are just past the end. Mail offsets are archive
byte offsets. Binary data (``bytes``, ``bytearray`` or ``memoryview``) is
decoded as the command line decodes files: UTF-8, any other byte as the
Latin-1 character of the same value. Compressed binary data (gzip, one
member or several, bzip2, xz or zstd, told by its magic bytes) is read as
the data it holds, inflated in memory: offsets, lines and columns are then
those of the decompressed data. Binary data (inflated or not) that opens
with a UTF-16 or UTF-32 byte-order mark is read as the text it holds, as
the command line reads such a file: offsets then index that text in UTF-8,
and lines and columns count its characters after the mark (so does a UTF-8
mark, which is no column either). A stream that breaks (a truncated or
corrupt file) keeps the URLs before the break, and the break is a
MailWarning saying where; a format this build lacks raises ValueError. An
argument of a wrong type raises TypeError("expected str, got NoneType"),
naming what it takes.
"""

import os
from typing import BinaryIO, Final, Literal, final

from typing_extensions import Self, TypeAlias, disjoint_base

__all__ = [
    "KINDS",
    "PROFILES",
    "ArchiveSlice",
    "Config",
    "ConfigError",
    "Finding",
    "Fix",
    "MailUrl",
    "MailWarning",
    "Url",
    "__version__",
    "check",
    "detect_compression",
    "detect_kind",
    "extract",
    "extract_mail",
    "split_mbox",
    "validate",
]

__version__: Final[str]
PROFILES: Final[list[str]]
"""The validator profiles ``profile=`` accepts."""
KINDS: Final[list[str]]
"""The input kinds ``kind=`` accepts, as ``urlint --input`` names them."""

# What ``config=`` takes; a name for these stubs only, not the package's.
_ConfigSource: TypeAlias = Config | str | os.PathLike[str]
_Binary: TypeAlias = bytes | bytearray | memoryview

class ConfigError(ValueError):
    """A configuration urlint cannot use; the message is the command line's."""

class MailWarning(UserWarning):
    """A malformed message in a mail archive (the rest of it is read), or
    a compressed stream that breaks (the URLs before the break are listed)."""

@final
class Config:
    """A parsed ``urlint.toml`` (or ``pyproject.toml`` ``[tool.urlint]``)."""

    @staticmethod
    def from_file(path: str | os.PathLike[str]) -> Config:
        """Read the configuration file at ``path``; raises ConfigError."""
    @staticmethod
    def from_toml(text: str, name: str | os.PathLike[str] = "urlint.toml") -> Config:
        """Parse ``text`` as the file ``name``; raises ConfigError."""
    @property
    def path(self) -> str | None:
        """The file name the configuration was read as."""

@final
class Fix:
    """A repair: the text replacing the finding's span of the URL. Fixes
    are equal when their parts are, hash alike then, and pickle."""

    def __str__(self) -> str:
        """The instruction."""

    @property
    def replacement(self) -> str: ...
    @property
    def applicability(self) -> Literal["machine-applicable", "suggestion"]:
        """Whether ``urlint check --fix`` applies it unasked, or only ``--unsafe-fixes``."""
    @property
    def instruction(self) -> str:
        """The same as a sentence: replace `~` with `%7E`."""

@final
class Finding:
    """One problem with a URL, placed in the input. Findings are equal
    when every field is, hash alike then, and pickle."""

    def __str__(self) -> str:
        """The message."""

    @property
    def url(self) -> str:
        """The URL the finding is about."""
    @property
    def rule(self) -> str:
        """The rule's name (``urlint explain RULE``)."""
    @property
    def severity(self) -> Literal["error", "warning"]: ...
    @property
    def message(self) -> str: ...
    @property
    def help(self) -> str | None: ...
    @property
    def fix(self) -> Fix | None: ...
    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...
    @property
    def start_byte(self) -> int: ...
    @property
    def end_byte(self) -> int: ...
    @property
    def line(self) -> int: ...
    @property
    def column(self) -> int: ...
    @property
    def end_line(self) -> int: ...
    @property
    def end_column(self) -> int: ...

@disjoint_base
class Url:
    """A URL found: ``start``/``end`` span it as written, without the
    ``<URL:`` ``>`` delimiters (a URL wrapped over lines includes the line
    break). URLs of one class are equal when every field is, findings
    included, hash alike then, and pickle."""

    def __str__(self) -> str:
        """The URL (``url``)."""

    @property
    def url(self) -> str:
        """The URL joined: wrapper, ``URL:`` prefix and line breaks removed."""
    @property
    def form(self) -> Literal["wrapped", "angle", "prefixed", "bare"]: ...
    @property
    def findings(self) -> list[Finding]: ...
    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...
    @property
    def start_byte(self) -> int: ...
    @property
    def end_byte(self) -> int: ...
    @property
    def line(self) -> int: ...
    @property
    def column(self) -> int: ...
    @property
    def end_line(self) -> int: ...
    @property
    def end_column(self) -> int: ...

@final
class MailUrl(Url):
    """A URL in a mail archive: offsets are archive bytes, lines and columns
    those of the archive, with the message and MIME part it is in."""

    @property
    def message(self) -> int:
        """1-based number of the message in the archive."""
    @property
    def message_id(self) -> str | None: ...
    @property
    def date(self) -> str | None:
        """RFC 3339 when the Date field parses, else as written."""
    @property
    def subject(self) -> str | None: ...
    @property
    def part(self) -> str:
        """MIME part path (``1``, ``2.1``), or ``header``."""
    @property
    def content_type(self) -> str: ...

@final
class ArchiveSlice:
    """Whole messages of an mbox: archive bytes ``start`` to ``end``.
    Slices are equal when their fields are, hash alike then, and pickle."""

    def __new__(cls, start: int, end: int, line: int, messages_before: int) -> Self: ...
    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...
    @property
    def line(self) -> int:
        """Archive line of the first byte."""
    @property
    def messages_before(self) -> int: ...

def extract(
    text: str | _Binary,
    profile: str | None = None,
    kind: str = "text",
    config: _ConfigSource | None = None,
) -> list[Url]:
    """Every URL in ``text`` read as ``kind`` (see KINDS), with its findings.

    Binary data is read as a file is: a NUL in the first 8 KiB makes it
    binary, which has no URLs; compressed data is read as the data it
    holds, and the records index that; UTF-16 or UTF-32 data with a
    byte-order mark is read as the text it holds, and the records index
    that text in UTF-8. ``kind="mail"`` reads an mbox or a
    message, told apart by the first bytes, as extract_mail does. Raises
    ValueError for an unknown profile or kind, data that kind="mail" finds
    is not mail, or a compression format this build lacks; ConfigError for
    a configuration urlint cannot use. A broken compressed stream is a
    MailWarning.
    """

def check(
    text: str | _Binary,
    profile: str | None = None,
    kind: str = "text",
    config: _ConfigSource | None = None,
) -> list[Finding]:
    """Every finding in ``text``, in source order: ``urlint check``
    (compressed data read as extract reads it)."""

def extract_mail(
    data: _Binary | str,
    profile: str | None = None,
    kind: Literal["auto", "mail", "mbox", "eml"] | str = "auto",
    config: _ConfigSource | None = None,
    at: ArchiveSlice | None = None,
) -> list[MailUrl]:
    """Every URL in a mail archive (mbox or one message), message by message.

    ``kind="auto"`` (or ``"mail"``) tells an mbox from a message by the
    first bytes, and raises ValueError for data that is neither; ``"mbox"``
    and ``"eml"`` read it as one. Compressed data (a ``.mbox.gz``, an
    ``.eml.xz``) is read as the archive it holds, and offsets, lines and
    columns are that archive's; a broken stream keeps the URLs before the
    break and warns. ``at`` says where ``data`` sits when it is a slice of a
    larger plain archive (see split_mbox): offsets, lines and message
    numbers are then the whole archive's; compressed data with ``at``
    raises ValueError. An archive in UTF-16 or UTF-32 with its byte-order
    mark is read as the text it holds, offsets indexing it in UTF-8, and
    with ``at`` raises ValueError. Malformed messages are MailWarning
    warnings, which say where in the archive.
    """

def validate(
    url: str,
    profile: str | None = None,
    config: _ConfigSource | None = None,
) -> list[Finding]:
    """The findings of ``url``, one URL on its own, as ``urlint validate``
    lints it: ``[]`` means it is valid. Surrounding whitespace is not part
    of it; text that is empty or all whitespace, or that has several
    non-blank lines, raises ValueError."""

def detect_kind(head: _Binary, path: str | os.PathLike[str] | None = None) -> str:
    """The kind urlint reads an input as, from its name and first bytes.

    A compressed input (by its name, else its first bytes) is told by what
    it holds: its name without the compression's extension
    (``notes.md.gz`` is ``"markdown"``) and the text its head inflates to.
    A head that opens with a UTF-16 or UTF-32 byte-order mark is told by
    the text it decodes to.
    """

def detect_compression(
    head: _Binary, path: str | os.PathLike[str] | None = None
) -> Literal["gzip", "bzip2", "xz", "zstd"] | None:
    """How an input is compressed, by its name's extension (``.gz``,
    ``.bz2``, ``.xz``, ``.zst``), else by its first bytes; None when it is
    not. Such an input is read whole: it cannot be sliced with split_mbox."""

def split_mbox(file: BinaryIO, target_len: int) -> list[ArchiveSlice]:
    """Cut the mbox read from ``file`` into slices of whole messages of at
    least ``target_len`` bytes each (the last may be shorter). A compressed
    file, or one in UTF-16 or UTF-32 (told by its byte-order mark), raises
    ValueError: read it whole with extract_mail."""
