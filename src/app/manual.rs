//! Documentation generated from the clap definitions: shell completion
//! scripts (`urlint completions`) and manual pages (`urlint man`), so that
//! neither can drift from the options urlint has.

use std::io;
use std::path::Path;

use clap::CommandFactory;
use codespan_reporting::term::termcolor::WriteColor;

use super::cli::Cli;
use super::output::say;
use super::status::Outcome;

/// `urlint completions SHELL`: the script is built whole first, as
/// clap_complete panics on a failed write (a closed pipe).
pub(super) fn completions(out: &mut dyn WriteColor, shell: clap_complete::Shell) -> Outcome {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "urlint", &mut script);
    Outcome::written(out.write_all(&script))
}

/// `urlint man DIR`: one page for urlint and one per visible subcommand,
/// each path printed as it is written. DIR is made when it does not exist
/// (`~/.local/share/man/man1` does not on a fresh account).
pub(super) fn man_pages(out: &mut dyn WriteColor, dir: &Path) -> Outcome {
    if let Err(err) = std::fs::create_dir_all(dir) {
        // create_dir_all says "File exists" of a file in the way.
        let why = match dir.exists() && !dir.is_dir() {
            true => "it exists and is not a directory".to_string(),
            false => err.to_string(),
        };
        say(format_args!(
            "cannot make the directory {} for the manual pages: {why}",
            dir.display()
        ));
        return Outcome::trouble();
    }
    let mut command = Cli::command().disable_help_subcommand(true);
    command.build();
    let mut pages = vec![command.clone()];
    pages.extend(
        command
            .get_subcommands()
            .filter(|page| !page.is_hide_set())
            .cloned(),
    );
    for page in pages {
        let name = page
            .get_display_name()
            .unwrap_or(page.get_name())
            .to_owned();
        let written = man_page(page).and_then(|(file, text)| {
            let path = dir.join(file);
            std::fs::write(&path, text)?;
            Ok(path)
        });
        match written {
            Ok(path) => {
                if let Err(err) = writeln!(out, "{}", path.display()) {
                    return Outcome::written(Err(err));
                }
            }
            Err(err) => {
                say(format_args!(
                    "cannot write the manual page of {name} into {}: {err}",
                    dir.display()
                ));
                return Outcome::trouble();
            }
        }
    }
    Outcome::written(Ok(()))
}

/// The file name and roff text of `page`'s manual page. Its examples are an
/// EXAMPLES section set line for line: clap_mangen would fill them into one
/// paragraph.
fn man_page(page: clap::Command) -> io::Result<(String, Vec<u8>)> {
    let examples = page.get_after_help().map(ToString::to_string);
    let page = page.after_help(None::<&'static str>);
    let man = clap_mangen::Man::new(page)
        .source(format!("urlint {}", env!("CARGO_PKG_VERSION")))
        .manual("urlint manual");
    let mut text = Vec::new();
    man.render(&mut text)?;
    if let Some(examples) = examples {
        let lines = examples.lines().filter(|line| line.starts_with("  "));
        text.extend_from_slice(b".SH EXAMPLES\n.nf\n");
        for line in lines {
            // Roff: a backslash is `\e`, a minus sign to be typed is `\-`,
            // and `\&` keeps a leading dot from reading as a request.
            let line = line.trim_start().replace('\\', "\\e").replace('-', "\\-");
            text.extend_from_slice(format!("\\&{line}\n").as_bytes());
        }
        text.extend_from_slice(b".fi\n");
    }
    Ok((man.get_filename(), text))
}
