//! Nested messages, hidden from mail-parser and parsed by the walk one level
//! at a time.
//!
//! mail-parser parses a message/rfc822 part's message along with its parent,
//! every level at once: 200,000 nested levels in 9 MB took 314 MB before the
//! walk could stop at its depth cap. And it decodes a base64 or
//! quoted-printable message part, parses it, then gives every message nested
//! inside it a copy of the whole decoded part: 2,000 small messages in one
//! base64 part of a 205 KB message took 315 MB, growing with the square of
//! the part. So before mail-parser sees a message, each message part's
//! `Content-Type` is *parked*: its type `message` is overwritten, in place
//! and at the same length, by [`PARKED_TYPE`]. mail-parser then keeps the
//! part as bytes (decoded, if it was encoded), and the walk parses them as a
//! message of its own when it gets there, so only the levels on its way are
//! held, and nested messages borrow rather than copy.
//!
//! A `Content-Type` line is parked wherever it opens a line, in a header
//! block or not: in a body that only changes the text the scanner reads
//! there (`xparked/rfc822` for `message/rfc822`), never the archive text
//! shown, and no URL starts a line with `Content-Type:`.

use std::ops::Range;

use mail_parser::{ContentType, Message, PartType};

/// What a parked part's media type reads instead of `message`.
pub(super) const PARKED_TYPE: &str = "xparked";

/// The media types mail-parser parses as a nested message.
const NESTED_TYPES: &[&[u8]] = &[b"message/rfc822", b"message/global"];

/// Park every message part's `Content-Type` in `bytes`.
pub(super) fn park_nested_messages(bytes: &mut [u8]) {
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
        if NESTED_TYPES.iter().any(|t| media.eq_ignore_ascii_case(t)) {
            let start = at + token.start;
            bytes[start..start + PARKED_TYPE.len()].copy_from_slice(PARKED_TYPE.as_bytes());
        }
    }
}

/// Drop a parsed message without recursion: mail-parser nests each
/// message/rfc822 part's message inside its parent, and the compiler's drop
/// of a deep nest would recurse once per level.
pub(super) fn dismantle(message: Message<'_>) {
    let mut pending = vec![message];
    while let Some(mut message) = pending.pop() {
        for part in &mut message.parts {
            if let PartType::Message(_) = part.body {
                let body = std::mem::replace(&mut part.body, PartType::Binary(Default::default()));
                if let PartType::Message(nested) = body {
                    pending.push(nested);
                }
            }
        }
    }
}

/// True when a part's content type is a parked message type.
pub(super) fn is_parked(content_type: Option<&ContentType<'_>>) -> bool {
    content_type.is_some_and(|ct| ct.ctype().eq_ignore_ascii_case(PARKED_TYPE))
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
        park_nested_messages(&mut bytes);
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
    fn a_deep_nest_is_dropped_without_recursion() {
        // Deep enough to overflow a test thread's stack if dropped recursively.
        let depth = 200_000;
        let raw = "Content-Type: message/rfc822\n\n".repeat(depth) + "Subject: x\n\nbody\n";
        let message = mail_parser::MessageParser::default()
            .parse(raw.as_bytes())
            .expect("parses");
        dismantle(message);
    }
}
