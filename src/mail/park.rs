//! Media types hidden from mail-parser, so that it leaves to the walk work
//! the walk does better or does anyway.
//!
//! Before mail-parser sees a message, the media type of each `Content-Type`
//! field that opens a line is *parked* when it is one of two kinds: it is
//! overwritten, in place and at the same length, by a type mail-parser does
//! not know, so it keeps the part as bytes (transfer-decoded, if it was
//! encoded) and the walk reads it. A text part's quoted-printable encoding
//! is parked the same way.
//!
//! - **Messages** (`message/rfc822`, `message/global`) become
//!   [`PARKED_MESSAGE`]. mail-parser parses a nested message along with its
//!   parent, every level at once: 200,000 nested levels in 9 MB took 314 MB
//!   before the walk could stop at its depth cap. And it decodes a base64 or
//!   quoted-printable message part, parses it, then gives every message
//!   nested inside it a copy of the whole decoded part: 2,000 small messages
//!   in one base64 part of a 205 KB message took 315 MB, growing with the
//!   square of the part. Parked, the walk parses each message part when it
//!   gets there, so only the levels on its way are held, and nested
//!   messages borrow rather than copy.
//! - **Texts** (`text/...`) become [`PARKED_TEXT`]. mail-parser decodes
//!   every text part's charset into a string, and the walk decodes the part
//!   again, with a map back to its bytes, for all but base64 parts: on list
//!   mail that first decoding is most of the cost of reading a body. Parked,
//!   a text part comes as bytes, and the walk makes mail-parser's string
//!   itself only for a base64 part, where it is used ([`text_as_parsed`]).
//! - **Quoted-printable text** (`Content-Transfer-Encoding:
//!   quoted-printable` in a parked text type's header block) becomes
//!   [`PARKED_QUOTED_PRINTABLE`]. mail-parser decoded such a body into a
//!   buffer a byte at a time (a tenth of the instructions on list mail),
//!   and the walk decodes it again with its map; parked, mail-parser keeps
//!   the bytes where they are. Whether its decoder would have given up is
//!   all the walk took from it, and [`encoding_as_parsed`] works that out
//!   as the decoder does.
//!
//! A field is parked wherever it opens a line, in a header block or not: in
//! a body that only changes the text the scanner reads there
//! (`xparked/rfc822` for `message/rfc822`, `x-tx/plain` for `text/plain`),
//! never the archive text shown, and no URL starts a line with
//! `Content-Type:` nor holds the type's first bytes, which a `/` follows.
//! A field the walk reads as mail-parser found it (one folded before its
//! value, say) is read as it always was.

use std::ops::Range;

use mail_parser::decoders::charsets::map::charset_decoder;
use mail_parser::decoders::quoted_printable::HEX_MAP;
use mail_parser::{ContentType, Encoding, MessagePart, MimeHeaders, PartType};

/// What a parked message part's media type reads instead of `message`.
pub(super) const PARKED_MESSAGE: &str = "xparked";

/// What a parked text part's media type reads instead of `text`.
pub(super) const PARKED_TEXT: &str = "x-tx";

/// What a parked quoted-printable transfer encoding reads instead: a name
/// mail-parser does not know, as long as `quoted-printable`.
pub(super) const PARKED_QUOTED_PRINTABLE: &str = "x-parked-qp-text";

/// The transfer encoding that is parked, as written in any case.
const QUOTED_PRINTABLE: &[u8] = b"quoted-printable";

/// The media types mail-parser parses as a nested message.
const NESTED_TYPES: &[&[u8]] = &[b"message/rfc822", b"message/global"];

