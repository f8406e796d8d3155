"""Find URLs in free text and mail archives and lint them strictly against
RFC 1738: the urlint library, as a Python package.

Everything lives in the native module; this file only re-exports it. See
``__init__.pyi`` for the documented signatures.
"""

from ._urlint import (
    KINDS,
    PROFILES,
    ArchiveSlice,
    Config,
    ConfigError,
    Finding,
    Fix,
    MailUrl,
    MailWarning,
    Url,
    __version__,
    check,
    detect_compression,
    detect_kind,
    extract,
    extract_mail,
    split_mbox,
    validate,
)

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
