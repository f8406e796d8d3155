//! Robustness check on the shared corpus of real mail (read in place, never
//! copied): every file is read to the end without a panic or an I/O error,
//! and every map stays inside its file. Skipped when the corpus is absent.

use std::path::{Path, PathBuf};

use urlint::mail::{self, MailKind};
use urlint::span::Span;

/// Where the corpus lives beside the project.
const CORPUS: &str = "/work/shared/corpus/mail";

/// Every file under `dir`, recursively, sorted.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_none_or(|e| e != "md") {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

#[test]
fn real_mail_is_read_without_errors() {
    let dir = Path::new(CORPUS);
    if !dir.is_dir() {
        eprintln!("skipped: {CORPUS} is absent");
        return;
    }
    // A rough URL pattern: the scanner is another stage; this only counts.
    let url_pattern = regex::Regex::new(r#"https?://[^\s<>"]+"#).unwrap();
    let (mut messages, mut texts, mut warnings, mut urls, mut joined) = (0, 0, 0, 0, 0);
    let paths = files(dir);
    for path in &paths {
        let bytes = std::fs::read(path).unwrap();
        let kind = MailKind::detect(Some(path), &bytes).unwrap_or(MailKind::Eml);
        for message in mail::read(&bytes[..], kind) {
            let message = message.unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            messages += 1;
            warnings += message.warnings.len();
            for text in &message.texts {
                texts += 1;
                for url in url_pattern.find_iter(&text.text) {
                    urls += 1;
                    let runs = text.map.raw_spans(Span::new(url.start(), url.end()));
                    joined += usize::from(runs.len() > 1);
                }
                for piece in text.map.pieces() {
                    assert!(
                        piece.raw.end <= bytes.len(),
                        "{}: {piece:?}",
                        path.display()
                    );
                }
                let whole = text.map.raw_span(Span::new(0, text.text.len()));
                assert!(whole.is_none_or(|raw| raw.end <= bytes.len()));
            }
        }
    }
    eprintln!(
        "corpus: {} files, {messages} messages, {texts} texts, {urls} http(s) URLs \
         ({joined} joined from several raw runs), {warnings} warnings",
        paths.len()
    );
    assert!(messages >= paths.len());
}
