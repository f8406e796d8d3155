//! The rule catalogue: one entry per rule, the single source for `explain`,
//! the README's rule table and machine-format rule metadata; with it, the
//! levels and severities rules report at, and looking rules up by name.
//!
//! Each entry says which profiles report the rule and which RFC section it
//! comes from in each, and carries bad and good examples that the test
//! suite runs under their profiles.

use crate::profile::Profile;

/// Every rule urlint can report, named by its catalogue entry
/// ([`Rule::info`]); names are stable once released.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Rule {
    /// `non-ascii`
    NonAscii,
    /// `control-char`
    ControlChar,
    /// `unsafe-char`
    UnsafeChar,
    /// `bad-escape`
    BadEscape,
    /// `reserved-char`
    ReservedChar,
    /// `bad-scheme`
    BadScheme,
    /// `scheme-case`
    SchemeCase,
    /// `unknown-scheme`
    UnknownScheme,
    /// `missing-slashes`
    MissingSlashes,
    /// `bad-host`
    BadHost,
    /// `bad-port`
    BadPort,
    /// `userinfo-not-allowed`
    UserinfoNotAllowed,
    /// `deprecated-userinfo`
    DeprecatedUserinfo,
    /// `password-in-url`
    PasswordInUrl,
    /// `nondefault-port`
    NondefaultPort,
    /// `encoded-newline`
    EncodedNewline,
    /// `ftp-typecode`
    FtpTypecode,
    /// `news-group`
    NewsGroup,
    /// `nntp-article`
    NntpArticle,
    /// `telnet-path`
    TelnetPath,
    /// `file-host`
    FileHost,
    /// `mailto-address`
    MailtoAddress,
    /// `gopher-path`
    GopherPath,
    /// `wais-path`
    WaisPath,
    /// `prospero-field`
    ProsperoField,
    /// `empty-url`
    EmptyUrl,
    /// `hyphen-break`
    HyphenBreak,
    /// `space-in-wrapper`
    SpaceInWrapper,
    /// `unterminated-wrapper`
    UnterminatedWrapper,
    /// `broken-bare-url`
    BrokenBareUrl,
    /// `missing-url-prefix`
    MissingUrlPrefix,
    /// `bare-url`
    BareUrl,
    /// `bad-template`
    BadTemplate,
    /// `unused-suppression`
    UnusedSuppression,
    /// `unknown-rule`
    UnknownRule,
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

/// Level names as configuration files and flags spell them.
const LEVEL_NAMES: [(&str, Level); 3] = [
    ("off", Level::Off),
    ("warning", Level::Warning),
    ("error", Level::Error),
];

impl Level {
    /// The level's name: `off`, `warning` or `error`.
    pub fn name(self) -> &'static str {
        LEVEL_NAMES
            .iter()
            .find(|(_, level)| *level == self)
            .map_or("off", |(name, _)| name)
    }

    /// The level called `name`, or an error message listing the names.
    pub fn from_name(name: &str) -> Result<Level, String> {
        LEVEL_NAMES
            .iter()
            .find(|(spelled, _)| *spelled == name)
            .map(|&(_, level)| level)
            .ok_or_else(|| {
                format!("unknown level '{name}': expected \"off\", \"warning\" or \"error\"")
            })
    }

    /// The severity findings get at this level, `None` when off.
    pub fn severity(self) -> Option<Severity> {
        match self {
            Level::Off => None,
            Level::Warning => Some(Severity::Warning),
            Level::Error => Some(Severity::Error),
        }
    }
}

/// How serious a finding is once it is reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Severity {
    /// Worth a look; fails a run only under `--deny warnings`.
    Warning,
    /// The URL breaks its profile's grammar; fails a `check` run.
    Error,
}

impl Severity {
    /// Lower-case name used in every output format: the name of the level
    /// that reports at this severity.
    pub fn as_str(self) -> &'static str {
        Level::from(self).name()
    }
}

impl From<Severity> for Level {
    fn from(severity: Severity) -> Level {
        match severity {
            Severity::Warning => Level::Warning,
            Severity::Error => Level::Error,
        }
    }
}

/// Documentation and defaults of one rule.
#[derive(Debug)]
#[non_exhaustive]
pub struct RuleInfo {
    /// The rule this entry documents.
    pub rule: Rule,
    /// Stable kebab-case name used on the command line and in output.
    pub name: &'static str,
    /// Level before configuration.
    pub default_level: Level,
    /// The profiles that report the rule, each with the section it comes from.
    pub sources: &'static [RuleSource],
    /// One line: what the rule checks.
    pub summary: &'static str,
    /// Why the problem matters, in a few sentences.
    pub explanation: &'static str,
    /// Text that triggers the rule and the same text corrected, per profile.
    pub examples: &'static [Example],
}

impl RuleInfo {
    /// Whether `profile` reports this rule.
    pub fn applies_to(&self, profile: Profile) -> bool {
        self.source(profile).is_some()
    }

    /// Where the rule comes from under `profile`, if that profile reports it.
    pub fn source(&self, profile: Profile) -> Option<&'static RuleSource> {
        self.sources.iter().find(|source| source.profile == profile)
    }
}

/// Where a rule comes from in one profile.
#[derive(Debug)]
#[non_exhaustive]
pub struct RuleSource {
    /// The profile that reports the rule.
    pub profile: Profile,
    /// The document and section the rule checks, "RFC 3986 section 3.2.2".
    pub reference: &'static str,
}

