//! The peers `benches/e2e.sh` times urlint against on the same file, each
//! on one thread:
//!
//! ```text
//! cargo run --release --example peer -- floor FILE        # 1 MiB reads + memchr2
//! cargo run --release --example peer -- floor-whole FILE  # one read of it all + memchr2
//! cargo run --release --example peer -- linkify FILE      # read + linkify's LinkFinder
//! cargo run --release --example peer -- markdown DIR       # pulldown-cmark over DIR's .md files
//! ```
//!
//! `floor` is the physical floor of a scanner that looks at every `:` and
//! `<`: the file read in 1 MiB blocks into one buffer and those bytes
//! counted with memchr's vector search, nothing else. `floor-whole` reads
//! the file into memory first, as a program holding its whole input does
//! (the fresh buffer's page faults cost more than the search). `linkify`
//! reads the file whole (linkify takes a `&str`; invalid UTF-8 is replaced)
//! and consumes every link. `markdown` reads every `.md` file under a
//! directory and runs pulldown-cmark over it with the extensions urlint
//! reads Markdown with, consuming every event with its source range: the
//! part of reading a tree of docs that issue 15's CommonMark parsing sets,
//! without urlint's own reading of the events or its scan. Each prints its
//! count, so that a run that found nothing shows.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;
use std::process::ExitCode;

use pulldown_cmark::{Options, Parser};

/// Bytes read at a time by the floor.
const BLOCK_LEN: usize = 1 << 20;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let counted = match args.as_slice() {
        [mode, path] if mode == "floor" => floor(path),
        [mode, path] if mode == "floor-whole" => floor_whole(path),
        [mode, path] if mode == "linkify" => links(path),
        [mode, path] if mode == "markdown" => markdown_events(Path::new(path)),
        _ => {
            eprintln!("usage: peer (floor | floor-whole | linkify) FILE | peer markdown DIR");
            return ExitCode::from(2);
        }
    };
    match counted {
        Ok(count) => {
            println!("{count}");
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("peer: {error}");
            ExitCode::FAILURE
        }
    }
}

/// `:` and `<` in the file at `path`, read block by block.
fn floor(path: &str) -> io::Result<usize> {
    let mut file = File::open(path)?;
    let mut block = vec![0; BLOCK_LEN];
    let mut hits = 0;
    loop {
        let read = match file.read(&mut block) {
            Ok(0) => return Ok(hits),
            Ok(read) => read,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        hits += memchr::memchr2_iter(b':', b'<', &block[..read]).count();
    }
}

/// `:` and `<` in the file at `path`, read whole first.
fn floor_whole(path: &str) -> io::Result<usize> {
    let bytes = std::fs::read(path)?;
    Ok(memchr::memchr2_iter(b':', b'<', &bytes).count())
}

/// Links linkify finds in the file at `path`.
fn links(path: &str) -> io::Result<usize> {
    let bytes = std::fs::read(path)?;
    let text = String::from_utf8_lossy(&bytes);
    Ok(linkify::LinkFinder::new().links(&text).count())
}

/// Markdown events, with their source ranges, of every `.md` file under
/// `dir`, read as urlint reads Markdown (GFM tables, footnotes,
/// strikethrough, task lists and blockquote tags).
fn markdown_events(dir: &Path) -> io::Result<usize> {
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_GFM;
    let mut events = 0;
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir)? {
            let entry = entry?;
            let path = entry.path();
            if entry.file_type()?.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|ext| ext == "md") {
                let bytes = std::fs::read(&path)?;
                let text = String::from_utf8_lossy(&bytes);
                events += Parser::new_ext(&text, options).into_offset_iter().count();
            }
        }
    }
    Ok(events)
}
