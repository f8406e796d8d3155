//! Write a deterministic synthetic mbox of about N megabytes, for measuring
//! the mail reader: plain, quoted-printable (URLs cut by soft breaks, `=3D`
//! in queries), Latin-1, and multipart/alternative messages with base64 HTML.
//!
//! Usage: `cargo run --release --example gen_mbox -- MEGABYTES OUT.mbox`

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

/// A small linear congruential generator: deterministic across platforms,
/// which is all a benchmark input needs.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, bound: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % bound.max(1)
    }
}

/// Words for filler prose.
const WORDS: &[&str] = &[
    "archive", "mirror", "release", "patch", "thread", "list", "server", "notes", "build",
    "review", "the", "a", "of", "and", "to", "in", "is", "for", "see", "with",
];

/// Hosts for the URLs.
const HOSTS: &[&str] = &[
    "www.example.org",
    "ftp.example.net",
    "lists.example.com",
    "mirror.example.edu",
];

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(megabytes), Some(out)) = (
        args.first().and_then(|m| m.parse::<usize>().ok()),
        args.get(1),
    ) else {
        eprintln!("usage: gen_mbox MEGABYTES OUT.mbox");
        return ExitCode::from(2);
    };
    match File::create(out).and_then(|file| generate(megabytes << 20, &mut BufWriter::new(file))) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("{out}: {error}");
            ExitCode::FAILURE
        }
    }
}

/// Write messages until `size` bytes are written.
fn generate(size: usize, out: &mut impl Write) -> io::Result<()> {
    let mut rng = Lcg(1738);
    let mut written = 0;
    let mut number = 0;
    while written < size {
        number += 1;
        let message = message(&mut rng, number);
        out.write_all(&message)?;
        written += message.len();
    }
    out.flush()
}

/// One message of a kind picked at random.
fn message(rng: &mut Lcg, number: usize) -> Vec<u8> {
    let url = format!(
        "http://{}/{}/{}.html?id={}&view=full",
        HOSTS[rng.next(HOSTS.len())],
        WORDS[rng.next(10)],
        WORDS[rng.next(10)],
        rng.next(100_000)
    );
    let words = 40 + rng.next(400);
    let prose = prose(rng, words);
    let mut head = format!(
        "From user{n}@example.org Mon Jan  1 00:{m:02}:00 2024\n\
         From: User {n} <user{n}@example.org>\n\
         Subject: Message {n}\n\
         Date: Mon, 1 Jan 2024 00:{m:02}:00 +0000\n\
         Message-ID: <gen-{n}@example.org>\n\
         List-Archive: <http://lists.example.com/archive/>\n\
         MIME-Version: 1.0\n",
        n = number,
        m = number % 60
    )
    .into_bytes();
    let body = match rng.next(4) {
        0 => plain(&prose, &url),
        1 => quoted_printable(&prose, &url),
        2 => latin1(&prose, &url),
        _ => alternative(&prose, &url),
    };
    head.extend(body);
    head.extend(b"\n");
    head
}

/// Filler prose of `words` words, wrapped at about 70 columns, with an
/// occasional line that an mbox writer must quote.
fn prose(rng: &mut Lcg, words: usize) -> String {
    let mut text = String::new();
    let mut column = 0;
    for _ in 0..words {
        let word = WORDS[rng.next(WORDS.len())];
        if column + word.len() > 70 {
            text.push('\n');
            column = 0;
            if rng.next(50) == 0 {
                text.push_str(">From the archive:\n");
            }
        }
        text.push_str(word);
        text.push(' ');
        column += word.len() + 1;
    }
    text.push('\n');
    text
}

fn plain(prose: &str, url: &str) -> Vec<u8> {
    format!("Content-Type: text/plain; charset=us-ascii\n\n{prose}See <URL:{url}>.\n{prose}")
        .into_bytes()
}

fn quoted_printable(prose: &str, url: &str) -> Vec<u8> {
    let text = format!("{prose}See {url} for details.\n{prose}");
    let mut body = "Content-Type: text/plain; charset=utf-8\n\
                    Content-Transfer-Encoding: quoted-printable\n\n"
        .to_owned();
    body.push_str(&qp_encode(&text));
    body.into_bytes()
}

fn latin1(prose: &str, url: &str) -> Vec<u8> {
    let mut body = b"Content-Type: text/plain; charset=iso-8859-1\n\
                     Content-Transfer-Encoding: 8bit\n\n"
        .to_vec();
    body.extend(b"Caf\xe9 cr\xe8me: ");
    body.extend(format!("{url}\n{prose}").into_bytes());
    body
}

fn alternative(prose: &str, url: &str) -> Vec<u8> {
    let html = format!(
        "<html><body><p>{prose}</p><p><a href=\"{}\">link</a> {}</p></body></html>\n",
        url.replace('&', "&amp;"),
        url.replace('&', "&amp;")
    );
    format!(
        "Content-Type: multipart/alternative; boundary=\"alt\"\n\n\
         --alt\nContent-Type: text/plain; charset=utf-8\n\n{prose}{url}\n\n\
         --alt\nContent-Type: text/html; charset=utf-8\nContent-Transfer-Encoding: base64\n\n{}\n\
         --alt--\n",
        base64_encode(html.as_bytes())
    )
    .into_bytes()
}

/// Quoted-printable with 76-column soft breaks (RFC 2045 section 6.7).
fn qp_encode(text: &str) -> String {
    let mut out = String::new();
    let mut column = 0;
    for byte in text.bytes() {
        if byte == b'\n' {
            out.push('\n');
            column = 0;
            continue;
        }
        let piece = match byte {
            b'=' => "=3D".to_owned(),
            33..=126 | b' ' => (byte as char).to_string(),
            _ => format!("={byte:02X}"),
        };
        if column + piece.len() > 75 {
            out.push_str("=\n");
            column = 0;
        }
        column += piece.len();
        out.push_str(&piece);
    }
    out
}

/// Base64 in 76-column lines (RFC 2045 section 6.8).
fn base64_encode(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for (index, chunk) in bytes.chunks(3).enumerate() {
        if index > 0 && index % 19 == 0 {
            out.push('\n');
        }
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}
