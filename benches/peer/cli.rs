//! The peers `benches/e2e.sh` times urlint against on the same file, each
//! on one thread:
//!
//! ```text
//! cargo run --release --example peer -- floor FILE        # 1 MiB reads + memchr2
//! cargo run --release --example peer -- floor-whole FILE  # one read of it all + memchr2
//! cargo run --release --example peer -- linkify FILE      # read + linkify's LinkFinder
//! ```
//!
//! `floor` is the physical floor of a scanner that looks at every `:` and
//! `<`: the file read in 1 MiB blocks into one buffer and those bytes
//! counted with memchr's vector search, nothing else. `floor-whole` reads
//! the file into memory first, as a program holding its whole input does
//! (the fresh buffer's page faults cost more than the search). `linkify`
//! reads the file whole (linkify takes a `&str`; invalid UTF-8 is replaced)
//! and consumes every link. Each prints its count, so that a run that found
//! nothing shows.

use std::fs::File;
use std::io::{self, Read};
use std::process::ExitCode;

/// Bytes read at a time by the floor.
const BLOCK_LEN: usize = 1 << 20;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let counted = match args.as_slice() {
        [mode, path] if mode == "floor" => floor(path),
        [mode, path] if mode == "floor-whole" => floor_whole(path),
        [mode, path] if mode == "linkify" => links(path),
        _ => {
            eprintln!("usage: peer (floor | floor-whole | linkify) FILE");
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
