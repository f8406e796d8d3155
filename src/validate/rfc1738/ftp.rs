//! FTP (section 3.2): `ftp://<login>/<cwd1>/.../<name>;type=<typecode>`.

use std::ops::Range;

use super::chars::{self, ByteSet, Part};
use crate::diagnostic::Diagnostic;
use crate::rules::Rule;
use crate::span::Span;
use crate::validate::collector::Collector;

/// `fpath` of an ftp URL: `fsegment`s of `*[uchar | "?" | ":" | "@" | "&" | "="]`
/// separated by `/`; `;` is reserved (section 3.2.2).
pub(crate) const FTP_PATH: Part = Part {
    name: "ftp path",
    reserved: ByteSet::of(b"/?:@&="),
    decoded_by: Some("FTP"),
};

const TYPECODE_HELP: &str = "RFC 1738 section 3.2.2: the optional ';type=<typecode>' ends \
     an ftp URL and the typecode is 'a' (ASCII), 'i' (image) or 'd' (directory listing)";

/// Check the path after the login: nothing, or `/fpath[;type=X]`.
pub(crate) fn check_path(collector: &mut Collector, range: Range<usize>) {
    if range.is_empty() {
        return;
    }
    let (names, typecode) = split_typecode(collector.url(), range.start + 1..range.end);
    chars::check(collector, names, &FTP_PATH);
    if let Some(code) = typecode {
        check_typecode(collector, code);
    }
}

/// The names of an ftp path (what follows the `/` after the login) and the
/// typecode after its final `;type=`, when it has one: shared by both
/// profiles, which check the names with their own characters.
pub(crate) fn split_typecode(
    url: &str,
    path: Range<usize>,
) -> (Range<usize>, Option<Range<usize>>) {
    let typecode = find_typecode(url, path.clone());
    let names_end = typecode
        .as_ref()
        .map_or(path.end, |code| code.start - ";type=".len());
    (path.start..names_end, typecode)
}

/// The typecode after a final `;type=` (any case, as RFC 822 literals are),
/// when the last segment has one.
fn find_typecode(url: &str, path: Range<usize>) -> Option<Range<usize>> {
    let bytes = url.as_bytes();
    let semicolon = path.start + memchr::memrchr(b';', &bytes[path.clone()])?;
    let rest = &bytes[semicolon + 1..path.end];
    let is_type = rest.len() >= 5 && rest[..5].eq_ignore_ascii_case(b"type=");
    (is_type && !rest.contains(&b'/')).then_some(semicolon + 6..path.end)
}

/// Report a typecode that is not `a`, `i` or `d`, or a `;type=` without one.
pub(crate) fn check_typecode(collector: &mut Collector, code: Range<usize>) {
    let bytes = collector.url().as_bytes();
    if matches!(
        &bytes[code.clone()],
        [b'a' | b'i' | b'd' | b'A' | b'I' | b'D']
    ) {
        return;
    }
    let (span, message) = if code.is_empty() {
        (
            Span::new(code.start - 5, code.start),
            "';type=' is not followed by a typecode".to_string(),
        )
    } else {
        let text = &collector.url()[code.clone()];
        (
            code.into(),
            format!("ftp typecode '{text}' is not 'a', 'i' or 'd'"),
        )
    };
    collector.push(Diagnostic::new(Rule::FtpTypecode, span, message).with_help(TYPECODE_HELP));
}

#[cfg(test)]
mod tests {
    use crate::rules::Rule::*;
    use crate::validate::test_cases::{assert_cases, Expect};

    /// Sections 3.2 and 3.2.2: `ftpurl`, `fpath`, `fsegment`, `ftptype`.
    #[test]
    fn rfc1738_3_2_ftp() {
        let cases: &[(&str, Expect)] = &[
            ("ftp://h.example", &[]),
            ("ftp://h.example/", &[]),
            ("ftp://h.example/pub/file.txt", &[]),
            ("ftp://h.example/a?b:c@d&e=f", &[]),
            ("ftp://h.example//etc/motd", &[]),
            ("ftp://h.example/%2Fetc/motd", &[]),
            ("ftp://h.example/dir;type=d", &[]),
            ("ftp://h.example/f;type=a", &[]),
            ("ftp://h.example/f;type=I", &[]),
            ("ftp://h.example/f;TYPE=i", &[]),
            ("ftp://h.example/;type=d", &[]),
            ("ftp://h.example/f;type=x", &[(FtpTypecode, "x", None)]),
            ("ftp://h.example/f;type=ai", &[(FtpTypecode, "ai", None)]),
            ("ftp://h.example/f;type=", &[(FtpTypecode, "type=", None)]),
            ("ftp://h.example/f;type=a~", &[(FtpTypecode, "a~", None)]),
            ("ftp://h.example/a;b", &[(ReservedChar, ";", Some("%3B"))]),
            (
                "ftp://h.example/a;type=a/b",
                &[(ReservedChar, ";", Some("%3B"))],
            ),
            (
                "ftp://h.example/a;b;type=a",
                &[(ReservedChar, ";", Some("%3B"))],
            ),
            (
                "ftp://h.example/a%0D%0ADELE%20x",
                &[(EncodedNewline, "%0D", None), (EncodedNewline, "%0A", None)],
            ),
            (
                "ftp://h.example/a b;type=q",
                &[(UnsafeChar, " ", Some("%20")), (FtpTypecode, "q", None)],
            ),
            ("ftp:h.example/f", &[(MissingSlashes, "", None)]),
        ];
        assert_cases(cases);
    }
}
