//! A text to scan and where it came from: the hand-off between reading an
//! input and everything after it.
//!
//! Text is always UTF-8 here. Bytes that are not (a Latin-1 mail body, a
//! stray byte in a UTF-8 file) are never dropped: [`decode`] keeps valid
//! UTF-8 runs and reads every other byte as the Latin-1 character of the
//! same value, so the author's text survives and non-ASCII bytes still
//! reach the validator as non-ASCII characters.

#[cfg(feature = "cli")]
use std::borrow::Cow;
use std::fmt;
#[cfg(feature = "cli")]
use std::path::PathBuf;

/// The byte-order mark's character (U+FEFF): the first character of a text
/// that some editors save with one, in UTF-8 or in the UTF-16 or UTF-32 it
/// names. It is no part of what the text says.
pub(crate) const BYTE_ORDER_MARK: char = '\u{FEFF}';

/// Where a source's text was read from.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Origin {
    /// A file, named as the user or the walk gave it.
    #[cfg(feature = "cli")]
    File(PathBuf),
    /// The standard input (`-`).
    #[cfg(feature = "cli")]
    Stdin,
    /// Text given on the command line (`urlint validate URL ...`).
    #[cfg(feature = "cli")]
    Arguments,
    /// Data a library caller passed in memory (the Python package).
    Memory,
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // Nearly every path is UTF-8, written as it is; `display` would
            // look for invalid runs in it first, which cost as much as
            // reading a small file (a name is made for every file).
            #[cfg(feature = "cli")]
            Origin::File(path) => match path.to_str() {
                Some(name) => f.write_str(name),
                None => write!(f, "{}", path.display()),
            },
            #[cfg(feature = "cli")]
            Origin::Stdin => f.write_str("<stdin>"),
            #[cfg(feature = "cli")]
            Origin::Arguments => f.write_str("<arguments>"),
            Origin::Memory => f.write_str("<memory>"),
        }
    }
}

/// The markup a text is written in, which decides where URLs are looked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Markup {
    /// None: URLs are looked for everywhere in the text.
    #[default]
    Plain,
    /// Markdown (CommonMark with GitHub's extensions): link destinations
    /// and the prose outside code.
    Markdown,
    /// HTML: URL-bearing attribute values and the visible text.
    Html,
    /// reStructuredText: embedded URIs, hyperlink targets, image URIs and
    /// the text outside literal blocks, code and comments.
    Rst,
}

impl Markup {
    /// Every markup.
    pub(crate) const ALL: [Markup; 4] =
        [Markup::Plain, Markup::Markdown, Markup::Html, Markup::Rst];
}

/// One text to scan, with where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Source {
    /// Where the text was read from.
    pub origin: Origin,
    /// Name shown in every report (the path as given, `<stdin>`, ...).
    pub name: String,
    /// The decoded text; report offsets index it.
    pub text: String,
    /// The markup the text is written in.
    pub markup: Markup,
}

impl Source {
    /// A source named after its origin, in plain text.
    pub(crate) fn new(origin: Origin, text: String) -> Self {
        Source {
            name: origin.to_string(),
            origin,
            text,
            markup: Markup::Plain,
        }
    }

    /// The same source, written in `markup`.
    pub(crate) fn written_in(mut self, markup: Markup) -> Self {
        self.markup = markup;
        self
    }

    /// What names the source, and its text.
    pub(crate) fn into_parts(self) -> (Named, String) {
        let named = Named {
            origin: self.origin,
            name: self.name,
            markup: self.markup,
        };
        (named, self.text)
    }
}

/// A source without its text: where it was read from, its name and its
/// markup.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Named {
    /// Where the text was read from.
    pub origin: Origin,
    /// Name shown in every report (the path as given, `<stdin>`, ...).
    pub name: String,
    /// The markup the text is written in.
    pub markup: Markup,
}

impl Named {
    /// A text from `origin`, named after it, written in `markup`.
    pub(crate) fn new(origin: Origin, markup: Markup) -> Self {
        Named {
            name: origin.to_string(),
            origin,
            markup,
        }
    }
}