/// Park every message and text part's `Content-Type` in `bytes`.
pub(super) fn park_content_types(bytes: &mut [u8]) {
    const NAME: &[u8] = b"content-type";
    // The field's `:` is searched for rather than every line looked at
    // (mail has far fewer `:` than lines, and a search per line costs more
    // than the search); a line opens the field when the name comes right
    // before a `:` and right after a line break.
    let opening_lines: Vec<usize> = memchr::memchr_iter(b':', bytes)
        .filter_map(|colon| {
            let at = colon.checked_sub(NAME.len())?;
            let opens_line = at == 0 || bytes[at - 1] == b'\n';
            (opens_line && bytes[at..colon].eq_ignore_ascii_case(NAME)).then_some(at)
        })
        .collect();
    // Lines looked at for a text part's transfer encoding are not looked
    // at again for a later field among them (such lines are refused).
    let mut looked_at = 0;
    // Only a `quoted-printable` is parked, and eight list messages in nine
    // hold none: their header blocks need no reading.
    let mut may_park_encoding = None;
    for at in opening_lines {
        let line_end = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |i| at + i + 1);
        let line = &bytes[at..line_end];
        let token = value_token(line, NAME.len() + 1);
        let media = &line[token.clone()];
        let parked = if NESTED_TYPES.iter().any(|t| media.eq_ignore_ascii_case(t)) {
            PARKED_MESSAGE
        } else if media.len() > 5 && media[..5].eq_ignore_ascii_case(b"text/") {
            PARKED_TEXT
        } else {
            continue;
        };
        let start = at + token.start;
        bytes[start..start + parked.len()].copy_from_slice(parked.as_bytes());
        if parked == PARKED_TEXT && at >= looked_at {
            let may_park = *may_park_encoding.get_or_insert_with(|| {
                find_ignoring_case(bytes, QUOTED_PRINTABLE).next().is_some()
            });
            if may_park {
                looked_at = park_quoted_printable(bytes, at);
            }
        }
    }
}

/// Park the `quoted-printable` of the text part whose `Content-Type` opens
/// the line at `at`, when its header block surely holds that field and
/// one plain `Content-Transfer-Encoding: quoted-printable`, and no other
/// field of either name; returns where the lines looked at end.
///
/// mail-parser ends a header block only at a blank line, so the block of
/// the encoding's field lies in the run of lines that are not blank around
/// it: a name found once in that run (looked for in every line with a `:`,
/// blanks dropped, as mail-parser reads names) is found once in the block.
/// The block starts after a blank line or after a delimiter line, which
/// holds `--`: with no `--` from the `Content-Type` line to the encoding's
/// line, a `Content-Type` before the encoding is in its block too, and one
/// after it always is.
fn park_quoted_printable(bytes: &mut [u8], at: usize) -> usize {
    let start = paragraph_start(bytes, at);
    let mut squeezed = Vec::new();
    let mut encoding = None;
    let mut content_types = 0;
    let mut is_refused = false;
    // The paragraph's lines are read once, from its start to the blank line
    // that ends it: each line's names are counted as it is passed.
    let mut line_start = start;
    let end = loop {
        if line_start >= bytes.len() {
            break bytes.len();
        }
        let line_end =
            memchr::memchr(b'\n', &bytes[line_start..]).map_or(bytes.len(), |i| line_start + i + 1);
        let line = &bytes[line_start..line_end];
        if is_blank(line) {
            break line_start;
        }
        if !is_refused {
            let (types, encodings) = field_name_counts(line, &mut squeezed);
            content_types += types;
            if encodings > 0 {
                is_refused = encoding.is_some() || encodings > 1;
                encoding = Some(line_start);
            }
        }
        line_start = line_end;
    };
    if let Some(line_start) = encoding.filter(|_| content_types == 1 && !is_refused) {
        park_encoding_field(bytes, at, line_start);
    }
    end
}

/// Park the value of the encoding field opening the line at `field`, the
/// one such field of the header block of the text type at `at`, when no
/// delimiter line (`--`) may start another block between the type and it
/// and mail-parser reads exactly `quoted-printable` from it.
fn park_encoding_field(bytes: &mut [u8], at: usize, field: usize) {
    if at < field && memchr::memmem::find(&bytes[at..field], b"--").is_some() {
        return;
    }
    if let Some(value) = plain_quoted_printable(bytes, field) {
        bytes[value..value + PARKED_QUOTED_PRINTABLE.len()]
            .copy_from_slice(PARKED_QUOTED_PRINTABLE.as_bytes());
    }
}

