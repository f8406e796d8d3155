//! The rule catalogue: one entry per rule, the single source for `explain`,
//! the README's rule table and machine-format rule metadata.

use crate::diagnostic::Severity;

/// Every rule urlint can report. Names are stable once released.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rule {
    /// `non-ascii`: octets 80-FF must be percent-encoded.
    NonAscii,
    /// `control-char`: control characters 00-1F and 7F must be percent-encoded.
    ControlChar,
    /// `unsafe-char`: unsafe characters (space < > " # % { } | \\ ^ ~ [ ] `) must be percent-encoded.
    UnsafeChar,
    /// `bad-escape`: '%' must be followed by two hexadecimal digits.
    BadEscape,
    /// `reserved-char`: a reserved character appears where the scheme gives it no role.
    ReservedChar,
    /// `bad-scheme`: the scheme must be 1*[lowalpha | digit | "+" | "-" | "."].
    BadScheme,
    /// `scheme-case`: schemes are written in lower case.
    SchemeCase,
    /// `unknown-scheme`: the scheme is not defined by RFC 1738 nor configured.
    UnknownScheme,
    /// `missing-slashes`: an IP-based scheme needs '//' before the host.
    MissingSlashes,
    /// `bad-host`: the host is not a valid domain name or dotted IPv4 address.
    BadHost,
    /// `bad-port`: the port must be decimal digits within 0-65535.
    BadPort,
    /// `userinfo-not-allowed`: this scheme takes no user name or password.
    UserinfoNotAllowed,
    /// `password-in-url`: a password written in a URL is exposed to anyone who reads it.
    PasswordInUrl,
    /// `nondefault-port`: a port in the reserved range that is not the scheme's default.
    NondefaultPort,
    /// `encoded-newline`: an encoded CR or LF may be decoded into a protocol command.
    EncodedNewline,
    /// `ftp-typecode`: ';type=' must be one of a, i or d.
    FtpTypecode,
    /// `news-group`: a news URL names a group, '*', or an article <id@host>.
    NewsGroup,
    /// `nntp-article`: an nntp URL is nntp://host/group[/article-number].
    NntpArticle,
    /// `telnet-path`: a telnet URL has nothing after the final '/'.
    TelnetPath,
    /// `file-host`: a file URL is file://[host]/path.
    FileHost,
    /// `mailto-address`: a mailto URL holds one RFC 822 addr-spec.
    MailtoAddress,
    /// `gopher-path`: a gopher path is /gtype selector[%09search[%09gopher+]].
    GopherPath,
    /// `wais-path`: a wais URL is /database, /database?search or /database/wtype/wpath.
    WaisPath,
    /// `prospero-field`: prospero field specs are ';fieldname=fieldvalue'.
    ProsperoField,
    /// `empty-url`: a wrapper holds no URL.
    EmptyUrl,
    /// `hyphen-break`: a line break after '-' makes the hyphen ambiguous.
    HyphenBreak,
    /// `space-in-wrapper`: whitespace inside a line of a wrapped URL is ignored.
    SpaceInWrapper,
    /// `unterminated-wrapper`: a '<URL:' or '<scheme:' wrapper is never closed by '>'.
    UnterminatedWrapper,
    /// `missing-url-prefix`: an angle-bracketed URL without the 'URL:' prefix.
    MissingUrlPrefix,
    /// `bare-url`: a URL in running text without '<URL:...>' delimiters.
    BareUrl,
}

/// A rule's configured level: off, or the severity it reports at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// Not reported.
    Off,
    /// Reported as a warning.
    Warning,
    /// Reported as an error.
    Error,
}

impl Level {
    /// The severity findings get at this level, `None` when off.
    pub fn severity(self) -> Option<Severity> {
        match self {
            Level::Off => None,
            Level::Warning => Some(Severity::Warning),
            Level::Error => Some(Severity::Error),
        }
    }
}

/// Documentation and defaults of one rule.
#[derive(Debug)]
pub struct RuleInfo {
    /// The rule this entry documents.
    pub rule: Rule,
    /// Stable kebab-case name used on the command line and in output.
    pub name: &'static str,
    /// Level before configuration.
    pub default_level: Level,
    /// RFC 1738 section the rule comes from ("2.2", "3.5", "Appendix").
    pub section: &'static str,
    /// One line: what the rule checks.
    pub summary: &'static str,
    /// Why the problem matters, in a few sentences.
    pub explanation: &'static str,
    /// Text that triggers the rule (a URL in context, as a user would write it).
    pub bad_example: &'static str,
    /// The same text corrected, which does not trigger the rule.
    pub good_example: &'static str,
}

