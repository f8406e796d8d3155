//! The common Internet scheme syntax of section 3.1:
//! `//<user>:<password>@<host>:<port>`, shared by every IP-based scheme.

use std::ops::Range;

use super::chars::{self, ByteSet, Part};
use super::host::{self, HOST_HELP};
use crate::diagnostic::{Applicability, Diagnostic};
use crate::rules::Rule;
use crate::span::Span;
use crate::validate::collector::Collector;

/// Where the parts of a login are in the URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Login {
    /// `<user>:<password>` without the `@`, when an `@` is present.
    pub userinfo: Option<Range<usize>>,
    /// `<host>:<port>`.
    pub hostport: Range<usize>,
}

impl Login {
    /// Where the login ends and the path (its `/`) or the end begins.
    pub(super) fn end(&self) -> usize {
        self.hostport.end
    }

    /// The host, without the port. A bracketed IPv6 literal is kept whole,
    /// so that its colons are not read as a port and it is reported once.
    pub(super) fn host(&self, url: &str) -> Range<usize> {
        let bytes = &url.as_bytes()[self.hostport.clone()];
        let after_literal = match bytes.first() {
            Some(b'[') => memchr::memchr(b']', bytes).map_or(bytes.len(), |at| at + 1),
            _ => 0,
        };
        let end = memchr::memchr(b':', &bytes[after_literal..]).map_or(self.hostport.end, |at| {
            self.hostport.start + after_literal + at
        });
        self.hostport.start..end
    }
}

/// Split the login that starts with the `//` at `slashes`, inside `..end`.
///
/// The login ends at the first `/`; user and password end at its last `@`
/// (an `@` inside them must be encoded, and the last one is the likelier
/// separator). With `query_ends_host`, a `?` also ends the host, so that an
/// http search written without its `/` is reported once, as that.
pub(crate) fn split(url: &str, slashes: usize, end: usize, query_ends_host: bool) -> Login {
    let start = slashes + 2;
    let bytes = url.as_bytes();
    let login_end = memchr::memchr(b'/', &bytes[start..end]).map_or(end, |at| start + at);
    let at_sign = memchr::memrchr(b'@', &bytes[start..login_end]).map(|at| start + at);
    let host_start = at_sign.map_or(start, |at| at + 1);
    let host_end = match query_ends_host {
        true => memchr::memchr(b'?', &bytes[host_start..login_end])
            .map_or(login_end, |at| host_start + at),
        false => login_end,
    };
    Login {
        userinfo: at_sign.map(|at| start..at),
        hostport: host_start..host_end,
    }
}

/// How a scheme treats the parts of a login.
#[derive(Debug, Clone, Copy)]
pub(crate) struct LoginRules {
    /// The scheme's name, for messages.
    pub scheme: &'static str,
    /// Whether a user name and password may be given.
    pub userinfo: bool,
    /// The protocol that decodes user and password into commands, if any.
    pub decoded_by: Option<&'static str>,
    /// The scheme's default port, if it has one.
    pub default_port: Option<u16>,
}

const USERINFO_HELP: &str = "RFC 1738 section 3.1 allows '<user>:<password>@' only for \
     schemes that use them: sections 3.3 and 3.11 allow no user name or password for http \
     and prospero, and section 5 gives gopher, nntp and wais a host and port only";
const PASSWORD_HELP: &str = "RFC 1738 section 6: the use of URLs containing passwords that \
     should be secret is clearly unwise; anyone who reads the text can use it";
const PORT_HELP: &str = "RFC 1738 section 3.1: a port is given in decimal after ':' and \
     the colon is omitted with the port; TCP ports range from 0 to 65535";
const NONDEFAULT_HELP: &str = "RFC 1738 section 6: a URL with a port other than the \
     protocol's default, especially one in the reserved range below 1024, can make a \
     client talk to a different protocol's server and run unintended commands";

/// Check user, password, host and port of `login`.
pub(crate) fn check(collector: &mut Collector, login: &Login, rules: &LoginRules) {
    if let Some(userinfo) = &login.userinfo {
        check_userinfo(collector, userinfo.clone(), rules);
    }
    check_hostport(collector, login, rules.default_port);
}

fn check_userinfo(collector: &mut Collector, userinfo: Range<usize>, rules: &LoginRules) {
    if !rules.userinfo {
        let span = Span::new(userinfo.start, userinfo.end + 1);
        let message = format!("'{}' URLs take no user name or password", rules.scheme);
        collector.push(
            Diagnostic::new(Rule::UserinfoNotAllowed, span, message).with_help(USERINFO_HELP),
        );
        return;
    }
    let bytes = &collector.url().as_bytes()[userinfo.clone()];
    let colon = memchr::memchr(b':', bytes).map(|at| userinfo.start + at);
    let user = userinfo.start..colon.unwrap_or(userinfo.end);
    let part = |name| Part {
        name,
        reserved: ByteSet::of(b";?&="),
        decoded_by: rules.decoded_by,
    };
    chars::check(collector, user, &part("user name"));
    if let Some(colon) = colon {
        let password = colon + 1..userinfo.end;
        chars::check(collector, password.clone(), &part("password"));
        if !password.is_empty() {
            let message = "password written in the URL";
            collector.push(
                Diagnostic::new(Rule::PasswordInUrl, password.into(), message)
                    .with_help(PASSWORD_HELP),
            );
        }
    }
}

