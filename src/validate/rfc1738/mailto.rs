//! MAILTO (section 3.5): `mailto:<rfc822-addr-spec>`, one address of the
//! shape `local-part@domain`, with no reserved characters.

use std::ops::Range;

use super::chars::{self, Part};
use super::host;
use crate::diagnostic::Diagnostic;
use crate::rules::Rule;
use crate::span::Span;
use crate::validate::collector::Collector;

/// The address: `1*xchar`, decoded into a mail transaction.
const ADDRESS: Part = Part {
    decoded_by: Some("SMTP"),
    ..Part::xchar("mail address")
};

const ADDRESS_HELP: &str = "RFC 1738 section 3.5: a mailto URL holds exactly one RFC 822 \
     addr-spec, local-part@domain, percent-encoded where needed; header fields such as \
     '?subject=' are not part of RFC 1738";

const RFC6068_HELP: &str = "RFC 1738 section 3.5: a mailto URL holds exactly one RFC 822 \
     addr-spec; several addresses and header fields such as '?subject=' came with RFC 2368 \
     and its successor RFC 6068, which the rfc3986 profile checks";

/// Check the scheme-specific part of a mailto URL.
pub(crate) fn check(collector: &mut Collector, range: Range<usize>) {
    let range = match later_extension(collector, range.clone()) {
        Some(extension) => {
            report_later_extension(collector, extension.clone());
            range.start..extension.start
        }
        None => range,
    };
    let bytes = collector.url().as_bytes();
    if range.is_empty() {
        let end = range.start;
        return report(
            collector,
            Span::new(end, end),
            "missing address after 'mailto:'",
        );
    }
    let Some(at) = separator(bytes, range.clone()) else {
        chars::check(collector, range.clone(), &ADDRESS);
        let message = "the address has no '@domain' after its local part";
        return report(collector, Span::new(range.end, range.end), message);
    };
    if at == range {
        let message = "the address is a lone '@', without local part or domain";
        return report(collector, range.into(), message);
    }
    check_local_part(collector, range.start..at.start, at.clone());
    check_domain(collector, at.end..range.end, at);
}

/// The `@` between the local part and the domain in `range`: the first
/// literal one, else the first encoded one (`%40`), since "within mailto
/// URLs, there are no reserved characters" and an address may be written
/// encoded whole (section 3.5), as docutils' e-mail cloaking writes it.
fn separator(bytes: &[u8], range: Range<usize>) -> Option<Range<usize>> {
    let address = &bytes[range.clone()];
    if let Some(at) = memchr::memchr(b'@', address) {
        return Some(range.start + at..range.start + at + 1);
    }
    let at = memchr::memmem::find(address, b"%40")?;
    Some(range.start + at..range.start + at + 3)
}

/// Where header fields (`?`) or further addresses (`,`) start after the
/// domain's `@`: RFC 6068 syntax, not RFC 1738's (in the local part, both
/// are plain `xchar`s).
fn later_extension(collector: &Collector, range: Range<usize>) -> Option<Range<usize>> {
    let bytes = collector.url().as_bytes();
    let at = separator(bytes, range.clone())?;
    let start = memchr::memchr2(b'?', b',', &bytes[at.start..range.end])?;
    Some(at.start + start..range.end)
}

fn report_later_extension(collector: &mut Collector, extension: Range<usize>) {
    let message = match collector.url().as_bytes()[extension.start] {
        b'?' => {
            "header fields ('?subject=...') in mailto URLs come from RFC 6068, not RFC \
                 1738; the rfc3986 profile accepts them"
        }
        _ => {
            "several addresses in one mailto URL come from RFC 6068, not RFC 1738; the \
              rfc3986 profile accepts them"
        }
    };
    collector.push(
        Diagnostic::new(Rule::MailtoAddress, extension.into(), message).with_help(RFC6068_HELP),
    );
}

fn check_local_part(collector: &mut Collector, local: Range<usize>, at: Range<usize>) {
    if local.is_empty() {
        return report(collector, at.into(), "missing local part before '@'");
    }
    chars::check(collector, local.clone(), &ADDRESS);
    let bytes = &collector.url().as_bytes()[local.clone()];
    let stray_dot = if bytes.first() == Some(&b'.') {
        Some(0)
    } else if bytes.last() == Some(&b'.') {
        Some(bytes.len() - 1)
    } else {
        bytes
            .windows(2)
            .position(|pair| pair == b"..")
            .map(|at| at + 1)
    };
    if let Some(offset) = stray_dot {
        let dot = local.start + offset;
        let message = "a local part's words are separated by single dots";
        report(collector, Span::new(dot, dot + 1), message);
    }
}