/// Decode `bytes` as UTF-8, reading each byte outside a valid UTF-8 sequence
/// as Latin-1; returns the text and how many bytes took the fallback.
pub(crate) fn decode(bytes: Vec<u8>) -> (String, usize) {
    let bytes = match String::from_utf8(bytes) {
        Ok(text) => return (text, 0),
        Err(err) => err.into_bytes(),
    };
    let mut text = String::with_capacity(bytes.len() + bytes.len() / 8);
    let fallback = decode_into(&bytes, &mut text);
    (text, fallback)
}

/// [`decode`] that also says where each byte that took the Latin-1
/// fallback went: the text offsets of those characters, in order. With
/// them [`encode_decoded`] gives the bytes back exactly, so that a fix can
/// rewrite a Latin-1 file's URLs and leave every other byte as it was.
#[cfg(feature = "cli")]
pub(crate) fn decode_noting_fallback(bytes: &[u8]) -> (String, Vec<usize>) {
    let mut text = String::with_capacity(bytes.len() + bytes.len() / 8);
    let mut fallback = Vec::new();
    for_each_run(bytes, |valid, invalid| {
        text.push_str(valid);
        for &byte in invalid {
            fallback.push(text.len());
            text.push(char::from(byte));
        }
    });
    (text, fallback)
}

/// The bytes of `text`, a text [`decode_noting_fallback`] gave (perhaps
/// edited elsewhere since), with the character at each offset of
/// `fallback` written back as the one byte it was read from. `None` when an
/// offset does not hold such a character (the text was edited there).
#[cfg(feature = "cli")]
pub(crate) fn encode_decoded<'t>(text: &'t str, fallback: &[usize]) -> Option<Cow<'t, [u8]>> {
    if fallback.is_empty() {
        // Valid UTF-8 throughout: the text's own bytes, not a copy.
        return Some(Cow::Borrowed(text.as_bytes()));
    }
    let mut bytes = Vec::with_capacity(text.len());
    let mut at = 0;
    for &offset in fallback {
        let c = text.get(offset..)?.chars().next()?;
        let byte = u8::try_from(u32::from(c))
            .ok()
            .filter(|&byte| byte >= 0x80)?;
        bytes.extend_from_slice(text.get(at..offset)?.as_bytes());
        bytes.push(byte);
        at = offset + c.len_utf8();
    }
    bytes.extend_from_slice(text.get(at..)?.as_bytes());
    Some(Cow::Owned(bytes))
}

/// [`decode`] appending to `text`, whose buffer the caller may reuse.
pub(crate) fn decode_into(bytes: &[u8], text: &mut String) -> usize {
    let mut fallback = 0;
    for_each_run(bytes, |valid, invalid| {
        text.push_str(valid);
        fallback += invalid.len();
        text.extend(invalid.iter().map(|&byte| char::from(byte)));
    });
    fallback
}

/// Call `run` with each valid UTF-8 run of `bytes` and the invalid bytes
/// after it (none after the last), exactly as [`str::utf8_chunks`] gives
/// them.
/// `utf8_chunks` looks at one byte at a time; simdutf8 checks 32 bytes at
/// a time, which made decoding a large text with a few Latin-1 bytes
/// several times faster.
pub(crate) fn for_each_run(bytes: &[u8], run: impl FnMut(&str, &[u8])) {
    for_each_run_of_prefix(bytes, true, run);
}

/// [`for_each_run`] over bytes that more bytes of the same text follow,
/// unless `end`: a sequence that the end of `bytes` cuts short, and that
/// the bytes after could complete, is left for them (decoding it now could
/// read it as Latin-1 where the whole text holds one character). Returns
/// how many bytes the runs cover: all of them when `end`.
pub(crate) fn for_each_run_of_prefix(
    bytes: &[u8],
    end: bool,
    mut run: impl FnMut(&str, &[u8]),
) -> usize {
    let mut rest = bytes;
    loop {
        match simdutf8::compat::from_utf8(rest) {
            Ok("") => return bytes.len(),
            Ok(valid) => {
                run(valid, &[]);
                return bytes.len();
            }
            Err(err) => {
                let (valid, after) = rest.split_at(err.valid_up_to());
                // `valid_up_to` marks a prefix that is valid UTF-8.
                let valid = simdutf8::basic::from_utf8(valid).unwrap_or_default();
                let bad = match err.error_len() {
                    Some(len) => len,
                    None if end => after.len(),
                    None => {
                        if !valid.is_empty() {
                            run(valid, &[]);
                        }
                        return bytes.len() - after.len();
                    }
                };
                run(valid, &after[..bad]);
                rest = &after[bad..];
            }
        }
    }
}