fn check_hostport(collector: &mut Collector, login: &Login, default_port: Option<u16>) {
    let url = collector.url();
    let host = login.host(url);
    if host.is_empty() {
        let span = Span::new(host.start, host.start);
        let message = "missing host";
        collector.push(Diagnostic::new(Rule::BadHost, span, message).with_help(HOST_HELP));
    } else if let Some(problem) = host::check(url, host.clone()) {
        collector.push(
            Diagnostic::new(Rule::BadHost, problem.span, problem.message).with_help(HOST_HELP),
        );
    }
    if host.end < login.hostport.end {
        check_port(collector, host.end, login.hostport.end, default_port);
    }
}

/// Check the port after the `:` at `colon`, up to `end`.
pub(crate) fn check_port(
    collector: &mut Collector,
    colon: usize,
    end: usize,
    default_port: Option<u16>,
) {
    let url = collector.url();
    let port = colon + 1..end;
    let text = &url[port.clone()];
    let problem = if text.is_empty() {
        let diagnostic = Diagnostic::new(
            Rule::BadPort,
            Span::new(colon, colon + 1),
            "empty port after ':'",
        );
        // An empty port is the default port (RFC 3986 section 6.2.3 calls
        // `http://h:/` and `http://h/` equivalent): dropping the ':' keeps
        // it. Before `//` the ':' more likely ends the scheme of a second
        // URL glued on (`amqp://a.example;amqp://b.example`), which
        // dropping it would mangle.
        let applicability = match url[colon + 1..].starts_with("//") {
            true => Applicability::Suggestion,
            false => Applicability::MachineApplicable,
        };
        Some(diagnostic.with_fix("", applicability))
    } else if !text.bytes().all(|b| b.is_ascii_digit()) {
        let message = format!("port '{text}' is not a decimal number");
        Some(Diagnostic::new(Rule::BadPort, port.clone().into(), message))
    } else {
        None
    };
    if let Some(diagnostic) = problem {
        collector.push(diagnostic.with_help(PORT_HELP));
        return;
    }
    // Leading zeros are digits like any other; only the value is bounded.
    let significant = text.trim_start_matches('0');
    let value = match significant.len() {
        0 => Some(0),
        1..=5 => significant.parse::<u16>().ok(),
        _ => None,
    };
    let Some(value) = value else {
        let message = format!("port {text} is greater than 65535");
        collector.push(Diagnostic::new(Rule::BadPort, port.into(), message).with_help(PORT_HELP));
        return;
    };
    if let Some(default) = default_port.filter(|&default| value < 1024 && value != default) {
        let message = format!(
            "port {value} is in the reserved range and is not this scheme's default ({default})"
        );
        collector.push(
            Diagnostic::new(Rule::NondefaultPort, port.into(), message).with_help(NONDEFAULT_HELP),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::Rule::*;
    use crate::validate::test_cases::{assert_cases, Expect};

    /// Section 3.1 `login`, `hostport` and `port`, checked through ftp
    /// (which allows a user and password).
    #[test]
    fn rfc1738_3_1_login() {
        let cases: &[(&str, Expect)] = &[
            ("ftp://h.example", &[]),
            ("ftp://h.example:21/", &[]),
            ("ftp://h.example:2121/", &[]),
            ("ftp://u@h.example/", &[]),
            ("ftp://@h.example/", &[]),
            ("ftp://u:@h.example/", &[]),
            ("ftp://u;x=1&y?:@h.example/", &[]),
            (
                "ftp://u:secret@h.example/",
                &[(PasswordInUrl, "secret", None)],
            ),
            ("ftp://u%40x:@h.example/", &[]),
            ("ftp://u@x@h.example/", &[(ReservedChar, "@", Some("%40"))]),
            (
                "ftp://u:p:q@h.example/",
                &[
                    (PasswordInUrl, "p:q", None),
                    (ReservedChar, ":", Some("%3A")),
                ],
            ),
            ("ftp://u~@h.example/", &[(UnsafeChar, "~", Some("%7E"))]),
            (
                "ftp://u%0D%0A@h.example/",
                &[(EncodedNewline, "%0D", None), (EncodedNewline, "%0A", None)],
            ),
            ("ftp://", &[(BadHost, "", None)]),
            ("ftp://:21/", &[(BadHost, "", None)]),
            ("ftp://u@/", &[(BadHost, "", None)]),
            (
                "ftp://h~st.example/~x",
                &[(BadHost, "~", None), (UnsafeChar, "~", Some("%7E"))],
            ),
            (
                "ftp://h..example/a b",
                &[(BadHost, ".", None), (UnsafeChar, " ", Some("%20"))],
            ),
            ("ftp://h.example:/", &[(BadPort, ":", Some(""))]),
            ("ftp://h.example:2l/", &[(BadPort, "2l", None)]),
            ("ftp://h.example:21:21/", &[(BadPort, "21:21", None)]),
            ("ftp://h.example:65536/", &[(BadPort, "65536", None)]),
            ("ftp://h.example:0065535/", &[]),
            (
                "ftp://h.example:99999999999999999999/",
                &[(BadPort, "99999999999999999999", None)],
            ),
            ("ftp://h.example:65535/", &[]),
            ("ftp://h.example:25/", &[(NondefaultPort, "25", None)]),
            ("ftp://h.example:1023/", &[(NondefaultPort, "1023", None)]),
            ("ftp://h.example:1024/", &[]),
            ("ftp://[::1]:2121/", &[(BadHost, "[::1]", None)]),
            ("ftp://[::1/", &[(BadHost, "[::1", None)]),
        ];
        assert_cases(cases);
    }
}
