//! Compressed inputs (`.gz`, `.bz2`, `.xz`, `.zst`): which files are
//! compressed, what their inner name is, and a reader that inflates on a
//! thread of its own while the caller scans what it gave so far.
//!
//! A compressed input is read as the plain file it holds, streamed: its
//! text is never held whole, so a decompression bomb costs time, not
//! memory. Line and column numbers count in the decompressed text. A
//! stream that breaks (a truncated download, a corrupt block) ends the
//! text where it broke: what came before is read as usual, and the break
//! is reported after it as the input's error, with how far the text got.

use std::io::{self, BufRead, Read};
use std::path::{Path, PathBuf};
#[cfg(feature = "cli")]
use std::sync::mpsc::{self, Receiver, SyncSender};
#[cfg(feature = "cli")]
use std::thread;

use super::load::HEAD_LEN;

/// A compression format urlint reads through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Compression {
    /// gzip (RFC 1952), one member or several concatenated.
    Gzip,
    /// bzip2, one stream or several concatenated.
    Bzip2,
    /// xz, one stream or several concatenated.
    Xz,
    /// Zstandard (RFC 8878), one frame or several.
    Zstd,
}

/// File extensions, lower case, and the formats they name.
const EXTENSIONS: &[(&str, Compression)] = &[
    ("gz", Compression::Gzip),
    ("bz2", Compression::Bzip2),
    ("xz", Compression::Xz),
    ("zst", Compression::Zstd),
];

/// Bytes of decompressed text handed over at a time: large enough that the
/// hand-over costs nothing next to inflating and scanning them, small
/// enough that the chunks in flight stay a few megabytes.
const CHUNK_LEN: usize = 256 << 10;

/// The most asked of a decompressor in one read: a decompressor that
/// meets a break drops what it decoded in that read (a read either
/// succeeds or fails), so a small read loses little text before a break.
const READ_LEN: usize = 16 << 10;

/// Chunks that may wait between the inflating thread and the reader.
#[cfg(feature = "cli")]
const CHUNKS_IN_FLIGHT: usize = 4;

impl Compression {
    /// The format's usual name, as its tool is called.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Compression::Gzip => "gzip",
            Compression::Bzip2 => "bzip2",
            Compression::Xz => "xz",
            Compression::Zstd => "zstd",
        }
    }

    /// The format a file name says, by its last extension.
    pub(crate) fn from_name(path: &Path) -> Option<Compression> {
        let extension = path.extension()?.to_str()?;
        EXTENSIONS
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(extension))
            .map(|&(_, compression)| compression)
    }

    /// The format whose magic number `head` starts with, if any.
    pub(crate) fn from_magic(head: &[u8]) -> Option<Compression> {
        // gzip: ID1 ID2 and CM = 8 (deflate), the only method RFC 1952
        // defines.
        if head.starts_with(&[0x1f, 0x8b, 0x08]) {
            return Some(Compression::Gzip);
        }
        // bzip2: "BZh", a block size digit, then a block or the end-of-
        // stream marker (the digits of pi, or of its square root).
        if head.len() >= 10
            && head.starts_with(b"BZh")
            && (b'1'..=b'9').contains(&head[3])
            && (head[4..10] == [0x31, 0x41, 0x59, 0x26, 0x53, 0x59]
                || head[4..10] == [0x17, 0x72, 0x45, 0x38, 0x50, 0x90])
        {
            return Some(Compression::Bzip2);
        }
        if head.starts_with(&[0xfd, b'7', b'z', b'X', b'Z', 0x00]) {
            return Some(Compression::Xz);
        }
        if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
            return Some(Compression::Zstd);
        }
        None
    }

    /// How an input is compressed: as its name says when `path` names a
    /// format, else as its first bytes `head` show (stdin, a file named
    /// without an extension). A name wins so that a damaged file is
    /// reported as the damaged archive it is, not skipped as binary.
    pub(crate) fn of(path: Option<&Path>, head: &[u8]) -> Option<Compression> {
        path.and_then(Compression::from_name)
            .or_else(|| Compression::from_magic(head))
    }

    /// True when this build reads the format (each is a default feature a
    /// library user may turn off).
    pub(crate) fn is_supported(self) -> bool {
        match self {
            Compression::Gzip => cfg!(feature = "gzip"),
            Compression::Bzip2 => cfg!(feature = "bzip2"),
            Compression::Xz => cfg!(feature = "xz"),
            Compression::Zstd => cfg!(feature = "zstd"),
        }
    }

    /// Why a file in a format this build does not read is skipped.
    pub(crate) fn unsupported_message(self) -> String {
        format!(
            "{} compressed, and this urlint was built without its `{}` feature",
            self.name(),
            self.feature()
        )
    }

    /// The cargo feature that reads the format.
    fn feature(self) -> &'static str {
        match self {
            Compression::Gzip => "gzip",
            Compression::Bzip2 => "bzip2",
            Compression::Xz => "xz",
            Compression::Zstd => "zstd",
        }
    }

    /// A reader of the decompressed bytes of `source`, read to the end of
    /// its last member, stream or frame.
    fn decoder<'r>(
        self,
        source: impl BufRead + Send + 'r,
    ) -> io::Result<Box<dyn Read + Send + 'r>> {
        match self {
            #[cfg(feature = "gzip")]
            Compression::Gzip => Ok(Box::new(flate2::bufread::MultiGzDecoder::new(source))),
            #[cfg(feature = "bzip2")]
            Compression::Bzip2 => Ok(Box::new(bzip2::bufread::MultiBzDecoder::new(source))),
            #[cfg(feature = "xz")]
            Compression::Xz => Ok(Box::new(liblzma::bufread::XzDecoder::new_multi_decoder(
                source,
            ))),
            #[cfg(feature = "zstd")]
            // Frames after the first are read on, skippable ones passed over.
            Compression::Zstd => Ok(Box::new(zstd::stream::read::Decoder::with_buffer(source)?)),
            #[allow(unreachable_patterns)]
            _ => {
                let _ = source;
                Err(io::Error::new(
                    io::ErrorKind::Unsupported,
                    self.unsupported_message(),
                ))
            }
        }
    }
}

