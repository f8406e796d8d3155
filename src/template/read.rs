//! Reading a URL's text for placeholders, left to right: each one found is
//! measured by its language (`languages.rs`, `rfc6570.rs`) and skipped
//! whole, so that nothing inside it is read again.

use super::languages::{
    erb_tag, is_format_field, mustache_tag, percent_macro, printf_conversion, shell_substitution,
    shell_variable,
};
use super::placeholder::{Language, Placeholder, Template};
use super::rfc6570::check_expression;
use crate::diagnostic::{Applicability, Diagnostic};
use crate::rules::Rule;
use crate::span::Span;

/// Read `url`'s placeholders and the problems of its template expressions.
pub(super) fn read(url: &str) -> Template {
    let mut reading = PlaceholderReading::default();
    reading.placeholders_and_braces(url);
    reading.in_authority(url);
    // `placeholder_holding` searches the placeholders in halves.
    debug_assert!(reading
        .template
        .placeholders
        .windows(2)
        .all(|pair| pair[0].span.end <= pair[1].span.start));
    reading.finish(url)
}

/// A reading in progress.
#[derive(Default)]
struct PlaceholderReading {
    template: Template,
    /// What each placeholder is besides its language.
    kinds: Vec<Kind>,
}

/// What a placeholder is besides its language, for [`PlaceholderReading::finish`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Nothing more.
    Other,
    /// An RFC 6570 expression that a format string writes the same way
    /// (`{host}`, `{0}`).
    PlainName,
    /// A format string's escape of a character (`{{`, `}}`, `%%`): a
    /// placeholder only in a URL that holds the language's fields too.
    Escape,
}

impl PlaceholderReading {
    /// Every placeholder but those read only in the authority.
    fn placeholders_and_braces(&mut self, url: &str) {
        let bytes = url.as_bytes();
        let mut at = 0;
        while at < bytes.len() {
            let rest = &bytes[at..];
            let measured = match rest[0] {
                b'{' => {
                    at += self.brace(url, at);
                    continue;
                }
                b'}' if rest.starts_with(b"}}") => {
                    self.push(Span::new(at, at + 2), Language::Format, Kind::Escape);
                    at += 2;
                    continue;
                }
                b'%' if rest
                    .get(1..3)
                    .is_some_and(|hex| hex.iter().all(u8::is_ascii_hexdigit)) =>
                {
                    at += 3;
                    continue;
                }
                b'%' => percent_macro(rest)
                    .map(|len| (len, Language::Macro))
                    .or_else(|| printf_conversion(rest).map(|len| (len, Language::Printf))),
                b'$' => shell_substitution(rest).map(|len| (len, Language::Shell)),
                b'<' => erb_tag(rest).map(|len| (len, Language::Erb)),
                // An ellipsis stands for a part left out: `http://.../x.jpeg`.
                b'.' if rest.starts_with(b"...") => {
                    let dots = rest.iter().take_while(|&&b| b == b'.').count();
                    Some((dots, Language::Syntax))
                }
                _ => None,
            };
            match measured {
                Some((len, language)) => {
                    let kind = match rest.starts_with(b"%%") {
                        true => Kind::Escape,
                        false => Kind::Other,
                    };
                    self.push(Span::new(at, at + len), language, kind);
                    at += len;
                }
                None => at += 1,
            }
        }
    }