/// True when `line` is blank as mail-parser sees it: only whitespace
/// before its line break, which ends a header block.
fn is_blank(line: &[u8]) -> bool {
    line.iter().all(u8::is_ascii_whitespace)
}

/// Where the run of lines that are not blank and holds the line at `at`
/// starts.
fn paragraph_start(bytes: &[u8], at: usize) -> usize {
    let mut start = at;
    while start > 0 {
        let line_start = memchr::memrchr(b'\n', &bytes[..start - 1]).map_or(0, |i| i + 1);
        if is_blank(&bytes[line_start..start]) {
            break;
        }
        start = line_start;
    }
    start
}

/// How many times `line`, blanks dropped, names `Content-Type` and
/// `Content-Transfer-Encoding` (any case) before its last `:`, where any
/// name of the line ends; `squeezed` is room for those bytes when the
/// names hold blanks.
fn field_name_counts(line: &[u8], squeezed: &mut Vec<u8>) -> (usize, usize) {
    const CONTENT_TYPE: &[u8] = b"content-type";
    const TRANSFER_ENCODING: &[u8] = b"content-transfer-encoding";
    let names_end = memchr::memrchr(b':', line).unwrap_or(0);
    let names = &line[..names_end];
    // Both names hold `-t`: most lines, without one, need no closer look.
    let has_dash_t = memchr::memchr_iter(b'-', names).any(|dash| {
        let after = names[dash + 1..]
            .iter()
            .find(|byte| !byte.is_ascii_whitespace());
        after.is_some_and(|byte| byte.eq_ignore_ascii_case(&b't'))
    });
    if !has_dash_t {
        return (0, 0);
    }
    // Names are nearly always written without blanks, and read in place.
    let names = if names.iter().any(u8::is_ascii_whitespace) {
        squeezed.clear();
        squeezed.extend(names.iter().filter(|byte| !byte.is_ascii_whitespace()));
        &squeezed[..]
    } else {
        names
    };
    (
        count_ignoring_case(names, CONTENT_TYPE),
        count_ignoring_case(names, TRANSFER_ENCODING),
    )
}

/// How many times `needle` is in `haystack`, any case; none of its proper
/// prefixes is also its suffix, so no two can overlap.
fn count_ignoring_case(haystack: &[u8], needle: &[u8]) -> usize {
    find_ignoring_case(haystack, needle).count()
}

/// Where `needle`, which starts with a letter, is in `haystack`, any case.
fn find_ignoring_case<'h>(
    haystack: &'h [u8],
    needle: &'h [u8],
) -> impl Iterator<Item = usize> + 'h {
    let first = needle[0];
    memchr::memchr2_iter(
        first.to_ascii_lowercase(),
        first.to_ascii_uppercase(),
        haystack,
    )
    .filter(move |&at| {
        haystack[at..]
            .get(..needle.len())
            .is_some_and(|candidate| candidate.eq_ignore_ascii_case(needle))
    })
}

/// Where `quoted-printable` is in the field opening the line at `at` when
/// the field is `Content-Transfer-Encoding:`, blanks, `quoted-printable`
/// (any case), its line break, and no folded line after it: mail-parser
/// reads exactly that value from it.
fn plain_quoted_printable(bytes: &[u8], at: usize) -> Option<usize> {
    const NAME: &[u8] = b"content-transfer-encoding:";
    let line_end = memchr::memchr(b'\n', &bytes[at..]).map(|i| at + i)?;
    let line = &bytes[at..line_end];
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    if line.len() < NAME.len() || !line[..NAME.len()].eq_ignore_ascii_case(NAME) {
        return None;
    }
    let blanks = line[NAME.len()..]
        .iter()
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count();
    let value = NAME.len() + blanks;
    let folded = matches!(bytes.get(line_end + 1), Some(b' ' | b'\t'));
    (blanks > 0 && line[value..].eq_ignore_ascii_case(QUOTED_PRINTABLE) && !folded)
        .then_some(at + value)
}