/// The name of what a compressed file at `path` holds: its name without
/// the compression's extension (`notes.md.gz` holds `notes.md`), or the
/// name itself when no extension names the compression.
pub(crate) fn inner_name(path: &Path) -> PathBuf {
    match Compression::from_name(path) {
        Some(_) => path.with_extension(""),
        None => path.to_path_buf(),
    }
}

/// The whole decompressed text of `compressed`, if it inflates without
/// error to at most `limit` bytes: a small archive is then read whole, as a
/// small file is. `None` when it is longer or broken (it is then
/// streamed, and a break reported where it happens).
#[cfg(feature = "cli")]
pub(crate) fn inflate_small(
    compression: Compression,
    compressed: &[u8],
    limit: usize,
) -> Option<Vec<u8>> {
    let (text, broken) = inflate_up_to(compression, compressed, limit.saturating_add(1));
    (broken.is_none() && text.len() <= limit).then_some(text)
}

/// The whole decompressed text of `compressed`, held in memory (data a
/// caller passes in memory, the Python package's), and where the stream
/// broke if it did: the text is then what came before the break, as a
/// streamed read gives it. A format this build does not read breaks at
/// once, with [`Compression::unsupported_message`] as the cause.
#[cfg_attr(not(feature = "python"), allow(dead_code))]
pub(crate) fn inflate_all(
    compression: Compression,
    compressed: &[u8],
) -> (Vec<u8>, Option<Broken>) {
    inflate_up_to(compression, compressed, usize::MAX)
}

/// The head of the decompressed text of `compressed`, as long as the head
/// an input's kind is told by (shorter when the text is, or breaks
/// before): what the head of a compressed file holds, whether or not the
/// stream goes on past `compressed`.
#[cfg_attr(not(feature = "python"), allow(dead_code))]
pub(crate) fn inflate_head(compression: Compression, compressed: &[u8]) -> Vec<u8> {
    inflate_up_to(compression, compressed, HEAD_LEN).0
}

