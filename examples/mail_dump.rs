//! Print what the mail reader makes of a file: each message's texts, their
//! origins and warnings. A debugging aid for the mail module.
//!
//! Usage: `cargo run --example mail_dump -- FILE [mbox|eml]`

use std::fs::File;
use std::io::BufReader;
use std::path::Path;
use std::process::ExitCode;

use urlint::mail::{self, MailKind};

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: mail_dump FILE [mbox|eml]");
        return ExitCode::from(2);
    };
    let kind = match args.next().map(|kind| kind.parse::<MailKind>()) {
        Some(Ok(kind)) => kind,
        Some(Err(error)) => {
            eprintln!("{error}");
            return ExitCode::from(2);
        }
        None => MailKind::from_path(Path::new(&path)).unwrap_or(MailKind::Eml),
    };
    let file = match File::open(&path) {
        Ok(file) => file,
        Err(error) => {
            eprintln!("{path}: {error}");
            return ExitCode::FAILURE;
        }
    };
    for message in mail::read(BufReader::new(file), kind) {
        let message = match message {
            Ok(message) => message,
            Err(error) => {
                eprintln!("{path}: {error}");
                return ExitCode::FAILURE;
            }
        };
        println!(
            "== message {} at line {}: {:?}",
            message.info.number, message.info.line, message.info
        );
        for warning in &message.warnings {
            println!(
                "   warning {:?} {:?}: {}",
                warning.kind, warning.part, warning.message
            );
        }
        for text in &message.texts {
            println!(
                "-- part {} {} {:?} {:?}",
                text.part.path, text.part.content_type, text.part.charset, text.part.encoding
            );
            println!("{}", text.text);
            println!("   map: {:?}", text.map.pieces());
        }
    }
    ExitCode::SUCCESS
}