    /// Read what a `{` at `at` opens: a tag, an expression or a
    /// replacement field, or, never closed, a problem; how many bytes it
    /// takes.
    fn brace(&mut self, url: &str, at: usize) -> usize {
        let bytes = url.as_bytes();
        let rest = &bytes[at..];
        let tag = match mustache_tag(rest) {
            Some(len) => Some((len, Language::Mustache, Kind::Other)),
            // Rust's and Python's escape of a literal `{`.
            None if rest.starts_with(b"{{") => Some((2, Language::Format, Kind::Escape)),
            None => None,
        };
        if let Some((len, language, kind)) = tag {
            self.push(Span::new(at, at + len), language, kind);
            return len;
        }
        let close = rest[1..]
            .iter()
            .position(|&b| b == b'{' || b == b'}')
            .map(|offset| at + 1 + offset)
            .filter(|&close| bytes[close] == b'}');
        let Some(close) = close else {
            return self.unclosed_brace(url, at);
        };
        let text = &url[at + 1..close];
        let span = Span::new(at, close + 1);
        let named = text.bytes().any(|b| b.is_ascii_alphanumeric() || b == b'_');
        let field_without_name = text.is_empty() || text.starts_with([':', '!']);
        if !named && !field_without_name {
            // `{|}`, `{+}`, `{[]}`: no name to expand, so no expression but
            // characters of the URL, for the validator to report as unsafe.
            return 1;
        }
        match check_expression(text) {
            Ok(()) => {
                let kind = match is_format_field(text) {
                    true => Kind::PlainName,
                    false => Kind::Other,
                };
                self.push(span, Language::UriTemplate, kind);
            }
            Err(_) if is_format_field(text) => self.push(span, Language::Format, Kind::Other),
            Err(flaw) => {
                let start = at + 1 + flaw.at;
                let message = format!("{} in the template expression '{{{text}}}'", flaw.message);
                self.template.problems.push(
                    Diagnostic::new(
                        Rule::BadTemplate,
                        Span::new(start, start + flaw.len),
                        message,
                    )
                    .with_help(flaw.help),
                );
                self.push(span, Language::UriTemplate, Kind::Other);
            }
        }
        span.len()
    }

    /// Read a `{` at `at` that nothing in the URL closes; how many bytes
    /// it takes. Before a name that runs to the URL's end, it is a
    /// placeholder the URL was cut inside, at a space the language allows
    /// there (`f"unix://{tmp_path / 'x'}"`, Python's `\N{BALLOT BOX}`).
    /// Before a name and more URL, or an operator, it opens an expression
    /// whose `}` is missing (`{owner/issues`). Anything else is a
    /// character of the URL, for the validator to report as unsafe.
    fn unclosed_brace(&mut self, url: &str, at: usize) -> usize {
        let rest = &url.as_bytes()[at + 1..];
        let name = rest
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || b"_.".contains(b))
            .count();
        if name > 0 && name == rest.len() {
            self.push(Span::new(at, url.len()), Language::Format, Kind::Other);
            return url.len() - at;
        }
        let opens_expression = rest
            .first()
            .is_some_and(|&b| b.is_ascii_alphanumeric() || b"_%+#./;?&".contains(&b));
        if opens_expression {
            self.template.problems.push(unclosed(at));
            self.push(Span::new(at, at + 1), Language::UriTemplate, Kind::Other);
        }
        1
    }

    /// Placeholders only the authority reads so: a shell variable where a
    /// host is written (`http://$HOST/`; in a path or query a `$` is a
    /// character of the URL, as OData's `?$top=10`), and a port written as
    /// a word (`host:port`), a syntax description's.
    fn in_authority(&mut self, url: &str) {
        let Some(authority) = authority(url, &self.template.placeholders) else {
            return;
        };
        let bytes = url.as_bytes();
        let mut variables = Vec::new();
        let mut at = authority.start;
        while at < authority.end {
            if let Some(inside) = placeholder_holding(&self.template.placeholders, at) {
                at = inside.end;
                continue;
            }
            match shell_variable(&bytes[at..authority.end]).filter(|_| bytes[at] == b'$') {
                Some(len) => {
                    variables.push(Span::new(at, at + len));
                    at += len;
                }
                None => at += 1,
            }
        }
        self.push_shell_variables(variables);
        if let Some(port) = word_port(url, authority) {
            if !self.template.touches(port) {
                self.push(port, Language::Syntax, Kind::Other);
            }
        }
    }

    /// Add the shell `variables` of the authority, in URL order, where
    /// [`Self::push`] would put each, in one merge: inserted one by one
    /// before the placeholders after the authority, they took quadratic
    /// time (`http://$a$a$a/{a}{a}{a}`).
    fn push_shell_variables(&mut self, variables: Vec<Span>) {
        if variables.is_empty() {
            return;
        }
        let placeholders = std::mem::take(&mut self.template.placeholders);
        let kinds = std::mem::take(&mut self.kinds);
        let mut earlier = placeholders.into_iter().zip(kinds).peekable();
        for span in variables {
            while let Some((placeholder, kind)) =
                earlier.next_if(|(placeholder, _)| placeholder.span.start < span.start)
            {
                self.template.placeholders.push(placeholder);
                self.kinds.push(kind);
            }
            let language = Language::Shell;
            self.template
                .placeholders
                .push(Placeholder { span, language });
            self.kinds.push(Kind::Other);
        }
        for (placeholder, kind) in earlier {
            self.template.placeholders.push(placeholder);
            self.kinds.push(kind);
        }
    }

    /// Add a placeholder where its start puts it among the others, so that
    /// they stay in URL order.
    fn push(&mut self, span: Span, language: Language, kind: Kind) {
        let at = self
            .template
            .placeholders
            .partition_point(|placeholder| placeholder.span.start < span.start);
        self.template
            .placeholders
            .insert(at, Placeholder { span, language });
        self.kinds.insert(at, kind);
    }

    /// A format string's fields beside RFC 6570-like names make those names
    /// the format string's too (`format!("http://{host}/{}", x)`), and a
    /// tag without spaces its escaped braces (`{{id}}` is `{id}` written in
    /// a format string). An escape (`{{`, `}}`, `%%`) is a placeholder only
    /// beside a field of its language: alone it is a URL's characters
    /// (`name%%3D` is a broken encoding, not `printf`).
    fn finish(mut self, url: &str) -> Template {
        let holds = |reading: &PlaceholderReading, language: Language| {
            let placeholders = reading.template.placeholders.iter();
            placeholders
                .zip(&reading.kinds)
                .any(|(placeholder, &kind)| {
                    placeholder.language == language && kind != Kind::Escape
                })
        };
        let formatted = holds(&self, Language::Format);
        let printf = holds(&self, Language::Printf);
        if formatted {
            let placeholders = self.template.placeholders.iter_mut();
            for (placeholder, &kind) in placeholders.zip(&self.kinds) {
                let text = &url[placeholder.span.range()];
                let escaped_braces = placeholder.language == Language::Mustache
                    && text.starts_with("{{")
                    && !text.contains(char::is_whitespace);
                if kind == Kind::PlainName || escaped_braces {
                    placeholder.language = Language::Format;
                }
            }
        }
        let mut kinds = self.kinds.iter();
        self.template.placeholders.retain(|placeholder| {
            let kind = kinds.next().copied().unwrap_or(Kind::Other);
            kind != Kind::Escape
                || match placeholder.language {
                    Language::Printf => printf,
                    _ => formatted,
                }
        });
        self.template.problems.sort_by_key(|problem| problem.span);
        self.template
    }
}