/// At most `limit` bytes of the decompressed text of `compressed`, read as
/// the inflating thread reads them (a little at a time, so a break loses
/// little), and the break if the stream broke before the limit.
fn inflate_up_to(
    compression: Compression,
    compressed: &[u8],
    limit: usize,
) -> (Vec<u8>, Option<Broken>) {
    let broken = |text: &[u8], err: &io::Error| Broken {
        compression,
        text_len: text.len() as u64,
        line: memchr::memchr_iter(b'\n', text).count() as u64 + 1,
        cause: cause_of(err),
    };
    let mut decoder = match compression.decoder(compressed) {
        Ok(decoder) => decoder,
        Err(err) => return (Vec::new(), Some(broken(&[], &err))),
    };
    let mut text = Vec::new();
    loop {
        let len = text.len();
        let wanted = CHUNK_LEN.min(limit - len);
        if wanted == 0 {
            return (text, None);
        }
        text.resize(len + wanted, 0);
        let (read, outcome) = fill(&mut decoder, &mut text[len..]);
        text.truncate(len + read);
        match outcome {
            Ok(true) => {}
            Ok(false) => return (text, None),
            Err(err) => {
                let broken = broken(&text, &err);
                return (text, Some(broken));
            }
        }
    }
}

/// Where and why a compressed stream broke.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Broken {
    /// The stream's format.
    pub compression: Compression,
    /// Bytes of decompressed text read before the break.
    pub text_len: u64,
    /// The line of the decompressed text the break falls in (1-based).
    pub line: u64,
    /// What the decompressor said.
    pub cause: String,
}

impl Broken {
    /// The cause, told as a user reads it: where the text stopped, and
    /// that what came before it was read.
    pub(crate) fn describe(&self) -> String {
        format!(
            "the {} stream breaks after {} bytes of text, in line {}: {}; the URLs before the break are reported",
            self.compression.name(),
            self.text_len,
            self.line,
            self.cause
        )
    }
}

/// What the inflating thread hands over.
#[cfg(feature = "cli")]
enum Handed {
    /// The next stretch of decompressed text.
    Text(Vec<u8>),
    /// The stream ended cleanly.
    End,
    /// The stream broke; nothing follows.
    Broken(Broken),
}

/// The decompressed text of a compressed stream, inflated on a thread of
/// its own: a [`BufRead`] that ends where the stream ends or breaks. After
/// the end, [`Inflated::broken`] tells whether it broke. Dropped early, it
/// stops the thread at its next hand-over (its send fails).
#[cfg(feature = "cli")]
pub(crate) struct Inflated {
    chunks: Receiver<Handed>,
    /// Buffers read out, handed back for the thread to fill again.
    spent: SyncSender<Vec<u8>>,
    current: Vec<u8>,
    /// How much of `current` was read.
    at: usize,
    ended: bool,
    broken: Option<Broken>,
    compression: Compression,
}

#[cfg(feature = "cli")]
impl Inflated {
    /// Start inflating `source`, compressed as `compression`.
    pub(crate) fn start(
        compression: Compression,
        source: impl BufRead + Send + 'static,
    ) -> io::Result<Inflated> {
        let decoder = compression.decoder(source)?;
        let (sender, chunks) = mpsc::sync_channel(CHUNKS_IN_FLIGHT);
        let (spent, returned) = mpsc::sync_channel(CHUNKS_IN_FLIGHT + 2);
        thread::Builder::new()
            .name("urlint-inflate".to_owned())
            .spawn(move || inflate(compression, decoder, &sender, &returned))?;
        Ok(Inflated {
            chunks,
            spent,
            current: Vec::new(),
            at: 0,
            ended: false,
            broken: None,
            compression,
        })
    }

    /// Where the stream broke, once the text has been read to its end;
    /// `None` for a stream that ended cleanly (or is not read to its end).
    pub(crate) fn broken(&self) -> Option<&Broken> {
        self.broken.as_ref()
    }
}

/// The inflating thread: decompress into chunks and hand them over until
/// the stream ends, breaks, or the reader hangs up.
#[cfg(feature = "cli")]
fn inflate(
    compression: Compression,
    mut decoder: Box<dyn Read + Send>,
    sender: &SyncSender<Handed>,
    returned: &Receiver<Vec<u8>>,
) {
    let (mut text_len, mut lines) = (0_u64, 0_u64);
    loop {
        let mut chunk = returned.try_recv().unwrap_or_default();
        chunk.resize(CHUNK_LEN, 0);
        let (len, outcome) = fill(&mut decoder, &mut chunk);
        chunk.truncate(len);
        text_len += len as u64;
        lines += memchr::memchr_iter(b'\n', &chunk).count() as u64;
        if len > 0 && sender.send(Handed::Text(chunk)).is_err() {
            return;
        }
        let handed = match outcome {
            Ok(true) => continue,
            Ok(false) => Handed::End,
            Err(err) => Handed::Broken(Broken {
                compression,
                text_len,
                line: lines + 1,
                cause: cause_of(&err),
            }),
        };
        let _ = sender.send(handed);
        return;
    }
}

