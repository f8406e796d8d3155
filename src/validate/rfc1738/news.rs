//! NEWS (section 3.6) and NNTP (section 3.7): newsgroup names, message ids
//! and article numbers.

use std::ops::Range;

use super::chars::{self, ByteSet, Part};
use super::host::{self, HOST_HELP};
use crate::diagnostic::{Applicability, Diagnostic};
use crate::rules::Rule;
use crate::span::Span;
use crate::validate::collector::Collector;
use crate::validate::text::{char_span, describe_char};

/// The unique part of a message id: `1*[uchar | ";" | "/" | "?" | ":" | "&" | "="]`,
/// sent to a server in an NNTP command.
const UNIQUE: Part = Part {
    name: "message id",
    reserved: ByteSet::of(b";/?:&="),
    decoded_by: Some("NNTP"),
};

const NEWS_HELP: &str = "RFC 1738 section 3.6: a news URL is news:<newsgroup-name> (a \
     letter, then letters, digits, '-', '.', '+', '_'), news:* for all groups, or \
     news:<unique>@<domain> for an article";
const NNTP_HELP: &str = "RFC 1738 section 3.7: an nntp URL is \
     nntp://<host>:<port>/<newsgroup-name>[/<article-number>], the number in decimal digits";

/// Check the scheme-specific part of a news URL.
pub(crate) fn check_news(collector: &mut Collector, range: Range<usize>) {
    let bytes = collector.url().as_bytes();
    let part = &bytes[range.clone()];
    if part.is_empty() {
        let end = range.start;
        let message = "missing newsgroup name or message id after 'news:'";
        return report(collector, Rule::NewsGroup, Span::new(end, end), message);
    }
    if part.starts_with(b"//") {
        let message = "a news URL names no server; use nntp://<host>/<group> to name one";
        return report(
            collector,
            Rule::NewsGroup,
            Span::new(range.start, range.start + 2),
            message,
        );
    }
    if part == b"*" {
        return;
    }
    match memchr::memrchr(b'@', part) {
        Some(at) => check_article(collector, range.clone(), range.start + at),
        None => check_group(collector, range, Rule::NewsGroup),
    }
}

/// `article = 1*[...] "@" host`.
fn check_article(collector: &mut Collector, range: Range<usize>, at: usize) {
    let at_span = Span::new(at, at + 1);
    if range.len() == 1 {
        let message = "the message id is a lone '@', without unique part or domain";
        return report(collector, Rule::NewsGroup, at_span, message);
    }
    if at == range.start {
        let message = "missing the unique part of the message id before '@'";
        report(collector, Rule::NewsGroup, at_span, message);
    }
    chars::check(collector, range.start..at, &UNIQUE);
    let domain = at + 1..range.end;
    if domain.is_empty() {
        let message = "missing the domain of the message id after '@'";
        return report(collector, Rule::NewsGroup, at_span, message);
    }
    if let Some(problem) = host::check(collector.url(), domain) {
        collector.push(
            Diagnostic::new(Rule::BadHost, problem.span, problem.message).with_help(HOST_HELP),
        );
    }
}

/// `group = alpha *[alpha | digit | "-" | "." | "+" | "_"]`; its characters
/// cannot be encoded, so each bad one is a `rule` problem of its own.
fn check_group(collector: &mut Collector, group: Range<usize>, rule: Rule) {
    let url = collector.url();
    let bytes = url.as_bytes();
    let mut at = group.start;
    while at < group.end {
        let span = char_span(url, at);
        let byte = bytes[at];
        let allowed = if at == group.start {
            byte.is_ascii_alphabetic()
        } else {
            byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'+' | b'_')
        };
        if !allowed {
            let what = describe_char(url, at);
            let message = match at == group.start {
                true => format!("a newsgroup name starts with a letter, not {what}"),
                false => format!("character {what} is not allowed in a newsgroup name"),
            };
            collector.push_char(Diagnostic::new(rule, span, message).with_help(help_for(rule)));
        }
        at = span.end;
    }
}

/// Check what follows an nntp URL's host and port: `/group[/digits]`.
pub(crate) fn check_nntp_path(collector: &mut Collector, range: Range<usize>) {
    let bytes = collector.url().as_bytes();
    if range.is_empty() {
        let message = "missing '/<newsgroup-name>' after the host";
        let after_host = Span::new(range.start, range.start);
        return report(collector, Rule::NntpArticle, after_host, message);
    }
    let path = range.start + 1..range.end;
    let slash = memchr::memchr(b'/', &bytes[path.clone()]).map(|at| path.start + at);
    let group = path.start..slash.unwrap_or(path.end);
    if group.is_empty() {
        let message = "missing newsgroup name after '/'";
        report(
            collector,
            Rule::NntpArticle,
            Span::new(range.start, range.start + 1),
            message,
        );
    } else {
        check_group(collector, group, Rule::NntpArticle);
    }
    if let Some(slash) = slash {
        check_article_number(collector, slash, path.end);
    }
}