/// Where [`decode`] read bytes as Latin-1 in a run of bytes: each such
/// byte became a two-byte character, so that offsets into the decoded text
/// and into the bytes differ by the number of such bytes before them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Widened {
    /// Offsets (into the bytes) of the bytes read as Latin-1, ascending.
    bytes: Vec<usize>,
}

impl Widened {
    /// Where `bytes`, decoded by [`decode`], took the Latin-1 fallback.
    pub(crate) fn of(bytes: &[u8]) -> Self {
        let mut widened = Vec::new();
        let mut at = 0;
        for_each_run(bytes, |valid, invalid| {
            at += valid.len();
            widened.extend(at..at + invalid.len());
            at += invalid.len();
        });
        Widened { bytes: widened }
    }

    /// Decode a text that arrives in blocks as [`decode`] decodes it whole,
    /// appending to `text` and noting where the fallback was taken: `bytes`
    /// are the text's bytes from byte `offset` on, and more follow unless
    /// `end`. Returns how many of them were decoded: all but a sequence cut
    /// short at their end, which is to be given again with the next bytes.
    #[cfg(feature = "cli")]
    pub(crate) fn decode_block(
        &mut self,
        bytes: &[u8],
        offset: usize,
        end: bool,
        text: &mut String,
    ) -> usize {
        let mut at = offset;
        for_each_run_of_prefix(bytes, end, |valid, invalid| {
            text.push_str(valid);
            at += valid.len();
            self.bytes.extend(at..at + invalid.len());
            at += invalid.len();
            text.extend(invalid.iter().map(|&byte| char::from(byte)));
        })
    }

    /// The decoded-text offset of byte offset `byte`.
    pub(crate) fn text_offset(&self, byte: usize) -> usize {
        byte + self.bytes.partition_point(|&at| at < byte)
    }