/// True when a part's content type is a parked message type.
pub(super) fn is_parked_message(content_type: Option<&ContentType<'_>>) -> bool {
    content_type.is_some_and(|ct| ct.ctype().eq_ignore_ascii_case(PARKED_MESSAGE))
}

/// True when a part's content type is a parked text type.
pub(super) fn is_parked_text(content_type: Option<&ContentType<'_>>) -> bool {
    content_type.is_some_and(|ct| ct.ctype().eq_ignore_ascii_case(PARKED_TEXT))
}

/// mail-parser's transfer encoding of `part`, whose body is `body`, and
/// whether it found an encoding problem, as if its quoted-printable had not
/// been parked.
///
/// A parked part's body was read up to its boundary as an unencoded body
/// is, to the same end; a problem then (no boundary) is one either way.
/// Otherwise mail-parser's quoted-printable decoder gives up at an `=`
/// that comes while an escape is open (`==`, `=A=`): the state machine
/// below is that decoder's, its output left out.
pub(super) fn encoding_as_parsed(part: &MessagePart<'_>, body: &[u8]) -> (Encoding, bool) {
    let is_parked = part
        .content_transfer_encoding()
        .is_some_and(|name| name.eq_ignore_ascii_case(PARKED_QUOTED_PRINTABLE));
    if !is_parked || part.is_encoding_problem {
        return (part.encoding, part.is_encoding_problem);
    }
    if quoted_printable_gives_up(body) {
        (Encoding::None, true)
    } else {
        (Encoding::QuotedPrintable, false)
    }
}

/// Where mail-parser's quoted-printable decoder is in an escape.
#[derive(Clone, Copy)]
enum Escape {
    /// Not in one.
    Outside,
    /// After `=`.
    Equals,
    /// After `=` and a hex digit.
    FirstDigit,
}

/// True when mail-parser's quoted-printable decoder gives up on `body`.
/// Line breaks do not close an open `=X` (the decoder's own quirk), and
/// blanks after `=` keep it open, as a soft break may have them; outside
/// an escape only an `=` matters, so the decoder is followed from each.
fn quoted_printable_gives_up(body: &[u8]) -> bool {
    let mut at = 0;
    while let Some(equals) = memchr::memchr(b'=', &body[at..]) {
        at += equals + 1;
        let mut escape = Escape::Equals;
        while let Some(&byte) = body.get(at).filter(|_| !matches!(escape, Escape::Outside)) {
            escape = match (escape, byte) {
                (_, b'=') => return true,
                (Escape::Equals, b'\n') => Escape::Outside,
                (state, b'\n' | b'\r') => state,
                (Escape::Equals, byte) if HEX_MAP[usize::from(byte)] != -1 => Escape::FirstDigit,
                (Escape::Equals, byte) if byte.is_ascii_whitespace() => Escape::Equals,
                _ => Escape::Outside,
            };
            at += 1;
        }
    }
    false
}

/// The transfer encoding a `Content-Transfer-Encoding` value names, as it
/// was written before parking.
pub(super) fn unparked_encoding(name: &str) -> &str {
    if name.eq_ignore_ascii_case(PARKED_QUOTED_PRINTABLE) {
        "quoted-printable"
    } else {
        name
    }
}

/// A media type's top-level type as it was written before parking (lower
/// case, as mail-parser gives it).
pub(super) fn unparked(ctype: &str) -> &str {
    if ctype.eq_ignore_ascii_case(PARKED_TEXT) {
        "text"
    } else if ctype.eq_ignore_ascii_case(PARKED_MESSAGE) {
        "message"
    } else {
        ctype
    }
}

