//! TELNET (section 3.8): `telnet://<user>:<password>@<host>:<port>/`, with
//! nothing after the final, optional `/`.

use std::ops::Range;

use crate::diagnostic::Diagnostic;
use crate::rules::Rule;
use crate::span::Span;
use crate::validate::collector::Collector;

const PATH_HELP: &str = "RFC 1738 section 3.8: a telnet URL designates an interactive \
     service, not a data object; it ends with the login and an optional '/'";

/// Check what follows the host and port: nothing or a lone `/`.
pub(crate) fn check_path(collector: &mut Collector, range: Range<usize>) {
    if range.len() <= 1 {
        return;
    }
    let message = "a telnet URL has nothing after the '/' that ends the login";
    let span = Span::new(range.start + 1, range.end);
    collector.push(Diagnostic::new(Rule::TelnetPath, span, message).with_help(PATH_HELP));
}

#[cfg(test)]
mod tests {
    use crate::rules::Rule::*;
    use crate::validate::test_cases::{assert_cases, Expect};

    /// Section 3.8 `telneturl`.
    #[test]
    fn rfc1738_3_8_telnet() {
        let cases: &[(&str, Expect)] = &[
            ("telnet://h.example", &[]),
            ("telnet://h.example/", &[]),
            ("telnet://h.example:23/", &[]),
            ("telnet://guest@h.example/", &[]),
            ("telnet://guest:@h.example/", &[]),
            (
                "telnet://guest:secret@h.example/",
                &[(PasswordInUrl, "secret", None)],
            ),
            (
                "telnet://g%0D%0A@h.example/",
                &[(EncodedNewline, "%0D", None), (EncodedNewline, "%0A", None)],
            ),
            ("telnet://h.example/menu", &[(TelnetPath, "menu", None)]),
            ("telnet://h.example//", &[(TelnetPath, "/", None)]),
            ("telnet://h.example/a b~", &[(TelnetPath, "a b~", None)]),
            ("telnet://h.example:2323/", &[]),
            ("telnet://h.example:22/", &[(NondefaultPort, "22", None)]),
            ("telnet://-h.example/", &[(BadHost, "-", None)]),
            ("telnet:h.example", &[(MissingSlashes, "", None)]),
        ];
        assert_cases(cases);
    }
}
