//! `authority = [ userinfo "@" ] host [ ":" port ]` (RFC 3986 section 3.2),
//! with what each scheme adds: a required host, a TCP port range, the
//! userinfo it allows, deprecates or forbids.

use std::ops::Range;

use super::chars::{self, Component, USERINFO};
use super::host::{self, HOST_HELP};
use crate::diagnostic::Diagnostic;
use crate::rules::Rule;
use crate::span::Span;
use crate::validate::collector::Collector;

/// Where the parts of an authority are in the URI.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Authority {
    /// The user information, without its `@`.
    pub userinfo: Option<Range<usize>>,
    /// The host: an IP literal with its brackets, or a registered name.
    pub host: Range<usize>,
    /// The port after the host's `:`, when there is a `:`.
    pub port: Option<Range<usize>>,
}

impl Authority {
    /// Split the authority that follows the `//` ending at `start`: it ends
    /// at the first `/` or `?` before `end`. The user information ends at
    /// the last `@` (an `@` inside it must be encoded, and the last one is
    /// the likelier separator); the host ends at the first `:` after an IP
    /// literal's `]`.
    pub(super) fn split(url: &str, start: usize, end: usize) -> Authority {
        let bytes = url.as_bytes();
        let authority_end = bytes[start..end]
            .iter()
            .position(|&b| b == b'/' || b == b'?')
            .map_or(end, |at| start + at);
        let at_sign = memchr::memrchr(b'@', &bytes[start..authority_end]).map(|at| start + at);
        let host_start = at_sign.map_or(start, |at| at + 1);
        let literal_end = match bytes.get(host_start) {
            Some(b'[') => memchr::memchr(b']', &bytes[host_start..authority_end])
                .map_or(authority_end, |at| host_start + at + 1),
            _ => host_start,
        };
        let colon =
            memchr::memchr(b':', &bytes[literal_end..authority_end]).map(|at| literal_end + at);
        Authority {
            userinfo: at_sign.map(|at| start..at),
            host: host_start..colon.unwrap_or(authority_end),
            port: colon.map(|colon| colon + 1..authority_end),
        }
    }

    /// Where the authority ends and the path begins.
    pub(super) fn end(&self) -> usize {
        self.port.as_ref().map_or(self.host.end, |port| port.end)
    }
}

/// What a scheme makes of the user information.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum UserinfoUse {
    /// Allowed; a password in it is a warning (section 3.2.1).
    Allowed,
    /// Deprecated as a whole (http and https, RFC 9110 section 4.2.4).
    Deprecated,
}

/// How a scheme checks its authority.
#[derive(Debug, Clone, Copy)]
pub(crate) struct AuthorityRules {
    /// The scheme's name, for messages.
    pub scheme: &'static str,
    /// Why an empty host is an error, when it is one: such schemes reach a
    /// server, so a registered name must also be a DNS host name.
    pub host_required: Option<&'static str>,
    /// What the user information may be.
    pub userinfo: UserinfoUse,
    /// The protocol that decodes the user information into commands.
    pub decoded_by: Option<&'static str>,
    /// The scheme's default TCP port; a scheme with one has TCP ports.
    pub default_port: Option<u16>,
}

impl AuthorityRules {
    /// The generic syntax alone: any host, any userinfo, any digits as port.
    pub(super) const GENERIC: AuthorityRules = AuthorityRules {
        scheme: "generic",
        host_required: None,
        userinfo: UserinfoUse::Allowed,
        decoded_by: None,
        default_port: None,
    };
}

const PASSWORD_HELP: &str = "RFC 3986 section 3.2.1: use of the format 'user:password' in \
     the userinfo field is deprecated; anyone who reads the text can use the password";
const DEPRECATED_HELP: &str = "RFC 9110 section 4.2.4: a sender must not generate the \
     userinfo subcomponent (and its '@') of an http or https URI; recipients should treat \
     it as an error, since it is often used to disguise the real host";
const PORT_HELP: &str = "RFC 3986 section 3.2.3: port = *DIGIT, a decimal number after the \
     host's ':'";