/// The string mail-parser would have made of the parked text part `part`,
/// when the walk uses it: the part was base64 and decoded. Its charset is
/// decoded as mail-parser decodes it, so that the text is the same as if
/// the part had not been parked.
pub(super) fn text_as_parsed(part: &MessagePart<'_>) -> Option<String> {
    if part.encoding != mail_parser::Encoding::Base64 {
        return None;
    }
    let (PartType::Binary(bytes) | PartType::InlineBinary(bytes)) = &part.body else {
        return None;
    };
    let decoder = part
        .content_type()
        .and_then(|ct| ct.attribute("charset"))
        .and_then(|label| charset_decoder(label.as_bytes()));
    Some(match decoder {
        Some(decode) => decode(bytes),
        None => String::from_utf8_lossy(bytes).into_owned(),
    })
}

/// Where the first token of the value at `value` in `line` is: blanks
/// skipped, up to a `;`, a blank, a comment or the line end.
fn value_token(line: &[u8], value: usize) -> Range<usize> {
    let start = line[value..]
        .iter()
        .position(|b| !matches!(b, b' ' | b'\t'))
        .map_or(line.len(), |i| value + i);
    let end = line[start..]
        .iter()
        .position(|b| matches!(b, b';' | b' ' | b'\t' | b'\r' | b'\n' | b'('))
        .map_or(line.len(), |i| start + i);
    start..end
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn parked(text: &str) -> String {
        let mut bytes = text.as_bytes().to_vec();
        park_content_types(&mut bytes);
        String::from_utf8(bytes).expect("parking keeps UTF-8")
    }

    #[test]
    fn rfc2046_5_2_1_message_types_are_parked_wherever_they_open_a_line() {
        let cases = [
            (
                "Content-Type: message/rfc822\nContent-Transfer-Encoding: base64\n\nx\n",
                "Content-Type: xparked/rfc822\nContent-Transfer-Encoding: base64\n\nx\n",
            ),
            (
                "CONTENT-TYPE:Message/Global; x=1\r\n",
                "CONTENT-TYPE:xparked/Global; x=1\r\n",
            ),
            (
                "body\nContent-Type: message/rfc822\n",
                "body\nContent-Type: xparked/rfc822\n",
            ),
            (
                "Content-Type: message/partial\n",
                "Content-Type: message/partial\n",
            ),
            (
                "X-Content-Type: message/rfc822\n",
                "X-Content-Type: message/rfc822\n",
            ),
            // Any case of the name; a `:` too early in the text to follow it.
            (
                "a:\ncOnTeNt-tYpE: message/rfc822\n",
                "a:\ncOnTeNt-tYpE: xparked/rfc822\n",
            ),
            // Not at a line's start, though the line before ends in `:`.
            (
                "Note: Content-Type: message/rfc822\n",
                "Note: Content-Type: message/rfc822\n",
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(parked(text), expected, "{text:?}");
        }
    }

    #[test]
    fn rfc2046_4_1_text_types_are_parked_with_a_subtype_only() {
        let cases = [
            (
                "Content-Type: text/plain; charset=iso-8859-1\n",
                "Content-Type: x-tx/plain; charset=iso-8859-1\n",
            ),
            ("Content-type:TEXT/HTML\r\n", "Content-type:x-tx/HTML\r\n"),
            (
                "Content-Type: text/x-diff (a patch)\n",
                "Content-Type: x-tx/x-diff (a patch)\n",
            ),
            // No subtype, a type that only starts like one, a folded value:
            // left as they are.
            ("Content-Type: text\n", "Content-Type: text\n"),
            ("Content-Type: text/\n", "Content-Type: text/\n"),
            ("Content-Type: textual/x\n", "Content-Type: textual/x\n"),
            (
                "Content-Type:\n text/plain\n",
                "Content-Type:\n text/plain\n",
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(parked(text), expected, "{text:?}");
        }
    }

    #[test]
    fn a_parked_type_reads_as_it_was_written() {
        assert_eq!(unparked("x-tx"), "text");
        assert_eq!(unparked("xparked"), "message");
        assert_eq!(unparked("image"), "image");
    }

    /// What `read` makes of the first part of `raw` as mail-parser parses
    /// it, parked first or not.
    fn first_part<R>(raw: &str, park: bool, read: impl FnOnce(&MessagePart<'_>) -> R) -> R {
        let mut bytes = raw.as_bytes().to_vec();
        if park {
            park_content_types(&mut bytes);
        }
        let message = mail_parser::MessageParser::default()
            .parse(&bytes[..])
            .expect("parses");
        read(&message.parts[0])
    }

    /// mail-parser's string of a text part.
    fn parsed_text(part: &MessagePart<'_>) -> Option<String> {
        match &part.body {
            PartType::Text(text) | PartType::Html(text) => Some(text.to_string()),
            _ => None,
        }
    }

    #[test]
    fn a_parked_base64_text_reads_as_mail_parser_would_have_read_it() {
        let cases = [
            // UTF-8, and bytes that are not.
            ("text/plain; charset=utf-8", "aHR0cDovL2EuZXhhbXBsZS/DqQ=="),
            ("text/plain", "aHR0cDovL2EuZXhhbXBsZS/p"),
            // A single-byte charset, a multi-byte one, an unknown label.
            (
                "text/html; charset=windows-1252",
                "PGEgaHJlZj0iaHR0cDovL3gvIj6TPC9hPg==",
            ),
            (
                "text/plain; charset=iso-2022-jp",
                "GyRCJEgbKEIgaHR0cDovL3gv",
            ),
            ("text/plain; charset=x-unheard-of", "aHR0cDovL3gv6Q=="),
        ];
        for (content_type, body) in cases {
            let raw = format!(
                "Content-Type: {content_type}\nContent-Transfer-Encoding: base64\n\n{body}\n"
            );
            let expected = first_part(&raw, false, parsed_text);
            assert!(expected.is_some(), "{raw:?}");
            let (is_parked, text) = first_part(&raw, true, |part| {
                (is_parked_text(part.content_type()), text_as_parsed(part))
            });
            assert!(is_parked, "{raw:?}");
            assert_eq!(text, expected, "{raw:?}");
        }
    }

    #[test]
    fn a_parked_text_that_was_not_base64_is_left_to_the_walk() {
        for encoding in ["7bit", "quoted-printable", "base64"] {
            // The base64 body does not decode: mail-parser reads it raw.
            let raw = format!(
                "Content-Type: text/plain\nContent-Transfer-Encoding: {encoding}\n\n=E9 !!\n"
            );
            let (is_parked, text) = first_part(&raw, true, |part| {
                (is_parked_text(part.content_type()), text_as_parsed(part))
            });
            assert!(is_parked, "{raw:?}");
            assert_eq!(text, None, "{raw:?}");
        }
    }

    #[test]
    fn rfc2045_6_7_quoted_printable_is_parked_beside_a_text_type_only() {
        const QP: &str = "Content-Transfer-Encoding: quoted-printable\n";
        let cases = [
            // In a message's header, before or after the type, CRLF or not,
            // any case; in a part's header after its delimiter line.
            (
                format!("Subject: s\n{QP}Content-Type: text/plain\n\n=41\n"),
                true,
            ),
            (
                "Content-Type: text/html\r\nContent-Transfer-Encoding:\tQuoted-Printable\r\n\r\n"
                    .into(),
                true,
            ),
            (
                format!("body\n\n--b\nContent-Type: text/plain\n{QP}\nx\n--b--\n"),
                true,
            ),
            // Not beside a text type: a nested message, an image, no type.
            (format!("Content-Type: message/rfc822\n{QP}\nx\n"), false),
            (format!("Content-Type: image/png\n{QP}\nx\n"), false),
            (format!("Subject: s\n{QP}\nx\n"), false),
            // Either name twice among the lines around it, one of them not
            // at a line's start or spelt with blanks, as mail-parser reads.
            (format!("Content-Type: text/plain\n{QP}{QP}\nx\n"), false),
            (
                format!("Content-Type: text/plain\nContent - Type: image/png\n{QP}\nx\n"),
                false,
            ),
            (
                format!("Content-Type: text/plain\nX: y Content-Type: a/b\n{QP}\nx\n"),
                false,
            ),
            // A delimiter line between the type and the encoding may start
            // the encoding's header block; after the encoding it may not.
            (format!("Content-Type: text/plain\n--b\n{QP}\nx\n"), false),
            (
                format!("{QP}X-Id: <a--b>\nContent-Type: text/plain\n\nx\n"),
                true,
            ),
            // A value mail-parser reads as something else: folded, with a
            // comment, with no blank before it.
            (
                "Content-Type: text/plain\nContent-Transfer-Encoding: quoted-printable\n \n\nx\n"
                    .into(),
                false,
            ),
            (
                "Content-Type: text/plain\nContent-Transfer-Encoding: quoted-printable (qp)\n\nx\n"
                    .into(),
                false,
            ),
            (
                "Content-Type: text/plain\nContent-Transfer-Encoding:quoted-printable\n\nx\n"
                    .into(),
                false,
            ),
            // Separated by a blank line: another block.
            (format!("Content-Type: text/plain\n\n{QP}\nx\n"), false),
            // A first text part with no encoding, a later one in
            // quoted-printable: the message holds it, the later is parked.
            (
                format!(
                    "Content-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/plain\n\n\
                     x\n--b\nContent-Type: text/html\n{QP}\ny\n--b--\n"
                ),
                true,
            ),
        ];
        for (text, is_parked) in cases {
            let parked = parked(&text);
            assert_eq!(
                parked.contains(PARKED_QUOTED_PRINTABLE),
                is_parked,
                "{text:?}"
            );
            assert_eq!(parked.len(), text.len(), "{text:?}");
        }
    }

    /// mail-parser's encoding, problem flag and body end for the first text
    /// part of `message` (its text type already parked), and the same as
    /// [`encoding_as_parsed`] gives them with its quoted-printable parked.
    fn encodings_both_ways(message: &str) -> [(Encoding, bool, u32); 2] {
        let parser = mail_parser::MessageParser::default();
        let read = |bytes: &[u8]| {
            let message = parser.parse(bytes).expect("parses");
            let part = message
                .parts
                .iter()
                .find(|part| is_parked_text(part.content_type()))
                .expect("a text part");
            let body = &bytes[part.offset_body as usize..part.offset_end as usize];
            let (encoding, problem) = encoding_as_parsed(part, body);
            (encoding, problem, part.offset_end)
        };
        let parked = message.replacen("quoted-printable", PARKED_QUOTED_PRINTABLE, 1);
        [read(message.as_bytes()), read(parked.as_bytes())]
    }

    /// A message whose one text part is quoted-printable `body`, in a
    /// multipart (closed or not) or alone.
    fn quoted_printable_message(body: &str, shape: usize) -> String {
        let header = "Content-Type: x-tx/plain\nContent-Transfer-Encoding: quoted-printable\n";
        match shape {
            0 => format!("{header}\n{body}"),
            1 => format!(
                "Content-Type: multipart/mixed; boundary=b\n\n--b\n{header}\n{body}.\n--b--\n"
            ),
            _ => format!("Content-Type: multipart/mixed; boundary=b\n\n--b\n{header}\n{body}"),
        }
    }

    #[test]
    fn rfc2045_6_7_a_parked_encoding_reads_as_mail_parser_decoded_it() {
        let bodies = [
            "plain text",
            "caf=C3=A9 soft=\nbreak, blanks after =  \nand CRLF =\r\n",
            "literal = sign and =ZZ and =4",
            "==",
            "=A=",
            "=A\n\n=",
            "= \t\r=",
            "=\n=41",
            "a=--b\nc",
            "x--b==",
        ];
        for body in bodies {
            for shape in 0..3 {
                let message = quoted_printable_message(body, shape);
                let [expected, parked] = encodings_both_ways(&message);
                assert_eq!(parked, expected, "{message:?}");
            }
        }
    }

    /// The plain per-colon reading of `park_quoted_printable`, the oracle
    /// of its one-pass reading: a search per `:` for its line, names
    /// squeezed into a lower-case copy and searched for.
    fn park_quoted_printable_per_colon(bytes: &mut [u8], at: usize) -> usize {
        let start = paragraph_start(bytes, at);
        let mut end = at;
        while end < bytes.len() {
            let line_end =
                memchr::memchr(b'\n', &bytes[end..]).map_or(bytes.len(), |i| end + i + 1);
            if is_blank(&bytes[end..line_end]) {
                break;
            }
            end = line_end;
        }
        let paragraph = &bytes[start..end];
        let mut encoding = None;
        let mut content_types = 0;
        let mut line_end = 0;
        for colon in memchr::memchr_iter(b':', paragraph) {
            if colon < line_end {
                continue;
            }
            let line_start = memchr::memrchr(b'\n', &paragraph[..colon]).map_or(0, |i| i + 1);
            line_end =
                memchr::memchr(b'\n', &paragraph[colon..]).map_or(paragraph.len(), |i| colon + i);
            let line = &paragraph[line_start..line_end];
            let names_end = memchr::memrchr(b':', line).unwrap_or(0);
            let squeezed: Vec<u8> = line[..names_end]
                .iter()
                .filter(|byte| !byte.is_ascii_whitespace())
                .map(u8::to_ascii_lowercase)
                .collect();
            let count = |name: &[u8]| memchr::memmem::find_iter(&squeezed, name).count();
            content_types += count(b"content-type");
            let encodings = count(b"content-transfer-encoding");
            if encodings > 0 {
                if encoding.is_some() || encodings > 1 {
                    return end;
                }
                encoding = Some(start + line_start);
            }
        }
        if let Some(line_start) = encoding.filter(|_| content_types == 1) {
            park_encoding_field(bytes, at, line_start);
        }
        end
    }

    /// Lines of header blocks and bodies that parking's look at the lines
    /// around a text type tells apart.
    const LINES: &[&str] = &[
        "Content-Type: text/plain\n",
        "content-type:text/html; charset=x\r\n",
        "Content - Type: image/png\n",
        "Content-Transfer-Encoding: quoted-printable\n",
        "CONTENT-TRANSFER-ENCODING:\tQuoted-Printable\r\n",
        "Content-Transfer-Encoding:quoted-printable\n",
        "X: y Content-Type: a/b\n",
        "X-Content-Transfer-Encoding: 8bit\n",
        "Content-Transfer- Encoding: base64 at 10:00\n",
        " folded\n",
        "--b\n",
        "X-Id: <a--b>\n",
        "Subject: re-think: it\n",
        "\n",
        " \r\n",
        "body text\n",
        "no line break",
    ];

    proptest! {
        #[test]
        fn the_lines_around_a_text_type_are_read_as_the_search_per_colon_read_them(
            picks in proptest::collection::vec(0..LINES.len(), 0..14),
        ) {
            let text: String = picks.iter().map(|&pick| LINES[pick]).collect();
            let bytes = text.as_bytes();
            let line_starts = std::iter::once(0)
                .chain(memchr::memchr_iter(b'\n', bytes).map(|at| at + 1))
                .filter(|&at| at < bytes.len());
            for at in line_starts {
                let (mut read_once, mut per_colon) = (bytes.to_vec(), bytes.to_vec());
                let ends = (
                    park_quoted_printable(&mut read_once, at),
                    park_quoted_printable_per_colon(&mut per_colon, at),
                );
                prop_assert_eq!(ends.0, ends.1, "{:?} at {}", text, at);
                prop_assert_eq!(&read_once, &per_colon, "{:?} at {}", text, at);
            }
        }
    }

    proptest! {
        #[test]
        fn a_parked_encoding_reads_as_mail_parser_decoded_any_body(
            body in "[=A4g \t\r\n-]{0,24}",
            shape in 0..3usize,
        ) {
            let message = quoted_printable_message(&body, shape);
            let [expected, parked] = encodings_both_ways(&message);
            prop_assert_eq!(parked, expected, "{:?}", message);
        }
    }
}
