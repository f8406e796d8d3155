//! The package's own exception and warning classes.

use pyo3::create_exception;
use pyo3::exceptions::{PyUserWarning, PyValueError};

create_exception!(
    urlint,
    ConfigError,
    PyValueError,
    "A configuration file or text that urlint cannot use; the message is the command line's."
);
create_exception!(
    urlint,
    MailWarning,
    PyUserWarning,
    "A malformed message in a mail archive (the rest of the archive is read), or a compressed stream that breaks (the URLs before the break are listed)."
);