/// The `bad-template` finding of a `{` that nothing closes.
fn unclosed(at: usize) -> Diagnostic {
    Diagnostic::new(
        Rule::BadTemplate,
        Span::new(at, at + 1),
        "'{' opens a template expression that is never closed",
    )
    .with_help(
        "RFC 6570 section 2.2: an expression is '{' [ operator ] variable-list '}'; a '{' \
         that belongs to the URL is unsafe (RFC 1738 section 2.2) and is written %7B",
    )
    // The brace may open an expression whose end was lost, or be data.
    .with_fix("%7B", Applicability::Suggestion)
}

/// The authority of a `scheme://` URL, its end found past placeholders
/// (which may hold a `/`): from after `//` to the first `/`, `?` or `#`.
fn authority(url: &str, placeholders: &[Placeholder]) -> Option<Span> {
    let colon = url.find(':')?;
    let scheme = &url[..colon];
    let hierarchical = !scheme.is_empty()
        && scheme
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b))
        && url[colon + 1..].starts_with("//");
    if !hierarchical {
        return None;
    }
    let start = colon + 3;
    let bytes = url.as_bytes();
    let mut at = start;
    while at < bytes.len() {
        if let Some(inside) = placeholder_holding(placeholders, at) {
            at = inside.end;
            continue;
        }
        if matches!(bytes[at], b'/' | b'?' | b'#') {
            break;
        }
        at += 1;
    }
    Some(Span::new(start, at))
}

