//! The `urlint` command: parses arguments, calls the library, sets the exit code.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    // clap exits with status 2 on usage errors, as urlint documents.
    let cli = urlint::cli::Cli::parse();
    ExitCode::from(urlint::run::run(cli).code())
}