const PORT_RANGE_HELP: &str = "RFC 3986 section 3.2.3 and RFC 9110 section 4.2.1: this \
     scheme reaches a TCP port, a number from 0 to 65535";
const NONDEFAULT_HELP: &str = "RFC 3986 section 7.2: a port in the well-known range 0-1023 \
     other than the scheme's own can make a client talk to another protocol's server, which \
     then reads the URI's data as its commands";

/// Check user information, host and port of `authority`.
pub(crate) fn check(collector: &mut Collector, authority: &Authority, rules: &AuthorityRules) {
    if let Some(userinfo) = &authority.userinfo {
        check_userinfo(collector, userinfo.clone(), rules);
    }
    let host = authority.host.clone();
    match rules.host_required {
        Some(why) if host.is_empty() => {
            let message = format!("missing host: {why}");
            collector.push(
                Diagnostic::new(Rule::BadHost, Span::new(host.start, host.start), message)
                    .with_help(HOST_HELP),
            );
        }
        _ => host::check(collector, host, rules.host_required.is_some()),
    }
    if let Some(port) = authority.port.clone() {
        check_port(collector, port, rules.default_port);
    }
}

fn check_userinfo(collector: &mut Collector, userinfo: Range<usize>, rules: &AuthorityRules) {
    let component = Component {
        decoded_by: rules.decoded_by,
        ..USERINFO
    };
    chars::check(collector, userinfo.clone(), &component);
    if rules.userinfo == UserinfoUse::Deprecated {
        let span = Span::new(userinfo.start, userinfo.end + 1);
        let message = format!(
            "'{}' URIs should not carry a user name or password",
            rules.scheme
        );
        collector.push(
            Diagnostic::new(Rule::DeprecatedUserinfo, span, message).with_help(DEPRECATED_HELP),
        );
        return;
    }
    let bytes = &collector.url().as_bytes()[userinfo.clone()];
    if let Some(colon) = memchr::memchr(b':', bytes).map(|at| userinfo.start + at) {
        let password = colon + 1..userinfo.end;
        if !password.is_empty() {
            let message = "password written in the URI";
            collector.push(
                Diagnostic::new(Rule::PasswordInUrl, password.into(), message)
                    .with_help(PASSWORD_HELP),
            );
        }
    }
}

/// `port = *DIGIT`; a scheme with a default port reaches TCP ports, which
/// are bounded, and warns about other well-known ports.
fn check_port(collector: &mut Collector, port: Range<usize>, default_port: Option<u16>) {
    let text = &collector.url()[port.clone()];
    if !text.bytes().all(|b| b.is_ascii_digit()) {
        let message = format!("port '{text}' is not a decimal number");
        collector.push(Diagnostic::new(Rule::BadPort, port.into(), message).with_help(PORT_HELP));
        return;
    }
    let Some(default) = default_port else {
        return;
    };
    // Leading zeros are digits like any other; only the value is bounded.
    let significant = text.trim_start_matches('0');
    let value = match significant.len() {
        0 if text.is_empty() => return,
        0 => Some(0),
        1..=5 => significant.parse::<u16>().ok(),
        _ => None,
    };
    let Some(value) = value else {
        let message = format!("port {text} is greater than 65535");
        collector
            .push(Diagnostic::new(Rule::BadPort, port.into(), message).with_help(PORT_RANGE_HELP));
        return;
    };
    if value < 1024 && value != default {
        let message = format!(
            "port {value} is in the well-known range and is not this scheme's default ({default})"
        );
        collector.push(
            Diagnostic::new(Rule::NondefaultPort, port.into(), message).with_help(NONDEFAULT_HELP),
        );
    }
}