/// The article number after the `/` at `slash`.
fn check_article_number(collector: &mut Collector, slash: usize, end: usize) {
    let number = slash + 1..end;
    let text = &collector.url()[number.clone()];
    if text.is_empty() {
        let message = "missing article number after '/'";
        let diagnostic = Diagnostic::new(Rule::NntpArticle, Span::new(slash, slash + 1), message);
        // Without the '/' the URL names the group, not an article: the
        // number may have been lost, so dropping the '/' is a suggestion.
        let diagnostic = diagnostic.with_fix("", Applicability::Suggestion);
        return collector.push(diagnostic.with_help(NNTP_HELP));
    }
    if !text.bytes().all(|b| b.is_ascii_digit()) {
        let message = format!("article number '{text}' is not decimal digits");
        report(collector, Rule::NntpArticle, number.into(), message);
    }
}

fn report(collector: &mut Collector, rule: Rule, span: Span, message: impl Into<String>) {
    collector.push(Diagnostic::new(rule, span, message).with_help(help_for(rule)));
}

fn help_for(rule: Rule) -> &'static str {
    match rule {
        Rule::NntpArticle => NNTP_HELP,
        _ => NEWS_HELP,
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::Rule::*;
    use crate::validate::test_cases::{assert_cases, Expect};

    /// Section 3.6 `newsurl`, `grouppart`, `group` and `article`.
    #[test]
    fn rfc1738_3_6_news() {
        let cases: &[(&str, Expect)] = &[
            ("news:comp.infosystems.www.misc", &[]),
            ("news:*", &[]),
            ("news:alt.fan.x-files+y_z.2", &[]),
            ("news:12345@h.example", &[]),
            ("news:a;b/c?d:e&f=g%41@h.example", &[]),
            ("news:", &[(NewsGroup, "", None)]),
            ("news:1comp", &[(NewsGroup, "1", None)]),
            ("news:comp.*", &[(NewsGroup, "*", None)]),
            ("news:comp~lang", &[(NewsGroup, "~", None)]),
            ("news:comp%2Elang", &[(NewsGroup, "%", None)]),
            ("news:comp\u{e9}", &[(NewsGroup, "\u{e9}", None)]),
            ("news://h.example/comp.lang", &[(NewsGroup, "//", None)]),
            ("news:@h.example", &[(NewsGroup, "@", None)]),
            ("news:@", &[(NewsGroup, "@", None)]),
            ("news:123@", &[(NewsGroup, "@", None)]),
            ("news:12 3@h.example", &[(UnsafeChar, " ", Some("%20"))]),
            ("news:1@2@h.example", &[(ReservedChar, "@", Some("%40"))]),
            ("news:123@h..example", &[(BadHost, ".", None)]),
            (
                "news:1%0D%0AQUIT@h.example",
                &[(EncodedNewline, "%0D", None), (EncodedNewline, "%0A", None)],
            ),
        ];
        assert_cases(cases);
    }

    /// Section 3.7 `nntpurl`.
    #[test]
    fn rfc1738_3_7_nntp() {
        let cases: &[(&str, Expect)] = &[
            ("nntp://h.example/comp.lang.c", &[]),
            ("nntp://h.example:119/comp.lang.c/1234", &[]),
            ("nntp://h.example:1190/comp.lang.c/0", &[]),
            ("nntp://h.example", &[(NntpArticle, "", None)]),
            ("nntp://h.example/", &[(NntpArticle, "/", None)]),
            ("nntp://h.example//12", &[(NntpArticle, "/", None)]),
            ("nntp://h.example/comp/", &[(NntpArticle, "/", Some(""))]),
            ("nntp://h.example/comp/12a", &[(NntpArticle, "12a", None)]),
            ("nntp://h.example/comp/1/2", &[(NntpArticle, "1/2", None)]),
            ("nntp://h.example/9comp/1", &[(NntpArticle, "9", None)]),
            ("nntp://h.example/co mp", &[(NntpArticle, " ", None)]),
            (
                "nntp://u@h.example/comp",
                &[(UserinfoNotAllowed, "u@", None)],
            ),
            ("nntp://h.example:25/comp", &[(NondefaultPort, "25", None)]),
            ("nntp:comp.lang", &[(MissingSlashes, "", None)]),
        ];
        assert_cases(cases);
    }
}
