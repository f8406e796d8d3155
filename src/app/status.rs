//! How a run ends, as the process exit code tells it.

use std::io;

use super::output::{is_broken_pipe, say};

/// How a run ended, as the process exit code tells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ExitStatus {
    /// Nothing failing was found (exit 0).
    Clean,
    /// Error-level findings, or warnings under `--deny warnings` (exit 1).
    Findings,
    /// A usage, I/O or internal error (exit 2); takes precedence over findings.
    Trouble,
    /// The language client said `exit` without `shutdown` first (exit 1,
    /// as the Language Server Protocol asks).
    ExitWithoutShutdown,
}

impl ExitStatus {
    /// The process exit code.
    pub(super) fn code(self) -> u8 {
        match self {
            ExitStatus::Clean => 0,
            ExitStatus::Findings | ExitStatus::ExitWithoutShutdown => 1,
            ExitStatus::Trouble => 2,
        }
    }
}

/// What a command found and whether its report reached the reader, from
/// which its exit status follows.
#[derive(Debug)]
pub(super) struct Outcome {
    /// Findings fail the run (errors, or warnings under `--deny warnings`).
    pub failing: bool,
    /// An input, usage or configuration error was reported on stderr.
    pub trouble: bool,
    /// Whether the report was written.
    pub output: io::Result<()>,
}

impl Outcome {
    /// A command that reported nothing on stdout and found nothing.
    pub(super) fn trouble() -> Self {
        Outcome {
            failing: false,
            trouble: true,
            output: Ok(()),
        }
    }

    /// A command that wrote `output` and has nothing to fail on.
    pub(super) fn written(output: io::Result<()>) -> Self {
        Outcome {
            failing: false,
            trouble: false,
            output,
        }
    }

    /// The exit status: trouble first, then a failed write (a closed pipe,
    /// as in `urlint extract | head`, means the reader has what it
    /// wanted), then findings.
    pub(super) fn status(self) -> ExitStatus {
        let status = match self.output {
            Ok(()) if self.failing => ExitStatus::Findings,
            Ok(()) => ExitStatus::Clean,
            Err(err) if is_broken_pipe(&err) => ExitStatus::Clean,
            Err(err) => {
                say(format_args!("cannot write output: {err}"));
                ExitStatus::Trouble
            }
        };
        if self.trouble {
            ExitStatus::Trouble
        } else {
            status
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(failing: bool, trouble: bool, output: io::Result<()>) -> ExitStatus {
        Outcome {
            failing,
            trouble,
            output,
        }
        .status()
    }

    #[test]
    fn trouble_outranks_findings_and_a_closed_pipe_is_clean() {
        let pipe = || Err(io::Error::from(io::ErrorKind::BrokenPipe));
        assert_eq!(outcome(false, false, Ok(())), ExitStatus::Clean);
        assert_eq!(outcome(true, false, Ok(())), ExitStatus::Findings);
        assert_eq!(outcome(true, true, Ok(())), ExitStatus::Trouble);
        assert_eq!(outcome(true, false, pipe()), ExitStatus::Clean);
        assert_eq!(outcome(false, true, pipe()), ExitStatus::Trouble);
        let full = Err(io::Error::from(io::ErrorKind::StorageFull));
        assert_eq!(outcome(false, false, full), ExitStatus::Trouble);
    }
}