/// Read from `decoder` until `chunk` is full (`Ok(true)`), the stream ends
/// (`Ok(false)`) or breaks; returns how much was read either way.
fn fill(decoder: &mut impl Read, chunk: &mut [u8]) -> (usize, io::Result<bool>) {
    let mut len = 0;
    while len < chunk.len() {
        let end = chunk.len().min(len + READ_LEN);
        match decoder.read(&mut chunk[len..end]) {
            Ok(0) => return (len, Ok(false)),
            Ok(read) => len += read,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
            Err(err) => return (len, Err(err)),
        }
    }
    (len, Ok(true))
}

/// A decompressor's error as a user reads it: a stream that stops short
/// says so, whatever the library calls it.
fn cause_of(err: &io::Error) -> String {
    if err.kind() == io::ErrorKind::UnexpectedEof {
        return "the file ends inside the compressed stream (truncated?)".to_owned();
    }
    err.to_string()
}

#[cfg(feature = "cli")]
impl Read for Inflated {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let available = self.fill_buf()?;
        let len = available.len().min(buf.len());
        buf[..len].copy_from_slice(&available[..len]);
        self.consume(len);
        Ok(len)
    }
}

#[cfg(feature = "cli")]
impl BufRead for Inflated {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        while self.at == self.current.len() && !self.ended {
            match self.chunks.recv() {
                Ok(Handed::Text(chunk)) => {
                    let spent = std::mem::replace(&mut self.current, chunk);
                    self.at = 0;
                    // A full return queue only means the thread allocates.
                    let _ = self.spent.try_send(spent);
                }
                Ok(Handed::End) => self.ended = true,
                Ok(Handed::Broken(broken)) => {
                    self.broken = Some(broken);
                    self.ended = true;
                }
                // The thread stopped without a word: it panicked (the
                // panic message is already on stderr).
                Err(_) => {
                    self.broken = Some(Broken {
                        compression: self.compression,
                        text_len: 0,
                        line: 0,
                        cause: "the decompressor stopped (urlint panicked; please report it)"
                            .to_owned(),
                    });
                    self.ended = true;
                }
            }
        }
        Ok(&self.current[self.at..])
    }

    fn consume(&mut self, amount: usize) {
        self.at = (self.at + amount).min(self.current.len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_magic_numbers_tell_the_format() {
        for (name, compression) in [
            ("a.mbox.gz", Compression::Gzip),
            ("2024-January.txt.GZ", Compression::Gzip),
            ("list.bz2", Compression::Bzip2),
            ("dump.xz", Compression::Xz),
            ("notes.md.zst", Compression::Zstd),
        ] {
            assert_eq!(
                Compression::from_name(Path::new(name)),
                Some(compression),
                "{name}"
            );
        }
        for name in ["a.mbox", "gz", "a.tgz", "a.gz.txt"] {
            assert_eq!(Compression::from_name(Path::new(name)), None, "{name}");
        }
        let heads: [(&[u8], Option<Compression>); 7] = [
            (&[0x1f, 0x8b, 0x08, 0x00], Some(Compression::Gzip)),
            (b"BZh91AY&SY", Some(Compression::Bzip2)),
            // An empty bzip2 stream: the end-of-stream marker at once.
            (b"BZh9\x17\x72\x45\x38\x50\x90", Some(Compression::Bzip2)),
            (b"\xfd7zXZ\x00\x00", Some(Compression::Xz)),
            (&[0x28, 0xb5, 0x2f, 0xfd], Some(Compression::Zstd)),
            // Text that happens to start like bzip2's header is text.
            (b"BZh9 is a header", None),
            (b"From a@example.org Mon Jan  1", None),
        ];
        for (head, expected) in heads {
            assert_eq!(Compression::from_magic(head), expected, "{head:?}");
        }
        // A name wins over the content, so that a damaged file is told.
        assert_eq!(
            Compression::of(Some(Path::new("a.gz")), b"plain"),
            Some(Compression::Gzip)
        );
        assert_eq!(
            Compression::of(None, b"\xfd7zXZ\x00"),
            Some(Compression::Xz)
        );
    }

    #[test]
    fn the_inner_name_drops_the_compression_extension_only() {
        assert_eq!(
            inner_name(Path::new("d/notes.md.gz")),
            Path::new("d/notes.md")
        );
        assert_eq!(inner_name(Path::new("archive")), Path::new("archive"));
        assert_eq!(
            inner_name(Path::new("2024-01.txt.xz")),
            Path::new("2024-01.txt")
        );
    }

    #[cfg(feature = "gzip")]
    fn gzip(text: &[u8]) -> Vec<u8> {
        use std::io::Write;
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        encoder.write_all(text).expect("in memory");
        encoder.finish().expect("in memory")
    }

    #[test]
    #[cfg(feature = "gzip")]
    fn a_break_ends_the_text_where_it_broke_and_says_where() {
        let text: String = (1..=20_000).map(|line| format!("line {line}\n")).collect();
        let compressed = gzip(text.as_bytes());
        let cut = compressed[..compressed.len() / 2].to_vec();
        let mut inflated =
            Inflated::start(Compression::Gzip, io::Cursor::new(cut)).expect("thread");
        let mut read = Vec::new();
        inflated.read_to_end(&mut read).expect("a break is an end");
        assert!(text.as_bytes().starts_with(&read));
        assert!(read.len() > text.len() / 4, "{}", read.len());
        let broken = inflated.broken().expect("it broke").clone();
        assert_eq!(broken.text_len, read.len() as u64);
        let lines_read = read.iter().filter(|&&byte| byte == b'\n').count() as u64;
        assert_eq!(broken.line, lines_read + 1);
        assert!(
            broken.describe().contains("(truncated?)"),
            "{}",
            broken.describe()
        );

        let mut whole =
            Inflated::start(Compression::Gzip, io::Cursor::new(compressed)).expect("thread");
        let mut read = Vec::new();
        whole.read_to_end(&mut read).expect("read");
        assert_eq!(read, text.as_bytes());
        assert_eq!(whole.broken(), None);
    }

    #[test]
    #[cfg(feature = "gzip")]
    fn data_in_memory_inflates_whole_members_and_all_or_up_to_its_break() {
        let text: String = (1..=20_000).map(|line| format!("line {line}\n")).collect();
        let mut members = gzip(&text.as_bytes()[..1000]);
        members.extend(gzip(&text.as_bytes()[1000..]));
        assert_eq!(
            inflate_all(Compression::Gzip, &members),
            (text.as_bytes().to_vec(), None)
        );
        let (read, broken) = inflate_all(Compression::Gzip, &members[..members.len() / 2]);
        assert!(text.as_bytes().starts_with(&read));
        assert!(read.len() > text.len() / 4, "{}", read.len());
        let broken = broken.expect("it broke");
        assert_eq!(broken.text_len, read.len() as u64);
        let lines_read = read.iter().filter(|&&byte| byte == b'\n').count() as u64;
        assert_eq!(broken.line, lines_read + 1);
        assert!(broken.describe().contains("(truncated?)"), "{broken:?}");
        // A head is the text's head, cut or not.
        let head = &text.as_bytes()[..HEAD_LEN];
        assert!(head.starts_with(&inflate_head(Compression::Gzip, &members[..200])));
        assert_eq!(
            inflate_head(Compression::Gzip, &members[..members.len() / 2]),
            head
        );
        assert_eq!(inflate_head(Compression::Gzip, &gzip(b"short")), b"short");
    }

    #[test]
    #[cfg(feature = "gzip")]
    fn a_small_archive_inflates_whole_and_a_larger_one_does_not() {
        let compressed = gzip(b"see http://a.example/\n");
        assert_eq!(
            inflate_small(Compression::Gzip, &compressed, 64).as_deref(),
            Some(&b"see http://a.example/\n"[..])
        );
        assert_eq!(inflate_small(Compression::Gzip, &compressed, 8), None);
        assert_eq!(
            inflate_small(Compression::Gzip, &compressed[..10], 64),
            None
        );
    }
}
