//! The application layer: the command line's definitions, carrying out a
//! command, output buffering, ordered parallel work. Everything here sits on
//! top of the library and none of it is public API.

mod cli;
mod commands;
mod driver;
mod output;
mod parallel;
mod rewriting;
mod status;

use std::process::ExitCode;

use clap::Parser;

/// Run the command line of this process and return its exit code.
pub(crate) fn main() -> ExitCode {
    // clap exits with status 2 on usage errors, as urlint documents.
    let cli = cli::Cli::parse();
    ExitCode::from(commands::run(cli).code())
}