    /// The byte offset of decoded-text offset `text` (a character boundary).
    pub(crate) fn byte_offset(&self, text: usize) -> usize {
        // The k-th widened byte starts at text offset `bytes[k] + k`.
        let (mut low, mut high) = (0, self.bytes.len());
        while low < high {
            let mid = low + (high - low) / 2;
            if self.bytes[mid] + mid < text {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        text - low
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_read_as_latin1_are_written_back_as_they_were() {
        let bytes = b"caf\xE9 \xC3\xA9t\xE9 http://a.example/\xFF\n";
        let (text, fallback) = decode_noting_fallback(bytes);
        assert_eq!(text, "caf\u{e9} \u{e9}t\u{e9} http://a.example/\u{ff}\n");
        // The valid UTF-8 'é' is not a fallback; the three Latin-1 bytes are.
        assert_eq!(fallback, vec![3, 9, 29]);
        assert_eq!(
            encode_decoded(&text, &fallback).as_deref(),
            Some(&bytes[..])
        );
        assert_eq!(decode(bytes.to_vec()).0, text, "the same text check reads");
        // An offset that no longer holds a fallback character is refused.
        assert_eq!(encode_decoded("cafe", &[3]), None);
        assert_eq!(encode_decoded("caf", &[3]), None);
    }

    #[test]
    fn a_file_is_named_as_its_path_displays() {
        let mut paths = vec![PathBuf::from("docs/a b/é.md"), PathBuf::from("")];
        #[cfg(unix)]
        {
            use std::ffi::OsStr;
            use std::os::unix::ffi::OsStrExt;
            paths.push(PathBuf::from(OsStr::from_bytes(b"lat\xE9n/\xFF.txt")));
        }
        for path in paths {
            let expected = path.display().to_string();
            assert_eq!(Origin::File(path).to_string(), expected);
        }
    }

    #[test]
    fn valid_utf8_is_kept_as_is() {
        let (text, fallback) = decode("café <URL:http://x/>".as_bytes().to_vec());
        assert_eq!((text.as_str(), fallback), ("café <URL:http://x/>", 0));
    }

    #[test]
    fn widened_offsets_convert_both_ways_around_latin1_bytes() {
        let bytes = b"caf\xE9 \xC3\xBC x\xFF\xFEy";
        let widened = Widened::of(bytes);
        let (text, _) = decode(bytes.to_vec());
        for (byte, character) in [(0, "c"), (5, "\u{fc}"), (8, "x"), (9, "\u{ff}"), (11, "y")] {
            let at = widened.text_offset(byte);
            assert!(text[at..].starts_with(character), "byte {byte}");
            assert_eq!(widened.byte_offset(at), byte);
        }
        assert_eq!(widened.byte_offset(text.len()), bytes.len());
    }

    /// `bytes` decoded a block of `block_len` bytes at a time, each with
    /// what the block before left undecoded, after a text already there.
    fn decoded_in_blocks(bytes: &[u8], block_len: usize) -> (String, Widened) {
        let mut text = String::from("kept ");
        let mut widened = Widened::default();
        let mut left: Vec<u8> = Vec::new();
        let mut decoded = 0;
        let mut blocks = bytes.chunks(block_len).peekable();
        loop {
            left.extend_from_slice(blocks.next().unwrap_or_default());
            let end = blocks.peek().is_none();
            let used = widened.decode_block(&left, decoded, end, &mut text);
            decoded += used;
            left.drain(..used);
            if end {
                assert!(left.is_empty(), "the last block decodes all");
                return (text, widened);
            }
        }
    }

    /// Byte strings with Latin-1 bytes, and UTF-8 sequences that are
    /// whole, cut short, overlong or surrogates, next to each other.
    const MIXED_BYTES: [&[u8]; 7] = [
        b"",
        b"plain",
        b"caf\xE9 \xC3\xBC x\xFF\xFEy",
        b"\xE2\x82",
        b"a\xF0\x9F\x98 \xF0\x9F\x98\x80",
        b"\xED\xA0\x80z\xC0\xAF\xF0\x9F\x98\x80\xE2\x82\xAC\xC3",
        b"\xF0\x9F\xE2\x82\xAC\xF0\xC3\xA9\x80\xE9",
    ];

    #[test]
    fn decoding_in_blocks_gives_what_decode_and_widened_of_give() {
        for bytes in MIXED_BYTES {
            let expected = (
                format!("kept {}", decode(bytes.to_vec()).0),
                Widened::of(bytes),
            );
            for block_len in 1..=bytes.len().max(1) {
                assert_eq!(
                    decoded_in_blocks(bytes, block_len),
                    expected,
                    "{bytes:?} in blocks of {block_len}"
                );
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn any_bytes_decode_in_blocks_as_whole(
            picks in proptest::collection::vec(0..MIXED_BYTES.len(), 0..40),
            block_len in 1usize..12,
        ) {
            let bytes: Vec<u8> = picks.iter().flat_map(|&pick| MIXED_BYTES[pick]).copied().collect();
            let expected = (
                format!("kept {}", decode(bytes.clone()).0),
                Widened::of(&bytes),
            );
            proptest::prop_assert_eq!(decoded_in_blocks(&bytes, block_len), expected);
        }
    }

    #[test]
    fn runs_are_cut_as_utf8_chunks_cuts_them() {
        let cases: [&[u8]; 6] = [
            b"",
            b"plain",
            b"caf\xE9 \xC3\xBC x\xFF\xFEy",
            b"\xE2\x82",
            b"a\xF0\x9F\x98",
            b"\xED\xA0\x80z\xC0\xAF",
        ];
        for bytes in cases {
            let mut runs = Vec::new();
            for_each_run(bytes, |valid, invalid| {
                runs.push((valid.to_owned(), invalid.to_vec()))
            });
            let expected: Vec<(String, Vec<u8>)> = bytes
                .utf8_chunks()
                .map(|chunk| (chunk.valid().to_owned(), chunk.invalid().to_vec()))
                .collect();
            assert_eq!(runs, expected, "{bytes:?}");
        }
    }

    #[test]
    fn invalid_bytes_read_as_latin1_next_to_valid_utf8() {
        // 0xE9 alone is Latin-1 'é'; the UTF-8 'ü' (C3 BC) stays 'ü'.
        let bytes = b"caf\xE9 \xC3\xBC <URL:http://h/\xFF>".to_vec();
        let (text, fallback) = decode(bytes);
        assert_eq!(text, "café ü <URL:http://h/ÿ>");
        assert_eq!(fallback, 2);
    }
}