/// All rules, in declaration order of [`Rule`].
pub static CATALOGUE: &[RuleInfo] = &[
    RuleInfo {
        rule: Rule::NonAscii,
        name: "non-ascii",
        default_level: Level::Error,
        section: "2.2",
        summary: "octets 80-FF must be percent-encoded",
        explanation: "",
        bad_example: "",
        good_example: "",
    },
    RuleInfo {
        rule: Rule::ControlChar,
        name: "control-char",
        default_level: Level::Error,
        section: "2.2",
        summary: "control characters 00-1F and 7F must be percent-encoded",
        explanation: "",
        bad_example: "",
        good_example: "",
    },
    RuleInfo {
        rule: Rule::UnsafeChar,
        name: "unsafe-char",
        default_level: Level::Error,
        section: "2.2",
        summary: "unsafe characters (space < > \" # % { } | \\ ^ ~ [ ] `) must be percent-encoded",
        explanation: "",
        bad_example: "",
        good_example: "",
    },
    RuleInfo {
        rule: Rule::BadEscape,
        name: "bad-escape",
        default_level: Level::Error,
        section: "2.2",
        summary: "'%' must be followed by two hexadecimal digits",
        explanation: "",
        bad_example: "",
        good_example: "",
    },
    RuleInfo {
        rule: Rule::ReservedChar,
        name: "reserved-char",
        default_level: Level::Error,
        section: "2.2",
        summary: "a reserved character appears where the scheme gives it no role",
        explanation: "",
        bad_example: "",
        good_example: "",
    },
    RuleInfo {
        rule: Rule::BadScheme,
        name: "bad-scheme",
        default_level: Level::Error,
        section: "2.1",
        summary: "the scheme must be lower-case letters, digits, '+', '-' and '.'",
        explanation: "",
        bad_example: "",
        good_example: "",
    },
    RuleInfo {
        rule: Rule::SchemeCase,
        name: "scheme-case",
        default_level: Level::Warning,
        section: "2.1",
        summary: "schemes are written in lower case",
        explanation: "",
        bad_example: "",
        good_example: "",
    },
    RuleInfo {
        rule: Rule::UnknownScheme,
        name: "unknown-scheme",
        default_level: Level::Warning,
        section: "4",
        summary: "the scheme is not defined by RFC 1738 nor configured",
        explanation: "",
        bad_example: "",
        good_example: "",
    },
    RuleInfo {
        rule: Rule::MissingSlashes,
        name: "missing-slashes",
        default_level: Level::Error,
        section: "3.1",
        summary: "an IP-based scheme needs '//' before the host",
        explanation: "",
        bad_example: "",
        good_example: "",
    },
    RuleInfo {
        rule: Rule::BadHost,
        name: "bad-host",
        default_level: Level::Error,
        section: "3.1",
        summary: "the host is not a valid domain name or dotted IPv4 address",
        explanation: "",
        bad_example: "",
        good_example: "",
    },
    RuleInfo {
        rule: Rule::BadPort,
        name: "bad-port",
        default_level: Level::Error,
        section: "3.1",
        summary: "the port must be decimal digits within 0-65535",
        explanation: "",
        bad_example: "",
        good_example: "",
    },
    RuleInfo {
        rule: Rule::UserinfoNotAllowed,
        name: "userinfo-not-allowed",
        default_level: Level::Error,
        section: "3.1",
        summary: "this scheme takes no user name or password",
        explanation: "",
        bad_example: "",
        good_example: "",
    },
    RuleInfo {
        rule: Rule::PasswordInUrl,
        name: "password-in-url",
        default_level: Level::Warning,
        section: "6",
        summary: "a password written in a URL is exposed to anyone who reads it",
        explanation: "",
        bad_example: "",
        good_example: "",
    },
    RuleInfo {
        rule: Rule::NondefaultPort,
        name: "nondefault-port",
        default_level: Level::Warning,
        section: "6",
        summary: "a port in the reserved range that is not the scheme's default",
        explanation: "",
        bad_example: "",
        good_example: "",
    },
    RuleInfo {
        rule: Rule::EncodedNewline,
        name: "encoded-newline",
        default_level: Level::Warning,
        section: "6",
        summary: "an encoded CR or LF may be decoded into a protocol command",
        explanation: "",
        bad_example: "",
        good_example: "",
    },
    RuleInfo {
        rule: Rule::FtpTypecode,
        name: "ftp-typecode",
        default_level: Level::Error,
        section: "3.2.2",
        summary: "';type=' must be one of a, i or d",
        explanation: "",
        bad_example: "",
        good_example: "",
    },
    RuleInfo {
        rule: Rule::NewsGroup,
        name: "news-group",
        default_level: Level::Error,
        section: "3.6",
        summary: "a news URL names a group, '*', or an article <id@host>",
        explanation: "",
        bad_example: "",
        good_example: "",
    },
    RuleInfo {
        rule: Rule::NntpArticle,
        name: "nntp-article",
        default_level: Level::Error,
        section: "3.7",
        summary: "an nntp URL is nntp://host/group[/article-number]",
        explanation: "",
        bad_example: "",
        good_example: "",
    },
    RuleInfo {
        rule: Rule::TelnetPath,
        name: "telnet-path",
        default_level: Level::Error,
        section: "3.8",
        summary: "a telnet URL has nothing after the final '/'",
        explanation: "",
        bad_example: "",
        good_example: "",
    },
    RuleInfo {
        rule: Rule::FileHost,
        name: "file-host",
        default_level: Level::Error,
        section: "3.10",
        summary: "a file URL is file://[host]/path",
        explanation: "",
        bad_example: "",
        good_example: "",
    },
    RuleInfo {
        rule: Rule::MailtoAddress,
        name: "mailto-address",
        default_level: Level::Error,
        section: "3.5",
        summary: "a mailto URL holds one RFC 822 addr-spec",
        explanation: "",
        bad_example: "",
        good_example: "",
    },
    RuleInfo {
        rule: Rule::GopherPath,
        name: "gopher-path",
        default_level: Level::Error,
        section: "3.4",
        summary: "a gopher path is /gtype selector[%09search[%09gopher+]]",
        explanation: "",
        bad_example: "",
        good_example: "",
    },
    RuleInfo {
        rule: Rule::WaisPath,
        name: "wais-path",
        default_level: Level::Error,
        section: "3.9",
        summary: "a wais URL is /database, /database?search or /database/wtype/wpath",
        explanation: "",
        bad_example: "",
        good_example: "",
    },
    RuleInfo {
        rule: Rule::ProsperoField,
        name: "prospero-field",
        default_level: Level::Error,
        section: "3.11",
        summary: "prospero field specs are ';fieldname=fieldvalue'",
        explanation: "",
        bad_example: "",
        good_example: "",
    },
    RuleInfo {
        rule: Rule::EmptyUrl,
        name: "empty-url",
        default_level: Level::Error,
        section: "Appendix",
        summary: "a wrapper holds no URL",
        explanation: "",
        bad_example: "",
        good_example: "",
    },
    RuleInfo {
        rule: Rule::HyphenBreak,
        name: "hyphen-break",
        default_level: Level::Warning,
        section: "Appendix",
        summary: "a line break after '-' makes the hyphen ambiguous",
        explanation: "",
        bad_example: "",
        good_example: "",
    },
    RuleInfo {
        rule: Rule::SpaceInWrapper,
        name: "space-in-wrapper",
        default_level: Level::Warning,
        section: "Appendix",
        summary: "whitespace inside a line of a wrapped URL is ignored",
        explanation: "",
        bad_example: "",
        good_example: "",
    },
    RuleInfo {
        rule: Rule::UnterminatedWrapper,
        name: "unterminated-wrapper",
        default_level: Level::Error,
        section: "Appendix",
        summary: "a '<URL:' or '<scheme:' wrapper is never closed by '>'",
        explanation: "",
        bad_example: "",
        good_example: "",
    },
    RuleInfo {
        rule: Rule::MissingUrlPrefix,
        name: "missing-url-prefix",
        default_level: Level::Off,
        section: "Appendix",
        summary: "an angle-bracketed URL without the 'URL:' prefix",
        explanation: "",
        bad_example: "",
        good_example: "",
    },
    RuleInfo {
        rule: Rule::BareUrl,
        name: "bare-url",
        default_level: Level::Off,
        section: "Appendix",
        summary: "a URL in running text without '<URL:...>' delimiters",
        explanation: "",
        bad_example: "",
        good_example: "",
    },
];

impl Rule {
    /// This rule's catalogue entry.
    pub fn info(self) -> &'static RuleInfo {
        &CATALOGUE[self as usize]
    }

    /// Stable kebab-case name.
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// The rule with this kebab-case name, if any.
    pub fn from_name(name: &str) -> Option<Rule> {
        CATALOGUE
            .iter()
            .find(|info| info.name == name)
            .map(|info| info.rule)
    }

    /// Every rule, in catalogue order.
    pub fn all() -> impl Iterator<Item = Rule> {
        CATALOGUE.iter().map(|info| info.rule)
    }
}

impl std::fmt::Display for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalogue_is_in_declaration_order() {
        for (index, info) in CATALOGUE.iter().enumerate() {
            assert_eq!(info.rule as usize, index, "{} is out of order", info.name);
            assert_eq!(Rule::from_name(info.name), Some(info.rule));
        }
    }
}