/// The hierarchical part and the query (without its `?`) of `url[range]`.
pub(super) fn split_query(url: &str, range: Range<usize>) -> (Range<usize>, Option<Range<usize>>) {
    match memchr::memchr(b'?', &url.as_bytes()[range.clone()]) {
        Some(at) => (
            range.start..range.start + at,
            Some(range.start + at + 1..range.end),
        ),
        None => (range, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rule::*;
    use crate::validate::test_cases::{assert_rfc3986_cases, Expect};

    #[test]
    fn authority_split() {
        let url = "s://u:p@[::1]:80/x";
        let authority = Authority::split(url, 4, url.len());
        assert_eq!(authority.userinfo.clone().map(|r| &url[r]), Some("u:p"));
        assert_eq!(&url[authority.host.clone()], "[::1]");
        assert_eq!(authority.port.clone().map(|r| &url[r]), Some("80"));
        assert_eq!(&url[authority.end()..], "/x");
        let url = "s://a@b@h?q";
        let authority = Authority::split(url, 4, url.len());
        assert_eq!(authority.userinfo.clone().map(|r| &url[r]), Some("a@b"));
        assert_eq!(&url[authority.host.clone()], "h");
        assert_eq!(authority.port, None);
        assert_eq!(&url[authority.end()..], "?q");
    }

    /// Sections 3.2, 3.2.1, 3.2.2 and 3.2.3 through a scheme with only the
    /// generic syntax.
    #[test]
    fn rfc3986_3_2_authority() {
        let cases: &[(&str, Expect)] = &[
            ("example://h.example", &[]),
            ("example://", &[]),
            ("example:///path", &[]),
            ("example://@:/", &[]),
            ("example://u@h.example/", &[]),
            ("example://u;x=1&y!$'()*+,:@h.example/", &[]),
            (
                "example://u:secret@h.example/",
                &[(PasswordInUrl, "secret", None)],
            ),
            ("example://u:@h.example/", &[]),
            ("example://u%40x@h.example/", &[]),
            (
                "example://u@x@h.example/",
                &[(ReservedChar, "@", Some("%40"))],
            ),
            (
                "example://u[1]@h.example/",
                &[
                    (ReservedChar, "[", Some("%5B")),
                    (ReservedChar, "]", Some("%5D")),
                ],
            ),
            ("example://u~-._@h.example/", &[]),
            (
                "example://u v@h.example/",
                &[(UnsafeChar, " ", Some("%20"))],
            ),
            // reg-name
            ("example://a_b~c!$&'()*+,;=d/", &[]),
            ("example://host..example/", &[]),
            ("example://1.2.3.256/", &[]),
            ("example://h%C3%A9.example/", &[]),
            ("example://h%zz/", &[(BadEscape, "%", None)]),
            (
                "example://h\u{e9}.example/",
                &[(NonAscii, "\u{e9}", Some("%C3%A9"))],
            ),
            ("example://h x/", &[(BadHost, " ", None)]),
            ("example://h\"x/", &[(BadHost, "\"", None)]),
            ("example://h]x/", &[(BadHost, "]", None)]),
            // IP-literal
            ("example://[2001:db8::7]/", &[]),
            ("example://[::ffff:192.0.2.1]:8080/", &[]),
            ("example://[v7.fe80::a+en1]/", &[]),
            (
                "example://[2001:db8::7/",
                &[(BadHost, "[2001:db8::7", None)],
            ),
            ("example://[1::2::3]/", &[(BadHost, "[1::2::3]", None)]),
            ("example://[::1]x:80/", &[(BadHost, "x", None)]),
            (
                "example://[fe80::1%25en0]/",
                &[(BadHost, "[fe80::1%25en0]", None)],
            ),
            ("example://[192.0.2.1]/", &[(BadHost, "[192.0.2.1]", None)]),
            // port = *DIGIT, unbounded in the generic syntax
            ("example://h:/", &[]),
            ("example://h:0080/", &[]),
            ("example://h:99999/", &[]),
            ("example://h:8o/", &[(BadPort, "8o", None)]),
            ("example://h:80:80/", &[(BadPort, "80:80", None)]),
            ("example://h:-1/", &[(BadPort, "-1", None)]),
        ];
        assert_rfc3986_cases(cases);
    }
}