fn check_domain(collector: &mut Collector, domain: Range<usize>, at: Range<usize>) {
    let url = collector.url();
    if domain.is_empty() {
        return report(collector, at.into(), "missing domain after '@'");
    }
    // An encoded domain cannot be judged as a host name without decoding it;
    // its characters are still checked.
    if url.as_bytes()[domain.clone()].contains(&b'%') {
        return chars::check(collector, domain, &ADDRESS);
    }
    if let Some(problem) = host::check(url, domain) {
        report(
            collector,
            problem.span,
            format!("mail domain: {}", problem.message),
        );
    }
}

fn report(collector: &mut Collector, span: Span, message: impl Into<String>) {
    collector.push(Diagnostic::new(Rule::MailtoAddress, span, message).with_help(ADDRESS_HELP));
}

#[cfg(test)]
mod tests {
    use crate::rules::Rule::*;
    use crate::validate::test_cases::{assert_cases, Expect};

    /// Section 3.5 `mailtourl` and `encoded822addr`.
    #[test]
    fn rfc1738_3_5_mailto() {
        let cases: &[(&str, Expect)] = &[
            ("mailto:timbl@info.cern.ch", &[]),
            ("mailto:first.last+tag@h.example", &[]),
            ("mailto:a/b=c&d;e:f?g@h.example", &[]),
            ("mailto:%22john%20doe%22@h.example", &[]),
            ("mailto:user%25relay@h.example", &[]),
            ("mailto:u@%5B10.0.0.1%5D", &[]),
            ("mailto:", &[(MailtoAddress, "", None)]),
            ("mailto:user", &[(MailtoAddress, "", None)]),
            (
                "mailto:us er",
                &[(UnsafeChar, " ", Some("%20")), (MailtoAddress, "", None)],
            ),
            ("mailto:@h.example", &[(MailtoAddress, "@", None)]),
            ("mailto:@", &[(MailtoAddress, "@", None)]),
            ("mailto:u@", &[(MailtoAddress, "@", None)]),
            ("mailto:.u@h.example", &[(MailtoAddress, ".", None)]),
            ("mailto:u..v@h.example", &[(MailtoAddress, ".", None)]),
            ("mailto:u@h..example", &[(MailtoAddress, ".", None)]),
            (
                "mailto:u@h.example?subject=x",
                &[(MailtoAddress, "?subject=x", None)],
            ),
            (
                "mailto:a@h.example,b@h.example",
                &[(MailtoAddress, ",b@h.example", None)],
            ),
            (
                "mailto:a@h.example,b@h.example?cc=c@h.example",
                &[(MailtoAddress, ",b@h.example?cc=c@h.example", None)],
            ),
            ("mailto:a?b,c@h.example", &[]),
            (
                "mailto:john doe@h.example",
                &[(UnsafeChar, " ", Some("%20"))],
            ),
            ("mailto:user%relay@h.example", &[(BadEscape, "%", None)]),
            (
                "mailto:u%0D%0ABcc:x@h.example",
                &[(EncodedNewline, "%0D", None), (EncodedNewline, "%0A", None)],
            ),
            (
                "mailto:jos\u{e9}@h.example",
                &[(NonAscii, "\u{e9}", Some("%C3%A9"))],
            ),
            ("mailto:u@h~x.example", &[(MailtoAddress, "~", None)]),
            // No reserved characters: an encoded '@' separates as a literal
            // one does, and a literal one comes first.
            ("mailto:ann%40h.example", &[]),
            ("mailto:%22a%40b%22@h.example", &[]),
            ("mailto:ann%40", &[(MailtoAddress, "%40", None)]),
            ("mailto:%40h.example", &[(MailtoAddress, "%40", None)]),
            ("mailto:%40", &[(MailtoAddress, "%40", None)]),
            ("mailto:ann%40h..example", &[(MailtoAddress, ".", None)]),
            (
                "mailto:ann%40h.example?subject=x",
                &[(MailtoAddress, "?subject=x", None)],
            ),
            ("mailto:ann%2540h.example", &[(MailtoAddress, "", None)]),
        ];
        assert_cases(cases);
    }
}
