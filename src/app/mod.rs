//! The application layer: the command line's definitions, carrying out a
//! command, output buffering, ordered parallel work. Everything here sits on
//! top of the library and none of it is public API.

mod cli;
mod commands;
mod driver;
mod manual;
mod output;
mod parallel;
mod rewriting;
mod status;

use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::{CommandFactory, Parser};

/// Run the command line of this process and return its exit code.
pub(crate) fn main() -> ExitCode {
    crate::write::remove_temporaries_on_signals();
    // clap exits with status 2 on usage errors, as urlint documents.
    let cli = match cli::Cli::try_parse() {
        Ok(cli) => cli,
        // Help and version go to stdout, where a closed one would lose
        // them under exit 0.
        Err(err)
            if matches!(
                err.kind(),
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion
            ) && output::stdout_unusable() =>
        {
            return ExitCode::from(commands::stdout_closed().code());
        }
        Err(err) => err.exit(),
    };
    if let Some(message) = cli.command.usage_conflict() {
        // The error shows the subcommand's usage line, as clap's own do.
        let mut command = cli::Cli::command();
        command.build();
        let error = match command.find_subcommand_mut(cli.command.name()) {
            Some(subcommand) => subcommand.error(ErrorKind::ArgumentConflict, message),
            None => command.error(ErrorKind::ArgumentConflict, message),
        };
        error.exit();
    }
    ExitCode::from(commands::run(cli).code())
}
