//! Writes generated corpora to files, stdout or a directory tree, for the
//! end-to-end runs of the `urlint` binary (`benches/e2e.sh`).
//!
//! ```text
//! cargo run --release --example corpus -- KIND SIZE [PATH|-] [--seed N]
//! cargo run --release --example corpus -- --tree DIR [--files N] [--file-size SIZE] [--seed N]
//! ```
//!
//! KIND is one of prose, rfc, dense, long-line, colons, unterminated, angles,
//! parens; SIZE takes decimal units (`64M`, `2G`). The output is the same as
//! the benchmark's for the same kind, size and seed.

// The scan benchmark shares this module and uses the parts this tool does not.
#[allow(dead_code, unused_imports)]
#[path = "mod.rs"]
mod corpus;

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use corpus::{generate, parse_size, stream, Kind, DEFAULT_SEED};

/// Kinds the files of a tree cycle through, like a docs tree's mix.
const TREE_KINDS: [Kind; 3] = [Kind::Prose, Kind::Rfc, Kind::Dense];

/// Files per subdirectory of a tree, so no directory is huge.
const FILES_PER_DIRECTORY: usize = 100;

/// What the command line asked for.
enum Request {
    /// One corpus to a file, or to stdout for `-`.
    Single {
        kind: Kind,
        size: usize,
        path: Option<PathBuf>,
        seed: u64,
    },
    /// A tree of `files` corpus files of `file_size` bytes each.
    Tree {
        root: PathBuf,
        files: usize,
        file_size: usize,
        seed: u64,
    },
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let outcome = parse(&args).and_then(|request| match run(request) {
        // A reader that stops early (`| head`) is not a failure of ours.
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => other.map_err(|error| error.to_string()),
    });
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("corpus: {message}");
            ExitCode::FAILURE
        }
    }
}

fn parse(args: &[String]) -> Result<Request, String> {
    let mut positional = Vec::new();
    let mut seed = DEFAULT_SEED;
    let mut tree = None;
    let mut files = 10_000;
    let mut file_size = 32_000;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let mut value = || rest.next().ok_or_else(|| format!("{arg} needs a value"));
        match arg.as_str() {
            "--seed" => {
                seed = value()?
                    .parse()
                    .map_err(|_| "--seed takes a number".to_owned())?
            }
            "--tree" => tree = Some(PathBuf::from(value()?)),
            "--files" => {
                files = value()?
                    .parse()
                    .map_err(|_| "--files takes a number".to_owned())?
            }
            "--file-size" => file_size = parse_size(value()?)?,
            _ => positional.push(arg.as_str()),
        }
    }
    match (tree, positional.as_slice()) {
        (Some(root), []) => Ok(Request::Tree { root, files, file_size, seed }),
        (None, [kind, size]) | (None, [kind, size, "-"]) => {
            Ok(Request::Single { kind: Kind::parse(kind)?, size: parse_size(size)?, path: None, seed })
        }
        (None, [kind, size, path]) => Ok(Request::Single {
            kind: Kind::parse(kind)?,
            size: parse_size(size)?,
            path: Some(PathBuf::from(path)),
            seed,
        }),
        _ => Err("usage: corpus KIND SIZE [PATH|-] [--seed N] | --tree DIR [--files N] [--file-size SIZE]".to_owned()),
    }
}

fn run(request: Request) -> io::Result<()> {
    match request {
        Request::Single {
            kind,
            size,
            path: Some(path),
            seed,
        } => {
            let mut file = fs::File::create(&path).map_err(|error| annotate(&path, error))?;
            stream(kind, size, seed, |piece| file.write_all(piece.as_bytes()))
                .map_err(|error| annotate(&path, error))
        }
        Request::Single {
            kind,
            size,
            path: None,
            seed,
        } => {
            let mut stdout = io::stdout().lock();
            stream(kind, size, seed, |piece| stdout.write_all(piece.as_bytes()))?;
            stdout.flush()
        }
        Request::Tree {
            root,
            files,
            file_size,
            seed,
        } => write_tree(&root, files, file_size, seed),
    }
}

/// Write `files` files under `root`, `FILES_PER_DIRECTORY` per subdirectory,
/// each from its own seed so no two are alike.
fn write_tree(root: &Path, files: usize, file_size: usize, seed: u64) -> io::Result<()> {
    for index in 0..files {
        let directory = root.join(format!("d{:03}", index / FILES_PER_DIRECTORY));
        if index % FILES_PER_DIRECTORY == 0 {
            fs::create_dir_all(&directory).map_err(|error| annotate(&directory, error))?;
        }
        let kind = TREE_KINDS[index % TREE_KINDS.len()];
        let path = directory.join(format!("f{index:05}.txt"));
        let text = generate(kind, file_size, seed ^ index as u64);
        fs::write(&path, text).map_err(|error| annotate(&path, error))?;
    }
    Ok(())
}

/// Prefix an I/O error with the path it concerns.
fn annotate(path: &Path, error: io::Error) -> io::Error {
    io::Error::new(error.kind(), format!("{}: {error}", path.display()))
}
