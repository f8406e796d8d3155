//! Media types hidden from mail-parser, so that it leaves to the walk work
//! the walk does better or does anyway.
//!
//! Before mail-parser sees a message, the media type of each `Content-Type`
//! field that opens a line is *parked* when it is one of two kinds: it is
//! overwritten, in place and at the same length, by a type mail-parser does
//! not know, so it keeps the part as bytes (transfer-decoded, if it was
//! encoded) and the walk reads it.
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
use mail_parser::{ContentType, MessagePart, MimeHeaders, PartType};

/// What a parked message part's media type reads instead of `message`.
pub(super) const PARKED_MESSAGE: &str = "xparked";

/// What a parked text part's media type reads instead of `text`.
pub(super) const PARKED_TEXT: &str = "x-tx";

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
    }
}

/// True when a part's content type is a parked message type.
pub(super) fn is_parked_message(content_type: Option<&ContentType<'_>>) -> bool {
    content_type.is_some_and(|ct| ct.ctype().eq_ignore_ascii_case(PARKED_MESSAGE))
}

/// True when a part's content type is a parked text type.
pub(super) fn is_parked_text(content_type: Option<&ContentType<'_>>) -> bool {
    content_type.is_some_and(|ct| ct.ctype().eq_ignore_ascii_case(PARKED_TEXT))
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
}
