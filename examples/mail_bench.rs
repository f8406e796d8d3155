//! Read a mail file end to end and report throughput: messages, texts,
//! warnings, MB/s. Measures the mail reader alone (no scanning).
//!
//! Usage: `cargo run --release --example mail_bench -- FILE [mbox|eml]`

use std::fs::File;
use std::io::BufReader;
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use urlint::mail::{self, MailKind};

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: mail_bench FILE [mbox|eml]");
        return ExitCode::from(2);
    };
    let kind = match args.next() {
        Some(kind) => match kind.parse() {
            Ok(kind) => kind,
            Err(error) => {
                eprintln!("{error}");
                return ExitCode::from(2);
            }
        },
        None => MailKind::from_path(Path::new(&path)).unwrap_or(MailKind::Mbox),
    };
    let file = match File::open(&path) {
        Ok(file) => file,
        Err(error) => {
            eprintln!("{path}: {error}");
            return ExitCode::FAILURE;
        }
    };
    let started = Instant::now();
    let (mut messages, mut texts, mut warnings, mut bytes, mut text_bytes) = (0, 0, 0, 0, 0);
    for message in mail::read(BufReader::with_capacity(1 << 16, file), kind) {
        let message = match message {
            Ok(message) => message,
            Err(error) => {
                eprintln!("{path}: {error}");
                return ExitCode::FAILURE;
            }
        };
        messages += 1;
        bytes += message.raw.bytes.len();
        warnings += message.warnings.len();
        texts += message.texts.len();
        text_bytes += message.texts.iter().map(|t| t.text.len()).sum::<usize>();
    }
    let seconds = started.elapsed().as_secs_f64();
    let megabytes = bytes as f64 / f64::from(1 << 20);
    println!(
        "{messages} messages, {texts} texts ({text_bytes} bytes), {warnings} warnings; \
         {megabytes:.1} MB in {seconds:.2} s = {:.1} MB/s",
        megabytes / seconds
    );
    ExitCode::SUCCESS
}