/// A bad and a good example of a rule, as a user would write them.
#[derive(Debug)]
#[non_exhaustive]
pub struct Example {
    /// The profiles under which the bad text triggers the rule and the good does not.
    pub profiles: &'static [Profile],
    /// Text that triggers the rule (a URL in context).
    pub bad: &'static str,
    /// The same text corrected.
    pub good: &'static str,
}

const fn rfc1738(reference: &'static str) -> RuleSource {
    RuleSource {
        profile: Profile::Rfc1738,
        reference,
    }
}

const fn rfc3986(reference: &'static str) -> RuleSource {
    RuleSource {
        profile: Profile::Rfc3986,
        reference,
    }
}

const fn example(profiles: &'static [Profile], bad: &'static str, good: &'static str) -> Example {
    Example {
        profiles,
        bad,
        good,
    }
}

const BOTH: &[Profile] = &[Profile::Rfc1738, Profile::Rfc3986];
const R1738: &[Profile] = &[Profile::Rfc1738];
const R3986: &[Profile] = &[Profile::Rfc3986];

/// The reference of rules about urlint's own comments rather than URLs.
const URLINT: &str = "urlint's inline suppressions";

/// All rules, in declaration order of [`Rule`].
pub static CATALOGUE: &[RuleInfo] = &[
    RuleInfo {
        rule: Rule::NonAscii,
        name: "non-ascii",
        default_level: Level::Error,
        sources: &[
            rfc1738("RFC 1738 section 2.2"),
            rfc3986("RFC 3986 section 2.5"),
        ],
        summary: "non-ASCII characters must be percent-encoded as their UTF-8 octets",
        explanation: "URLs are written only with graphic US-ASCII characters. A character outside \
             US-ASCII has no single octet form: two systems may encode it differently and a \
             mail gateway may mangle it, so the URL stops being a reliable name. Encode each \
             octet of the character's UTF-8 form as %XX; urlint's fix does exactly that. \
             Under rfc3986 the help also says whether the text as written is a valid IRI (RFC \
             3987), the internationalized form that some tools accept and URI-only tools do \
             not.",
        examples: &[example(
            BOTH,
            "See <URL:http://host.example/caf\u{e9}/menu.html>.",
            "See <URL:http://host.example/caf%C3%A9/menu.html>.",
        )],
    },
    RuleInfo {
        rule: Rule::ControlChar,
        name: "control-char",
        default_level: Level::Error,
        sources: &[
            rfc1738("RFC 1738 section 2.2"),
            rfc3986("RFC 3986 section 2"),
        ],
        summary: "control characters 00-1F and 7F must be percent-encoded",
        explanation: "Control characters (00-1F and 7F) have no graphic form: they cannot be \
             printed, read aloud or typed, and transports strip or act on them. A URL that \
             needs one of these octets must encode it as %XX. Tabs and line breaks inside a \
             <URL:...> wrapper are layout and are removed when the URL is extracted, so \
             this rule is about control characters that stay in the URL.",
        examples: &[example(
            BOTH,
            "See <URL:http://host.example/a\u{7f}b.html>.",
            "See <URL:http://host.example/a%7Fb.html>.",
        )],
    },
    RuleInfo {
        rule: Rule::UnsafeChar,
        name: "unsafe-char",
        default_level: Level::Error,
        sources: &[
            rfc1738("RFC 1738 section 2.2"),
            rfc3986("RFC 3986 section 2"),
        ],
        summary:
            "characters URLs never hold unencoded (space < > \" { } | \\ ^ `, and in RFC 1738 ~ \
             [ ] # too) must be percent-encoded",
        explanation: "Some printable characters are unsafe: space may appear or vanish in \
             transcription, '<', '>' and '\"' delimit URLs in text, and gateways are known to \
             change '{', '}', '|', '\\', '^' and '`'. They must always be encoded, even in \
             systems that would not misread them, so that the URL survives being copied \
             elsewhere. RFC 1738 adds '~', '[' and ']', and '#', which only ever separates a \
             URL from its fragment: the first '#' starts the fragment identifier and a second \
             one is reported. RFC 3986 counts '~' among the unreserved characters and '[', \
             ']' and '#' among the delimiters (see reserved-char).",
        examples: &[
            example(
                R1738,
                "See <URL:http://host.example/~user/>.",
                "See <URL:http://host.example/%7Euser/>.",
            ),
            example(
                R3986,
                "See <http://host.example/a|b/>.",
                "See <http://host.example/a%7Cb/>.",
            ),
        ],
    },
    RuleInfo {
        rule: Rule::BadEscape,
        name: "bad-escape",
        default_level: Level::Error,
        sources: &[
            rfc1738("RFC 1738 section 2.2"),
            rfc3986("RFC 3986 section 2.1"),
        ],
        summary: "'%' must be followed by two hexadecimal digits",
        explanation:
            "A '%' always starts an escape: it must be followed by two hexadecimal digits \
             giving the octet. A '%' followed by anything else has no defined meaning, and \
             readers disagree on what to do with it. A literal percent sign is written %25; \
             urlint gives no automatic fix because the '%' may also be a mistyped escape.",
        examples: &[example(
            BOTH,
            "Download <URL:ftp://host.example/pub/100%/report.txt>.",
            "Download <URL:ftp://host.example/pub/100%25/report.txt>.",
        )],
    },
    RuleInfo {
        rule: Rule::ReservedChar,
        name: "reserved-char",
        default_level: Level::Error,
        sources: &[
            rfc1738("RFC 1738 section 2.2"),
            rfc3986("RFC 3986 section 2.2"),
        ],
        summary: "a reserved character appears where the scheme gives it no role",
        explanation:
            "Reserved characters delimit a URL's parts: ';', '/', '?', ':', '@', '=' and '&' \
             in RFC 1738; in RFC 3986 the delimiters ':', '/', '?', '#', '[', ']' and '@' and \
             the sub-delimiters '!', '$', '&', ''', '(', ')', '*', '+', ',', ';' and '='. \
             Where the grammar gives a reserved character no role, such as ';' in an ftp \
             name, a second '#', or '[' outside an IPv6 address, it must be encoded: \
             otherwise a reader cannot tell data from structure, and encoding it later would \
             change the URL's meaning. The fix is the character's %XX form. RFC 3986's \
             sub-delimiters are data in paths, queries and fragments and are never flagged \
             there; mailto header fields (RFC 6068) and ftp names keep their own stricter \
             sets.",
        examples: &[
            example(
                R1738,
                "See <URL:ftp://host.example/notes;draft.txt>.",
                "See <URL:ftp://host.example/notes%3Bdraft.txt>.",
            ),
            example(
                R3986,
                "See <http://host.example/list[1].html>.",
                "See <http://host.example/list%5B1%5D.html>.",
            ),
        ],
    },
    RuleInfo {
        rule: Rule::BadScheme,
        name: "bad-scheme",
        default_level: Level::Error,
        sources: &[
            rfc1738("RFC 1738 section 2.1"),
            rfc3986("RFC 3986 section 3.1"),
        ],
        summary: "a URL starts with a scheme of letters, digits, '+', '-' and '.' and a ':'",
        explanation:
            "Every URL is <scheme>:<scheme-specific-part>, and the scheme decides how the \
             rest is read. Text without a ':' or with other characters before it is not a URL \
             at all: a host name alone ('www.host.example') does not say which protocol to \
             use. Write the scheme out. RFC 3986 also requires the scheme to start with a \
             letter.",
        examples: &[example(
            BOTH,
            "See <URL:www.host.example/index.html>.",
            "See <URL:http://www.host.example/index.html>.",
        )],
    },
    RuleInfo {
        rule: Rule::SchemeCase,
        name: "scheme-case",
        default_level: Level::Warning,
        sources: &[
            rfc1738("RFC 1738 section 2.1"),
            rfc3986("RFC 3986 section 3.1"),
        ],
        summary: "schemes are written in lower case",
        explanation:
            "RFC 1738 writes scheme names in lower case, and RFC 3986 asks for lower-case \
             schemes in the URIs that programs produce. Programs interpreting URLs should \
             treat 'HTTP' like 'http', but not every program does, and URLs that differ only \
             in case compare unequal in simple tools. The fix writes the scheme in lower \
             case.",
        examples: &[example(
            BOTH,
            "See <URL:HTTP://host.example/>.",
            "See <URL:http://host.example/>.",
        )],
    },
    RuleInfo {
        rule: Rule::UnknownScheme,
        name: "unknown-scheme",
        default_level: Level::Warning,
        sources: &[rfc1738("RFC 1738 section 4"), rfc3986("RFC 7595 section 3")],
        summary: "the scheme is not the profile's own (RFC 1738's, or IANA's permanent registry) \
             nor configured",
        explanation:
            "Under rfc1738, RFC 1738 defines ftp, http, gopher, mailto, news, nntp, telnet, \
             wais, file and prospero, and reserves afs, mid, cid, nfs, tn3270, mailserver and \
             z39.50 (checked with the generic syntax); urlint also accepts https, which is \
             HTTP over TLS with exactly http's syntax, and names starting with 'x-' are for \
             experiments by mutual agreement. Under rfc3986, any scheme is checked with the \
             generic syntax, and the warning names schemes that are not in IANA's permanent \
             URI scheme registry, provisional ones such as ssh included. Either way an \
             unknown scheme may be a typo or a private convention: configure the schemes you \
             rely on as extra schemes.",
        examples: &[example(
            BOTH,
            "Chat in <URL:irc://irc.host.example/urlint>.",
            "Log in with <URL:telnet://host.example/>.",
        )],
    },
    RuleInfo {
        rule: Rule::MissingSlashes,
        name: "missing-slashes",
        default_level: Level::Error,
        sources: &[
            rfc1738("RFC 1738 section 3.1"),
            rfc3986("RFC 9110 section 4.2.1"),
        ],
        summary: "an IP-based scheme needs '//' before the host",
        explanation:
            "Schemes that reach a host over an IP-based protocol start their scheme-specific \
             part with '//' to show that the common Internet syntax \
             //<user>:<password>@<host>:<port>/<url-path> follows. Without it the host cannot \
             be told from a path, so the URL is not parsed further. Under rfc3986 this holds \
             for http and https (RFC 9110) and for ftp; other schemes may go without an \
             authority.",
        examples: &[example(
            BOTH,
            "See <URL:http:host.example/index.html>.",
            "See <URL:http://host.example/index.html>.",
        )],
    },
    RuleInfo {
        rule: Rule::BadHost,
        name: "bad-host",
        default_level: Level::Error,
        sources: &[
            rfc1738("RFC 1738 section 3.1"),
            rfc3986("RFC 3986 section 3.2.2"),
        ],
        summary: "the host is not a valid host name, IPv4 address or (RFC 3986) IP literal",
        explanation: "Under rfc1738, a host is a fully qualified domain name or an IPv4 address: \
             domain labels are letters, digits and inner hyphens, separated by single dots, \
             and the top label never starts with a digit, which is how a name is told from an \
             address of four decimal numbers 0-255. Under rfc3986, a host is an IPv6 or \
             future IP literal in brackets, an IPv4 address, or a registered name of \
             unreserved characters, sub-delimiters and percent-encodings; http, https and ftp \
             need a non-empty one, and their registered names are DNS host names (RFC 1123): \
             labels of letters, digits and inner hyphens, internationalized ones aside, the \
             top one not all digits. A host is judged as a whole and reported once, on the offending \
             characters.",
        examples: &[
            example(
                R1738,
                "See <URL:http://host..example/>.",
                "See <URL:http://host.example/>.",
            ),
            example(
                R3986,
                "See <http://[2001:db8::1::2]/>.",
                "See <http://[2001:db8::1]/>.",
            ),
        ],
    },
    RuleInfo {
        rule: Rule::BadPort,
        name: "bad-port",
        default_level: Level::Error,
        sources: &[
            rfc1738("RFC 1738 section 3.1"),
            rfc3986("RFC 3986 section 3.2.3"),
        ],
        summary: "the port must be decimal digits (0-65535 for TCP schemes)",
        explanation:
            "A port is given in decimal digits after the host's ':'. Under rfc1738 it must be \
             a TCP port, 0 to 65535, and when the port is omitted the colon is omitted too, \
             so an empty port is an error (the fix removes the colon). Under rfc3986 a port \
             is any run of digits, possibly empty, and only schemes that reach TCP ports \
             (http, https, ftp) bound it to 65535.",
        examples: &[example(
            BOTH,
            "See <URL:http://host.example:80a/>.",
            "See <URL:http://host.example:8080/>.",
        )],
    },
    RuleInfo {
        rule: Rule::UserinfoNotAllowed,
        name: "userinfo-not-allowed",
        default_level: Level::Error,
        sources: &[rfc1738("RFC 1738 section 3.3")],
        summary: "this scheme takes no user name or password (http, gopher, nntp, wais, prospero)",
        explanation: "Only some schemes use the '<user>:<password>@' part of the common Internet \
             syntax, ftp and telnet among them. RFC 1738 allows none for http and prospero \
             (sections 3.3 and 3.11) and gives gopher, nntp and wais a host and port only \
             (section 5): clients would ignore or misread a user name there, and 'user@' is \
             often used to disguise the real host.",
        examples: &[example(
            R1738,
            "See <URL:http://guest@host.example/>.",
            "See <URL:http://host.example/>.",
        )],
    },
    RuleInfo {
        rule: Rule::DeprecatedUserinfo,
        name: "deprecated-userinfo",
        default_level: Level::Warning,
        sources: &[rfc3986("RFC 9110 section 4.2.4")],
        summary: "an http or https URL carries a user name or password (RFC 9110)",
        explanation:
            "RFC 9110 deprecates the userinfo subcomponent of http and https URIs: senders \
             must not generate it, and recipients should treat it as an error. Browsers \
             drop or refuse it, a password in it is exposed to anyone who reads the text, \
             and 'trusted.example@attacker.example' is a classic way to disguise the real \
             host. Give credentials some other way.",
        examples: &[example(
            R3986,
            "See <http://guest@host.example/>.",
            "See <http://host.example/>.",
        )],
    },
    RuleInfo {
        rule: Rule::PasswordInUrl,
        name: "password-in-url",
        default_level: Level::Warning,
        sources: &[
            rfc1738("RFC 1738 section 6"),
            rfc3986("RFC 3986 section 3.2.1"),
        ],
        summary: "a non-empty password written in a URL is exposed to anyone who reads it",
        explanation:
            "The use of URLs containing passwords that should be secret is clearly unwise \
             (RFC 1738), and RFC 3986 deprecates the 'user:password' form: the text, its \
             copies and every log that records the URL disclose the password. Give the user \
             name only and let the client ask for the password. An empty password \
             ('user:@host') is not reported.",
        examples: &[example(
            BOTH,
            "Files are at <URL:ftp://guest:secret@host.example/pub/>.",
            "Files are at <URL:ftp://guest@host.example/pub/>.",
        )],
    },
    RuleInfo {
        rule: Rule::NondefaultPort,
        name: "nondefault-port",
        default_level: Level::Warning,
        sources: &[
            rfc1738("RFC 1738 section 6"),
            rfc3986("RFC 3986 section 7.2"),
        ],
        summary: "a port in the well-known range that is not the scheme's default",
        explanation:
            "A URL can make a client connect to a port where a different protocol's server \
             listens; the URL's content is then read as that protocol's commands, as when \
             gopher URLs were used to send mail through an SMTP server. urlint warns for \
             ports below 1024 other than the scheme's own default: http 80, https 443 and ftp \
             21 in both profiles, and under rfc1738 also gopher 70, nntp 119, telnet 23, wais \
             210 and prospero 1525.",
        examples: &[example(
            BOTH,
            "See <URL:http://host.example:25/>.",
            "See <URL:http://host.example/>.",
        )],
    },
    RuleInfo {
        rule: Rule::EncodedNewline,
        name: "encoded-newline",
        default_level: Level::Warning,
        sources: &[
            rfc1738("RFC 1738 section 6"),
            rfc3986("RFC 3986 section 7.2"),
        ],
        summary: "an encoded CR or LF may be decoded into a protocol command",
        explanation:
            "An encoded CR (%0D) or LF (%0A) is decoded before a line-based protocol sends \
             it, and can then end the current command and start another one (an extra FTP \
             DELE, an SMTP header, an NNTP command). urlint warns where the decoded part is \
             sent in such a protocol: ftp user names, passwords and paths, http paths and \
             queries and mailto addresses in both profiles; telnet logins, gopher searches \
             and news message ids under rfc1738; mailto header fields other than the body \
             under rfc3986, where %0D%0A is how the body's lines end. In a gopher selector CR \
             and LF are forbidden outright (gopher-path).",
        examples: &[example(
            BOTH,
            "Get <URL:ftp://host.example/file%0D%0ADELE%20other>.",
            "Get <URL:ftp://host.example/file%20other>.",
        )],
    },
    RuleInfo {
        rule: Rule::FtpTypecode,
        name: "ftp-typecode",
        default_level: Level::Error,
        sources: &[
            rfc1738("RFC 1738 section 3.2.2"),
            rfc3986("RFC 1738 section 3.2.2"),
        ],
        summary: "an ftp URL's ';type=' typecode is one of a, i or d",
        explanation: "An ftp URL may end with ';type=<typecode>' to say how to transfer the file: \
             'a' for ASCII text, 'i' for image (binary) or 'd' for a directory listing. Any \
             other code, or none after 'type=', leaves the client without a valid FTP TYPE \
             command.",
        examples: &[example(
            BOTH,
            "Get <URL:ftp://host.example/pub/file.tar;type=b>.",
            "Get <URL:ftp://host.example/pub/file.tar;type=i>.",
        )],
    },
    RuleInfo {
        rule: Rule::NewsGroup,
        name: "news-group",
        default_level: Level::Error,
        sources: &[rfc1738("RFC 1738 section 3.6")],
        summary: "a news URL is news:<group>, news:* or news:<unique>@<domain>",
        explanation:
            "A news URL names a newsgroup (a letter followed by letters, digits, '-', '.', \
             '+' and '_'), '*' for all groups, or an article by its message id \
             <unique>@<domain> without the angle brackets. It names no server: news URLs \
             are location-independent, and nntp://<host>/<group> is the form that names \
             one.",
        examples: &[example(
            R1738,
            "Read <URL:news://news.host.example/comp.infosystems.www>.",
            "Read <URL:news:comp.infosystems.www>.",
        )],
    },
    RuleInfo {
        rule: Rule::NntpArticle,
        name: "nntp-article",
        default_level: Level::Error,
        sources: &[rfc1738("RFC 1738 section 3.7")],
        summary: "an nntp URL is nntp://host/group[/article-number]",
        explanation:
            "An nntp URL names a server, a newsgroup on it and optionally an article by its \
             number in that group: nntp://<host>:<port>/<group>/<article-number>. The group \
             follows the news group syntax and the number is decimal digits; anything else \
             cannot be turned into NNTP GROUP and ARTICLE commands.",
        examples: &[example(
            R1738,
            "Read <URL:nntp://news.host.example/comp.infosystems.www/latest>.",
            "Read <URL:nntp://news.host.example/comp.infosystems.www/1234>.",
        )],
    },
    RuleInfo {
        rule: Rule::TelnetPath,
        name: "telnet-path",
        default_level: Level::Error,
        sources: &[rfc1738("RFC 1738 section 3.8")],
        summary: "a telnet URL has nothing after the final '/'",
        explanation:
            "A telnet URL designates an interactive service, not a data object: it is the \
             login and the host, with an optional final '/'. A path after it has no meaning \
             to a Telnet client and is silently dropped.",
        examples: &[example(
            R1738,
            "Log in at <URL:telnet://host.example/login>.",
            "Log in at <URL:telnet://host.example/>.",
        )],
    },
    RuleInfo {
        rule: Rule::FileHost,
        name: "file-host",
        default_level: Level::Error,
        sources: &[
            rfc1738("RFC 1738 section 3.10"),
            rfc3986("RFC 8089 section 2"),
        ],
        summary: "a file URL is file://[host]/path (or, in RFC 8089, file:/path), with no user \
             name or port",
        explanation:
            "Under rfc1738, a file URL is file://<host>/<path>, where the host is a domain \
             name, 'localhost' or empty (meaning the machine reading the URL), and the path \
             follows; the '//' is required even when the host is empty, so a local file is \
             file:///path and file:/path is fixed to that. Under rfc3986, RFC 8089 also \
             allows file:/path and DOS drive letters (file:c:/path), but the path is absolute \
             and there is no query. User names and ports have no meaning for files.",
        examples: &[
            example(
                R1738,
                "Edit <URL:file:/etc/motd>.",
                "Edit <URL:file:///etc/motd>.",
            ),
            example(
                R3986,
                "Edit <file://host.example:21/etc/motd>.",
                "Edit <file://host.example/etc/motd>.",
            ),
        ],
    },
    RuleInfo {
        rule: Rule::MailtoAddress,
        name: "mailto-address",
        default_level: Level::Error,
        sources: &[
            rfc1738("RFC 1738 section 3.5"),
            rfc3986("RFC 6068 section 2"),
        ],
        summary: "a mailto URL's addresses (and, in RFC 6068, header fields) are well formed",
        explanation: "Under rfc1738, a mailto URL holds exactly one RFC 822 addr-spec, \
             local-part@domain, percent-encoded where needed (a mailto URL reserves no \
             character, so even its '@' may be written %40); several addresses and \
             '?subject=' header fields came later (RFC 2368, then RFC 6068) and are reported \
             as such. Under rfc3986, RFC 6068 allows a comma-separated list of RFC 5322 \
             addresses, without comments or whitespace, and header fields 'name=value' joined \
             by '&'; an address needs its '@domain', written as a literal '@', and words of a \
             local part or domain are separated by single dots.",
        examples: &[example(
            BOTH,
            "Write to <URL:mailto:webmaster>.",
            "Write to <URL:mailto:webmaster@host.example>.",
        )],
    },
    RuleInfo {
        rule: Rule::GopherPath,
        name: "gopher-path",
        default_level: Level::Error,
        sources: &[rfc1738("RFC 1738 section 3.4")],
        summary: "a gopher path is /<gophertype><selector>[%09<search>[%09<gopher+_string>]]",
        explanation: "A gopher path starts with a one-character gopher type, then the selector; a \
             search string and a Gopher+ string follow, each after an encoded tab (%09). A \
             path that starts with the tab has lost its type, and a selector may not \
             contain CR or LF, encoded or not, because the Gopher protocol ends the \
             selector line with them.",
        examples: &[example(
            R1738,
            "Search <URL:gopher://host.example/%09urlint>.",
            "Search <URL:gopher://host.example/7index%09urlint>.",
        )],
    },
    RuleInfo {
        rule: Rule::WaisPath,
        name: "wais-path",
        default_level: Level::Error,
        sources: &[rfc1738("RFC 1738 section 3.9")],
        summary: "a wais URL is /database, /database?search or /database/wtype/wpath",
        explanation: "A wais URL names a database, a search in it (database?search) or a document \
             (database/wtype/wpath, with the WAIS type and document id). A path with two \
             parts or more than three, or no database at all, matches none of the three \
             forms.",
        examples: &[example(
            R1738,
            "See <URL:wais://host.example/papers/TEXT>.",
            "See <URL:wais://host.example/papers/TEXT/doc-17>.",
        )],
    },
    RuleInfo {
        rule: Rule::ProsperoField,
        name: "prospero-field",
        default_level: Level::Error,
        sources: &[rfc1738("RFC 1738 section 3.11")],
        summary: "a prospero URL is prospero://host/hsoname[;field=value...]",
        explanation: "A prospero URL names a host-specific object name (hsoname) after the host, \
             optionally followed by ';<field>=<value>' pairs that identify the target, such \
             as OBJECT-VERSION. Each field needs its '=' and value, and the '/' before the \
             hsoname is required.",
        examples: &[example(
            R1738,
            "See <URL:prospero://host.example/pros/name;OBJECT-VERSION>.",
            "See <URL:prospero://host.example/pros/name;OBJECT-VERSION=2>.",
        )],
    },
    RuleInfo {
        rule: Rule::EmptyUrl,
        name: "empty-url",
        default_level: Level::Error,
        sources: &[rfc1738("RFC 1738 Appendix"), rfc3986("RFC 3986 Appendix C")],
        summary: "a wrapper holds no URL",
        explanation: "A wrapper such as <URL:> with nothing inside promises a URL and gives none; \
             usually the URL was lost when the text was edited or rendered.",
        examples: &[example(
            BOTH,
            "The draft is at <URL:> for now.",
            "The draft is at <URL:http://host.example/draft.txt> for now.",
        )],
    },
    RuleInfo {
        rule: Rule::HyphenBreak,
        name: "hyphen-break",
        default_level: Level::Warning,
        sources: &[rfc1738("RFC 1738 Appendix"), rfc3986("RFC 3986 Appendix C")],
        summary: "a line break after '-' makes the hyphen ambiguous",
        explanation: "Whitespace should not be introduced after a hyphen: typesetters add hyphens \
             when they break lines, so a reader cannot tell whether a '-' at a line end \
             belongs to the URL. urlint keeps the hyphen, reports the reading without it as \
             an alternative, and says which is likelier. Break the line before the hyphen, \
             or elsewhere.",
        examples: &[example(
            BOTH,
            "See <URL:http://host.example/long-\n   name.html> today.",
            "See <URL:http://host.example/long\n   -name.html> today.",
        )],
    },
    RuleInfo {
        rule: Rule::SpaceInWrapper,
        name: "space-in-wrapper",
        default_level: Level::Warning,
        sources: &[rfc1738("RFC 1738 Appendix"), rfc3986("RFC 3986 Appendix C")],
        summary: "whitespace inside a line of a wrapped URL is ignored",
        explanation:
            "Whitespace in a <URL:...> wrapper is removed when the URL is extracted, which \
             is right for line breaks added to wrap a long URL. A space in the middle of a \
             line, though, was probably meant to be part of the URL and will silently \
             disappear; encode it as %20 if it belongs to the URL.",
        examples: &[example(
            BOTH,
            "See <URL:http://host.example/a b> today.",
            "See <URL:http://host.example/a%20b> today.",
        )],
    },
    RuleInfo {
        rule: Rule::UnterminatedWrapper,
        name: "unterminated-wrapper",
        default_level: Level::Error,
        sources: &[rfc1738("RFC 1738 Appendix"), rfc3986("RFC 3986 Appendix C")],
        summary: "a '<URL:' or '<scheme:' wrapper is never closed by '>'",
        explanation: "A '<URL:' wrapper is closed by '>'. Without it, nothing says where the URL \
             ends; urlint stops at a blank line or after a few lines instead of swallowing \
             the text that follows, and reports where the wrapper started.",
        examples: &[example(
            BOTH,
            "See <URL:http://host.example/a\n\nThe next paragraph.",
            "See <URL:http://host.example/a>.\n\nThe next paragraph.",
        )],
    },
    RuleInfo {
        rule: Rule::BrokenBareUrl,
        name: "broken-bare-url",
        default_level: Level::Warning,
        sources: &[rfc1738("RFC 1738 Appendix"), rfc3986("RFC 3986 Appendix C")],
        summary: "a bare URL goes on over a line break",
        explanation: "A URL without delimiters ends at whitespace, so a reader or a tool that meets \
             a line break inside one takes only its first line. RFC 1738 asks that a URL which \
             must be broken be wrapped in <URL:...>, whose line breaks are ignored. urlint joins \
             a bare URL with the next line only when the text says it goes on (the line ends with \
             'http://' or with a character a URL does not end on, the next line starts with URL \
             text and not prose, another URL or a list item, the line reaches the right margin, a \
             folded iCalendar or vCard line), past a page's footer and header too; it says which \
             evidence decided and gives the URL cut at the line's end as the other reading. The \
             suggested fix wraps the URL where it stands.",
        examples: &[example(
            BOTH,
            "See http://archive.example.org/lists/2001-September/\n   000315.html for the thread.",
            "See <URL:http://archive.example.org/lists/2001-September/\n   000315.html> for the thread.",
        )],
    },
    RuleInfo {
        rule: Rule::MissingUrlPrefix,
        name: "missing-url-prefix",
        default_level: Level::Off,
        sources: &[rfc1738("RFC 1738 Appendix")],
        summary: "an angle-bracketed URL without the 'URL:' prefix",
        explanation: "RFC 1738 recommends writing URLs in text as <URL:scheme:...>; the 'URL:' \
             prefix tells URLs from other bracketed text such as mail addresses. Off by \
             default, since <scheme:...> is common and unambiguous for known schemes; turn \
             it on for text that must follow the RFC. RFC 3986 (Appendix C) no longer \
             recommends the prefix, so the rfc3986 profile never reports this rule.",
        examples: &[example(
            R1738,
            "See <http://host.example/> today.",
            "See <URL:http://host.example/> today.",
        )],
    },
    RuleInfo {
        rule: Rule::BareUrl,
        name: "bare-url",
        default_level: Level::Off,
        sources: &[rfc1738("RFC 1738 Appendix")],
        summary: "a URL in running text without '<URL:...>' delimiters",
        explanation:
            "A URL in running text without delimiters leaves its end to guesswork: trailing \
             punctuation, brackets and line breaks may or may not belong to it. RFC 1738 \
             recommends the <URL:...> wrapper. Off by default; turn it on for text that \
             must follow the RFC. RFC 3986 (Appendix C) accepts URLs delimited by \
             whitespace, so the rfc3986 profile never reports this rule.",
        examples: &[example(
            R1738,
            "see http://host.example/ now",
            "see <URL:http://host.example/> now",
        )],
    },
    RuleInfo {
        rule: Rule::BadTemplate,
        name: "bad-template",
        default_level: Level::Error,
        sources: &[
            rfc1738("RFC 6570 section 2.2"),
            rfc3986("RFC 6570 section 2.2"),
        ],
        summary: "a URI template expression is malformed: a '{' never closed, a reserved \
                  operator, a bad variable name or prefix",
        explanation:
            "A URL that holds placeholders is a template, not a URL: RFC 6570 expressions \
             ({var}, {+path}, {/seg}, {?q,page}, {#frag}), format-string fields ({}, {0}, {:?}, \
             {name}), printf conversions (%s, %d, %(name)s), shell and Make substitutions \
             (${VAR}, $(VAR), $HOST in a host), Jinja, Django, Mustache, Handlebars and Go tags \
             ({{ x }}, {% if %}), ERB tags (<%= x %>), SPF macros (%{d}) and a port written as \
             a word in a syntax description (host:port). urlint checks the template's literal \
             parts against the profile and leaves the placeholders to their language, so \
             format!(\"http://{}/x\", host) draws no bad-host. What RFC 6570's grammar rejects \
             is reported here: a '{' that nothing closes (if it is data, write it %7B), an \
             operator reserved for future extensions ('=', ',', '!', '@', '|'), an empty or \
             ill-formed variable name, a prefix length that is not 1 to 9999. Turn the \
             recognition off with --no-templates or `templates = false` under [urls] to \
             check every placeholder's characters as URL characters.",
        examples: &[example(
            BOTH,
            "See <URL:http://api.host.example/repos/{owner/issues>.",
            "See <URL:http://api.host.example/repos/{owner}/issues>.",
        )],
    },
    RuleInfo {
        rule: Rule::UnusedSuppression,
        name: "unused-suppression",
        default_level: Level::Off,
        sources: &[rfc1738(URLINT), rfc3986(URLINT)],
        summary: "an inline 'urlint: ignore' comment that silences nothing",
        explanation:
            "An inline suppression ('urlint: ignore', 'urlint: ignore-next-line', with an \
             optional [rule, ...] list) silences findings about URLs in running text. Once \
             the URL it was written for is fixed or moved, the comment silences nothing, \
             but it would still hide the next problem written on that line. This rule \
             reports such stale comments. Off by default; turn it on to keep suppressions \
             honest. A rule name in the list that does not exist is reported by \
             unknown-rule.",
        examples: &[
            example(
                R1738,
                "See <URL:http://host.example/%7Euser/>. <!-- urlint: ignore[unsafe-char] -->",
                "See <URL:http://host.example/~user/>. <!-- urlint: ignore[unsafe-char] -->",
            ),
            example(
                R3986,
                "See <http://host.example/~user/>. <!-- urlint: ignore[unsafe-char] -->",
                "See <http://host.example/a|b/>. <!-- urlint: ignore[unsafe-char] -->",
            ),
        ],
    },
    RuleInfo {
        rule: Rule::UnknownRule,
        name: "unknown-rule",
        default_level: Level::Warning,
        sources: &[rfc1738(URLINT), rfc3986(URLINT)],
        summary: "an inline 'urlint: ignore[...]' comment names a rule that does not exist",
        explanation:
            "An inline suppression's rule list ('urlint: ignore[bad-port]') silences only \
             the rules it names. A misspelt name ('bad-prot') silences nothing, so the \
             finding the comment was written for is still reported and the comment looks \
             as if it had been ignored. This rule reports each name that is not a rule, \
             with the closest rule name when there is one, as ruff reports unknown codes in \
             'noqa' comments. Fix the name, or remove it from the list. A name close to \
             no rule ('ignore[rule]' in a document about urlint itself) is taken for a \
             placeholder and not reported; unused-suppression, when on, reports such a \
             directive as silencing nothing. A list that cannot be read (a '[' not closed \
             on its line, as in 'ignore[bad-port', or names after other punctuation, as in \
             'ignore(bad-port)' or 'ignore,bad-port') would read as a bare 'ignore' that \
             silences every rule on the line; such a directive silences nothing, and this \
             rule says why.",
        examples: &[example(
            BOTH,
            "See <URL:http://host.example:99999/>. <!-- urlint: ignore[bad-prot] -->",
            "See <URL:http://host.example:99999/>. <!-- urlint: ignore[bad-port] -->",
        )],
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

/// The rule called `name`, or an error message suggesting the closest name.
pub fn find_rule(name: &str) -> Result<Rule, String> {
    Rule::from_name(name).ok_or_else(|| match closest_rule_name(name) {
        Some(close) => format!("unknown rule '{name}' (did you mean '{close}'?)"),
        None => format!("unknown rule '{name}' (`urlint explain` lists the rules)"),
    })
}

/// The catalogue name nearest to `name` by edit distance, if plausibly meant.
pub fn closest_rule_name(name: &str) -> Option<&'static str> {
    let name = name.to_ascii_lowercase().replace('_', "-");
    let len = name.chars().count();
    let near = |candidate: &str| 2.max(candidate.len() / 3);
    CATALOGUE
        .iter()
        // The distance is at least the difference in length: a name far
        // longer than any rule (a megabyte in a comment) is near none, and
        // is not compared character by character with each.
        .filter(|info| len.abs_diff(info.name.len()) <= near(info.name))
        .map(|info| (edit_distance(&name, info.name), info.name))
        .filter(|&(distance, candidate)| distance <= near(candidate))
        .min()
        .map(|(_, candidate)| candidate)
}

/// Levenshtein distance in characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    // Two rows, reused: a row built anew per character of `a` cost more
    // than the comparisons (a file of 100,000 misspelt directives).
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current = vec![0; b.len() + 1];
    for (i, ca) in a.chars().enumerate() {
        current[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != cb);
            current[j + 1] = substitution.min(previous[j + 1] + 1).min(current[j] + 1);
        }
        std::mem::swap(&mut previous, &mut current);
    }
    previous[b.len()]
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
    fn every_rule_is_documented_with_examples() {
        for info in CATALOGUE {
            assert!(!info.summary.is_empty(), "{}: summary", info.name);
            assert!(info.explanation.len() > 80, "{}: explanation", info.name);
            assert!(!info.explanation.contains("  "), "{}: spacing", info.name);
            assert!(!info.sources.is_empty(), "{}: sources", info.name);
            for source in info.sources {
                assert!(!source.reference.is_empty(), "{}: reference", info.name);
            }
            let profiles: Vec<Profile> = info.sources.iter().map(|s| s.profile).collect();
            assert!(profiles.is_sorted(), "{}: profiles out of order", info.name);
            profiles
                .windows(2)
                .for_each(|pair| assert_ne!(pair[0], pair[1]));
            for example in info.examples {
                assert!(!example.bad.is_empty(), "{}: bad example", info.name);
                assert!(!example.good.is_empty(), "{}: good example", info.name);
                assert_ne!(example.bad, example.good, "{}", info.name);
                for profile in example.profiles {
                    assert!(profiles.contains(profile), "{}: {profile}", info.name);
                }
            }
            for profile in profiles {
                let has_example = info.examples.iter().any(|e| e.profiles.contains(&profile));
                assert!(has_example, "{}: no example under {profile}", info.name);
            }
        }
    }

    #[test]
    fn typos_suggest_the_nearest_rule() {
        let cases = [
            ("unsafe-chars", Some("unsafe-char")),
            ("unsafe_char", Some("unsafe-char")),
            ("Bad-Port", Some("bad-port")),
            ("hyphenbreak", Some("hyphen-break")),
            ("completely-different", None),
        ];
        for (typo, expected) in cases {
            assert_eq!(closest_rule_name(typo), expected, "{typo}");
        }
    }

    #[test]
    fn unknown_rule_error_names_the_suggestion() {
        assert_eq!(find_rule("bad-port"), Ok(Rule::BadPort));
        assert_eq!(
            find_rule("bad-prot"),
            Err("unknown rule 'bad-prot' (did you mean 'bad-port'?)".to_string())
        );
    }

    #[test]
    fn level_names_round_trip() {
        for (name, level) in LEVEL_NAMES {
            assert_eq!(level.name(), name);
            assert_eq!(Level::from_name(name), Ok(level));
        }
        assert_eq!(
            Level::from_name("fatal"),
            Err("unknown level 'fatal': expected \"off\", \"warning\" or \"error\"".to_string())
        );
    }

    #[test]
    fn catalogue_is_in_declaration_order() {
        for (index, info) in CATALOGUE.iter().enumerate() {
            assert_eq!(info.rule as usize, index, "{} is out of order", info.name);
            assert_eq!(Rule::from_name(info.name), Some(info.rule));
        }
    }
}