/// The span of the placeholder that holds the byte at `at`. Placeholders
/// are in URL order and never overlap, so the only one that can is the
/// last to start at or before `at`, found by a binary search: a walk over
/// all of them at every byte of the authority made a host of a hundred
/// thousand placeholders (`http://{a}{a}...`) quadratic.
fn placeholder_holding(placeholders: &[Placeholder], at: usize) -> Option<Span> {
    let starting_after = placeholders.partition_point(|placeholder| placeholder.span.start <= at);
    let last_started = placeholders.get(starting_after.checked_sub(1)?)?;
    (at < last_started.span.end).then_some(last_started.span)
}

/// A port written as a word that names it in `authority`: `port`,
/// `PORT`, `portnum` in `host:port`, or a letter repeated (`nnnn`,
/// `XXXX`). Any other word (`:pa`, `:80a`) is a mistake, left to the
/// validator.
fn word_port(url: &str, authority: Span) -> Option<Span> {
    let text = &url[authority.range()];
    let host_start = text.rfind('@').map_or(0, |at| at + 1);
    let host = &text[host_start..];
    let after_brackets = host.rfind(']').map_or(0, |at| at + 1);
    let colon = host_start + after_brackets + host[after_brackets..].rfind(':')?;
    let port = &text[colon + 1..];
    let letters = port.bytes().next().is_some_and(|b| b.is_ascii_alphabetic())
        && port
            .bytes()
            .all(|b| b.is_ascii_alphabetic() || b == b'_' || b == b'-');
    let names_a_port = port.to_ascii_lowercase().contains("port");
    let repeated = port.len() >= 2 && port.bytes().all(|b| b == port.as_bytes()[0]);
    let word = letters && (names_a_port || repeated);
    let start = authority.start + colon + 1;
    word.then_some(Span::new(start, start + port.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each placeholder's text and language name, in order.
    fn placeholders(url: &str) -> Vec<(&str, &'static str)> {
        read(url)
            .placeholders
            .iter()
            .map(|placeholder| {
                (
                    &url[placeholder.span.range()],
                    placeholder.language.as_str(),
                )
            })
            .collect()
    }

    /// Each problem's spanned text and message.
    fn problems(url: &str) -> Vec<(&str, String)> {
        read(url)
            .problems
            .iter()
            .map(|problem| (&url[problem.span.range()], problem.message.clone()))
            .collect()
    }

    #[test]
    fn rfc6570_1_2_examples_are_templates_without_problems() {
        let cases: &[(&str, &[&str])] = &[
            ("http://example.com/~{username}/", &["{username}"]),
            (
                "http://example.com/dictionary/{term:1}/{term}",
                &["{term:1}", "{term}"],
            ),
            ("http://example.com/search{?q,lang}", &["{?q,lang}"]),
            (
                "http://www.example.com/foo{?query,number}",
                &["{?query,number}"],
            ),
            ("http://example.com/{+path}/here", &["{+path}"]),
            ("http://example.com{/var,x}/here", &["{/var,x}"]),
            ("http://example.com/x{#keys*}", &["{#keys*}"]),
            ("http://example.com/{;x,y,empty}", &["{;x,y,empty}"]),
            ("http://example.com/?fixed=yes{&x}", &["{&x}"]),
            ("http://www{.dom*}", &["{.dom*}"]),
            (
                "https://api.example.com/repos/{owner}/{repo}{?page,per_page}",
                &["{owner}", "{repo}", "{?page,per_page}"],
            ),
        ];
        for &(url, expected) in cases {
            let found = placeholders(url);
            let texts: Vec<&str> = found.iter().map(|(text, _)| *text).collect();
            assert_eq!(texts, expected, "{url}");
            assert!(
                found.iter().all(|(_, language)| *language == "rfc6570"),
                "{url}: {found:?}"
            );
            assert!(problems(url).is_empty(), "{url}");
        }
    }

    #[test]
    fn placeholders_of_each_language_are_named() {
        let cases: &[(&str, &[(&str, &str)])] = &[
            ("http://{}/x", &[("{}", "format")]),
            (
                "http://{host}:{port}/api/{:?}",
                &[
                    ("{host}", "format"),
                    ("{port}", "format"),
                    ("{:?}", "format"),
                ],
            ),
            (
                "https://{{hostname}}/{}",
                &[("{{hostname}}", "format"), ("{}", "format")],
            ),
            (
                "https://{{ hostname }}/{}",
                &[("{{ hostname }}", "mustache"), ("{}", "format")],
            ),
            ("https://{{hostname}}/x", &[("{{hostname}}", "mustache")]),
            ("http://{0}/{1}", &[("{0}", "rfc6570"), ("{1}", "rfc6570")]),
            ("http://h/{x!r}", &[("{x!r}", "format")]),
            (
                "http://{self.host}/{quote(name)}",
                &[("{self.host}", "format"), ("{quote(name)}", "format")],
            ),
            ("http://%s:%d/path", &[("%s", "printf"), ("%d", "printf")]),
            ("http://%(host)s/x", &[("%(host)s", "printf")]),
            (
                "http://h/%s?q=a%%20b",
                &[("%s", "printf"), ("%%", "printf")],
            ),
            ("http://${HOST}/path", &[("${HOST}", "shell")]),
            (
                "http://$(HOST):$(PORT)/x",
                &[("$(HOST)", "shell"), ("$(PORT)", "shell")],
            ),
            (
                "http://$HOST:$PORT/x",
                &[("$HOST", "shell"), ("$PORT", "shell")],
            ),
            (
                "https://${host}/api/${path}",
                &[("${host}", "shell"), ("${path}", "shell")],
            ),
            (
                "https://{{ hostname }}/{% if x %}a{% endif %}",
                &[
                    ("{{ hostname }}", "mustache"),
                    ("{% if x %}", "mustache"),
                    ("{% endif %}", "mustache"),
                ],
            ),
            ("http://<%= host %>/x", &[("<%= host %>", "erb")]),
            (
                "http://%{d}/why.html?s=%{S}&i=%{I}",
                &[("%{d}", "macro"), ("%{S}", "macro"), ("%{I}", "macro")],
            ),
            (
                "rmi://hostname:port/remoteObjectName",
                &[("port", "syntax")],
            ),
            ("http://user@host:PORT", &[("PORT", "syntax")]),
            ("http://host.example:nnnn/x", &[("nnnn", "syntax")]),
            ("telnet://host:port_number", &[("port_number", "syntax")]),
            ("http://.../back.jpeg", &[("...", "syntax")]),
            ("http:/.../front.jpeg", &[("...", "syntax")]),
            // Cut at a space inside the placeholder: an f-string's
            // expression, a Python escape's name.
            ("unix://{tmp_path", &[("{tmp_path", "format")]),
            ("http://h.example/\\N{BALLOT", &[("{BALLOT", "format")]),
        ];
        for &(url, expected) in cases {
            assert_eq!(placeholders(url), expected, "{url}");
            assert!(problems(url).is_empty(), "{url}: {:?}", problems(url));
        }
    }

    #[test]
    fn urls_without_placeholders_read_as_none() {
        for url in [
            "http://host.example/a%20b",
            "http://host.example:8080/",
            "https://services.example/odata/Products?$top=10&$filter=x",
            "http://host.example/price$5",
            "http://[::1]:80/",
            "http://host.example:80a/",
            "mailto:a@b.example",
            "news:comp.lang.c",
            "http://host.example/100%",
            "http://host.example/%zz",
            "http://host.example/%u00e9",
            "http://host.example/a}c{",
            "http://host.example/{",
            "http://host.example/{-x",
            "http://host.example/{+}",
            "http://host.example/{[]}}}}",
            "http://host.example/where%20name%%3Ddobbins",
            "http://host.example/a}}b{{c",
            "https://username@gmail.com:pa",
            "http://%zz%66%a.com",
            "foo://host/dir/#%20!%22#$%&'()*+,-./:;%3C=%3E?@[\\]^_%60{|}~",
        ] {
            assert_eq!(read(url), Template::default(), "{url}");
        }
    }

    #[test]
    fn rfc6570_2_malformed_expressions_are_problems() {
        let cases: &[(&str, &str, &str)] = &[
            (
                "http://api.host.example/repos/{owner/issues",
                "{",
                "never closed",
            ),
            ("http://h/{a{b}", "{", "never closed"),
            ("http://h/x{?q", "{", "never closed"),
            ("http://h/{=x}", "=", "reserved"),
            ("http://h/{!repo}", "!", "reserved"),
            ("http://h/{@x}", "@", "reserved"),
            ("http://h/{|x}", "|", "reserved"),
            ("http://h/search{?q,}", "", "empty variable name"),
            ("http://h{/a-b}", "-", "not allowed"),
            ("http://h/{#a..b}", ".", "'..'"),
            ("http://h/{?var:0}", ":0", "positive integer"),
        ];
        for &(url, spanned, word) in cases {
            let found = problems(url);
            assert_eq!(found.len(), 1, "{url}: {found:?}");
            assert_eq!(found[0].0, spanned, "{url}");
            assert!(found[0].1.contains(word), "{url}: {}", found[0].1);
        }
    }

    #[test]
    fn an_unclosed_brace_is_fixed_only_as_a_suggestion() {
        let template = read("http://h/{x/y");
        let fix = template.problems[0].fix.as_ref().expect("a fix");
        assert_eq!(fix.replacement, "%7B");
        assert_eq!(fix.applicability, Applicability::Suggestion);
    }

    #[test]
    fn stand_ins_keep_offsets_and_put_digits_in_a_port() {
        let url = "http://{host}:{port}/a/%s?q=${Q}";
        let template = read(url);
        let stand_in = template.stand_in(url);
        assert_eq!(stand_in, "http://xxxxxx:000000/a/xx?q=xxxx");
        assert_eq!(stand_in.len(), url.len());
        let url = "http://h/{名前}";
        assert_eq!(read(url).stand_in(url).len(), url.len());
    }

    #[test]
    fn a_span_touches_a_placeholder_it_overlaps_or_borders() {
        let template = read("http://{host}/x");
        for (start, end, overlaps, touches) in [
            (7, 8, true, true),
            (12, 14, true, true),
            (13, 13, true, true),
            (7, 7, true, true),
            (13, 15, false, true),
            (6, 7, false, true),
            (14, 15, false, false),
            (0, 4, false, false),
        ] {
            let span = Span::new(start, end);
            assert_eq!(template.overlaps(span), overlaps, "{span:?}");
            assert_eq!(template.touches(span), touches, "{span:?}");
        }
    }

    /// The binary search finds, at every byte of URLs of nested, unclosed
    /// and adjacent placeholders, the placeholder a walk over all of them
    /// finds.
    #[test]
    fn the_placeholder_holding_a_byte_is_the_one_a_walk_finds() {
        for url in [
            "http://{a}{b}{{c}}${d}{x/{{ y }}{",
            "http://$a$b{c}$d/{x}{y}{",
            "http://{{{{{{{{",
            "http://${${${a}}}{a}{",
            "http://h.example/%s{}{{}}%{d}<%= x %>...",
        ] {
            let placeholders = read(url).placeholders;
            for at in 0..=url.len() {
                let walked = placeholders
                    .iter()
                    .map(|placeholder| placeholder.span)
                    .find(|span| span.start <= at && at < span.end);
                assert_eq!(placeholder_holding(&placeholders, at), walked, "{url} {at}");
            }
        }
    }

    /// Shell variables of the authority go among the placeholders read
    /// before them in URL order, around placeholders inside the authority
    /// and before those after it.
    #[test]
    fn authority_variables_go_in_url_order_among_the_other_placeholders() {
        assert_eq!(
            placeholders("http://$a.{b}.$c:$d/{x}{y}/${z}"),
            [
                ("$a", "shell"),
                ("{b}", "rfc6570"),
                ("$c", "shell"),
                ("$d", "shell"),
                ("{x}", "rfc6570"),
                ("{y}", "rfc6570"),
                ("${z}", "shell"),
            ]
        );
        assert_eq!(
            placeholders("http://{{{{$h{a}/{}"),
            [
                ("{{", "format"),
                ("{{", "format"),
                ("$h", "shell"),
                ("{a}", "format"),
                ("{}", "format"),
            ]
        );
    }
}
