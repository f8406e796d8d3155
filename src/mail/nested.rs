//! Encoded nested messages, hidden from mail-parser and parsed by the walk.
//!
//! mail-parser decodes a base64 or quoted-printable message/rfc822 part and
//! parses it, and then gives every message nested inside it a copy of the
//! whole decoded part: a 200 KB message holding 2,000 small messages in one
//! base64 part took 315 MB, and the cost grows with the square of the part.
//! So before mail-parser sees a message, the `Content-Type` of each encoded
//! message part is *parked*: its type `message` is overwritten, in place and
//! at the same length, by [`PARKED_TYPE`]. mail-parser then hands over the
//! part's decoded bytes, and the walk parses them as a message of their own,
//! in which nested messages borrow rather than copy.
//!
//! A header block is recognised as the block of non-blank lines holding both
//! the `Content-Type` and the `Content-Transfer-Encoding` line. A body line
//! that looks like such a pair is parked too; that changes only the text the
//! scanner reads there (`xparked/rfc822` for `message/rfc822`), never the
//! archive text shown, and no URL starts a line with `Content-Type:`.

use std::ops::Range;

/// What a parked part's media type reads instead of `message`.
pub const PARKED_TYPE: &str = "xparked";

/// The media types mail-parser parses as a nested message.
const NESTED_TYPES: &[&[u8]] = &[b"message/rfc822", b"message/global"];

/// The transfer encodings mail-parser decodes before parsing a nested
/// message (it parses others in place, without copies).
const PARSED_ENCODINGS: &[&[u8]] = &[b"base64", b"quoted-printable"];

/// Park every encoded message part's `Content-Type` in `bytes`.
pub fn park_encoded_messages(bytes: &mut [u8]) {
    let mut block_start = 0;
    let mut at = 0;
    while at < bytes.len() {
        let line_end = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |i| at + i + 1);
        if bytes[at..line_end].iter().all(u8::is_ascii_whitespace) {
            park_in_block(&mut bytes[block_start..at]);
            block_start = line_end;
        }
        at = line_end;
    }
    park_in_block(&mut bytes[block_start..]);
}

/// Park the message type in `block` (lines without a blank one) when it has
/// a message `Content-Type` and a base64 or quoted-printable
/// `Content-Transfer-Encoding`.
fn park_in_block(block: &mut [u8]) {
    let mut message_type = None;
    let mut encoded = false;
    for (start, line) in lines(block) {
        if let Some(value) = field_value(line, b"content-type") {
            let token = value_token(line, value);
            let media = &line[token.clone()];
            if NESTED_TYPES.iter().any(|t| media.eq_ignore_ascii_case(t)) {
                message_type = Some(start + token.start);
            }
        } else if let Some(value) = field_value(line, b"content-transfer-encoding") {
            let name = &line[value_token(line, value)];
            encoded |= PARSED_ENCODINGS
                .iter()
                .any(|encoding| name.eq_ignore_ascii_case(encoding));
        }
    }
    if let (Some(at), true) = (message_type, encoded) {
        block[at..at + PARKED_TYPE.len()].copy_from_slice(PARKED_TYPE.as_bytes());
    }
}

/// The lines of `block` with their offsets.
fn lines(block: &[u8]) -> impl Iterator<Item = (usize, &[u8])> {
    let mut start = 0;
    block.split_inclusive(|&b| b == b'\n').map(move |line| {
        let at = start;
        start += line.len();
        (at, line)
    })
}

/// Where the value of field `name` starts in `line`, when `line` opens
/// that field (`Name:`, case ignored).
fn field_value(line: &[u8], name: &[u8]) -> Option<usize> {
    let head = line.get(..name.len() + 1)?;
    (head[..name.len()].eq_ignore_ascii_case(name) && head[name.len()] == b':')
        .then_some(name.len() + 1)
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
        park_encoded_messages(&mut bytes);
        String::from_utf8(bytes).expect("parking keeps UTF-8")
    }

    #[test]
    fn rfc2046_5_2_1_only_encoded_message_parts_are_parked() {
        let cases = [
            (
                "Content-Type: message/rfc822\nContent-Transfer-Encoding: base64\n\nx\n",
                "Content-Type: xparked/rfc822\nContent-Transfer-Encoding: base64\n\nx\n",
            ),
            (
                "content-transfer-encoding: Quoted-Printable\r\nCONTENT-TYPE:Message/Global; x=1\r\n",
                "content-transfer-encoding: Quoted-Printable\r\nCONTENT-TYPE:xparked/Global; x=1\r\n",
            ),
            (
                "Content-Type: message/rfc822\nContent-Transfer-Encoding: 7bit\n",
                "Content-Type: message/rfc822\nContent-Transfer-Encoding: 7bit\n",
            ),
            (
                "Content-Type: message/rfc822\n\nContent-Transfer-Encoding: base64\n",
                "Content-Type: message/rfc822\n\nContent-Transfer-Encoding: base64\n",
            ),
            (
                "Content-Type: message/partial\nContent-Transfer-Encoding: base64\n",
                "Content-Type: message/partial\nContent-Transfer-Encoding: base64\n",
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(parked(text), expected, "{text:?}");
        }
    }
}
