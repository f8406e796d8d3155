//! Text from the input made safe for a terminal and for line-based formats.
//!
//! A file's bytes reach the human, short and plain formats, and stderr,
//! through source lines, URLs, messages that quote a character, mail header
//! fields and file names. Control characters there would drive the user's
//! terminal (`ESC ] 52 ;` writes the clipboard, `ESC ] 0 ;` the window
//! title), a newline in a file name would forge a record of its own, and
//! bidirectional controls would reorder what is shown. Each such character
//! is written as an escape instead: `\x1b` for C0 controls and DEL, `\u{85}`
//! for C1 controls, `\u{202e}` for bidirectional controls. Tab is shown as
//! itself. JSON, SARIF and GitHub output escape on their own terms and stay
//! exact.

use std::borrow::Cow;
use std::fmt::Write as _;

/// True when `c` is written as an escape: C0 controls but tab (and
/// newline, which only [`line()`] escapes), DEL, C1 controls, and the
/// bidirectional formatting characters (marks, embeddings, overrides,
/// isolates).
pub(crate) fn is_escaped(c: char) -> bool {
    matches!(
        c,
        '\0'..='\x08'
            | '\x0b'..='\x1f'
            | '\x7f'..='\u{9f}'
            | '\u{61c}'
            | '\u{200e}'
            | '\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2066}'..='\u{2069}'
    )
}

/// Append the escape of `c` to `out`.
pub(crate) fn push_escape(out: &mut String, c: char) {
    let code = u32::from(c);
    // Writing to a String cannot fail.
    let _ = if code < 0x80 {
        write!(out, "\\x{code:02x}")
    } else {
        write!(out, "\\u{{{code:x}}}")
    };
}

/// `text` as one line: every escaped character and every newline written
/// as an escape (file names, URLs, one-line records).
pub(crate) fn line(text: &str) -> Cow<'_, str> {
    escape_where(text, |c| c == '\n' || is_escaped(c))
}

/// `text` with every escaped character written as an escape, newlines kept
/// (messages that may run over several lines).
pub(crate) fn text(text: &str) -> Cow<'_, str> {
    escape_where(text, is_escaped)
}

/// `text` with the characters `escaped` picks written as escapes; borrowed
/// when there are none.
fn escape_where(text: &str, escaped: impl Fn(char) -> bool) -> Cow<'_, str> {
    // Only control bytes and non-ASCII characters can be escaped: printable
    // ASCII, nearly all of every URL and file name, is passed without
    // decoding characters.
    let plain = printable_ascii_len(text.as_bytes());
    // `plain` is a character boundary: every byte before it is ASCII.
    let Some(first) = text[plain..].find(&escaped).map(|at| plain + at) else {
        return Cow::Borrowed(text);
    };
    let mut out = String::with_capacity(text.len() + 8);
    out.push_str(&text[..first]);
    for c in text[first..].chars() {
        if escaped(c) {
            push_escape(&mut out, c);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Bytes looked at together by [`printable_ascii_len`].
const BLOCK_LEN: usize = 16;

/// How many bytes of printable ASCII `bytes` starts with. Blocks of
/// [`BLOCK_LEN`] bytes are tested whole, without a branch per byte, which
/// the compiler turns into a few vector instructions: every URL a run
/// lists goes through here.
fn printable_ascii_len(bytes: &[u8]) -> usize {
    let is_printable = |byte: u8| byte.wrapping_sub(b' ') <= b'~' - b' ';
    let whole_blocks = bytes
        .chunks_exact(BLOCK_LEN)
        .take_while(|block| {
            block
                .iter()
                .fold(true, |all, &byte| all & is_printable(byte))
        })
        .count();
    let checked = whole_blocks * BLOCK_LEN;
    checked
        + bytes[checked..]
            .iter()
            .position(|&byte| !is_printable(byte))
            .unwrap_or(bytes.len() - checked)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_and_bidi_characters_are_escaped_tab_is_not() {
        let cases = [
            ("plain é€ text", "plain é€ text"),
            ("\u{1b}]52;c;ZXZpbA==\u{7}", "\\x1b]52;c;ZXZpbA==\\x07"),
            ("a\tb\rc\0d\u{7f}", "a\tb\\x0dc\\x00d\\x7f"),
            ("next\u{85}line", "next\\u{85}line"),
            ("abc\u{202e}txt.exe", "abc\\u{202e}txt.exe"),
            (
                "\u{200e}\u{200f}\u{61c}\u{2066}\u{2069}",
                "\\u{200e}\\u{200f}\\u{61c}\\u{2066}\\u{2069}",
            ),
        ];
        for (input, shown) in cases {
            assert_eq!(text(input), shown, "{input:?}");
            assert_eq!(line(input), shown, "{input:?}");
        }
        assert_eq!(text("a\nb"), "a\nb");
        assert_eq!(
            line("a.txt:9:9: forged\nb.txt"),
            "a.txt:9:9: forged\\x0ab.txt"
        );
        assert!(matches!(line("clean"), Cow::Borrowed("clean")));
    }

    proptest::proptest! {
        #[test]
        fn printable_runs_are_measured_as_byte_by_byte(
            bytes in proptest::collection::vec(
                proptest::prop_oneof![0x20u8..0x7f, proptest::num::u8::ANY],
                0..80,
            ),
            split in 0usize..80,
        ) {
            // Mostly printable, with a stray byte somewhere.
            let mut bytes = bytes;
            let split = split.min(bytes.len());
            bytes[..split].iter_mut().for_each(|byte| *byte = b' ' + *byte % 95);
            let expected = bytes
                .iter()
                .position(|byte| !(b' '..=b'~').contains(byte))
                .unwrap_or(bytes.len());
            proptest::prop_assert_eq!(printable_ascii_len(&bytes), expected);
        }
    }

    #[test]
    fn escapes_are_printable_ascii_and_escaping_twice_changes_nothing() {
        let all: String = (0..0x2100).filter_map(char::from_u32).collect();
        let once = line(&all).into_owned();
        assert!(!once.chars().any(|c| c == '\n' || is_escaped(c)));
        assert_eq!(line(&once), once);
    }
}
