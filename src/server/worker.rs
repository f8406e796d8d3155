//! Linting off the message loop: a worker thread takes lint jobs and hands
//! back analyses, so a 10 MB document never keeps the server from reading
//! the client's next message.
//!
//! Jobs queue up while the worker is busy; when it takes the next one it
//! takes every queued job with it and lints only the newest of each
//! document, so a burst of edits costs one lint. Results carry the version
//! they linted, and the loop drops those the document has moved past.

use std::panic::{self, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::Arc;
use std::thread;

use crossbeam_channel::{Receiver, Sender};
use lsp_types::{Diagnostic, Uri};

use super::analysis::{Analysis, DocumentReading};
use super::diagnostics::diagnostics;
use super::position::Encoding;

/// One document version to lint.
#[derive(Debug)]
pub(super) struct Job {
    /// The document.
    pub uri: Uri,
    /// Its file, for the input kind.
    pub path: Option<PathBuf>,
    /// The version `text` is.
    pub version: i32,
    /// The text to lint.
    pub text: Arc<String>,
    /// How to read and lint it.
    pub reading: DocumentReading,
}

/// What the worker made of a job.
#[derive(Debug)]
pub(super) struct Done {
    /// The document.
    pub uri: Uri,
    /// The version linted.
    pub version: i32,
    /// The analysis and its diagnostics; an error message when linting
    /// failed inside urlint.
    pub result: Result<(Analysis, Vec<Diagnostic>), String>,
}

/// The lint worker's job queue and its results. The thread ends once this
/// handle is dropped and its current job is done; nobody waits for it, so
/// `exit` is not held up by a large document being linted.
#[derive(Debug)]
pub(super) struct Worker {
    jobs: Sender<Job>,
    /// Analyses, in the order their jobs were linted.
    pub results: Receiver<Done>,
}

impl Worker {
    /// Start a worker placing positions in `encoding`.
    pub(super) fn start(encoding: Encoding) -> std::io::Result<Worker> {
        let (jobs, queue) = crossbeam_channel::unbounded::<Job>();
        let (done, results) = crossbeam_channel::unbounded::<Done>();
        thread::Builder::new()
            .name("urlint-lint".to_owned())
            .spawn(move || work(&queue, &done, encoding))?;
        Ok(Worker { jobs, results })
    }

    /// Queue `job`.
    pub(super) fn submit(&self, job: Job) {
        // The thread outlives this handle, so the queue is open.
        let _ = self.jobs.send(job);
    }
}

/// The worker's loop: until the queue closes, take what is queued, keep
/// the newest job of each document, lint, send.
fn work(queue: &Receiver<Job>, done: &Sender<Done>, encoding: Encoding) {
    while let Ok(first) = queue.recv() {
        let mut batch = vec![first];
        batch.extend(queue.try_iter());
        for job in newest_of_each(batch) {
            let uri = job.uri.clone();
            let version = job.version;
            // Reading already turns a panic in the linter into an error for
            // that text; this catches one in placing what it found.
            let result = panic::catch_unwind(AssertUnwindSafe(|| {
                let analysis = Analysis::run(job.path, version, job.text, job.reading, encoding);
                let diagnostics = diagnostics(&analysis, &uri);
                (analysis, diagnostics)
            }))
            .map_err(|_| "urlint panicked placing this document's findings".to_owned());
            if done
                .send(Done {
                    uri,
                    version,
                    result,
                })
                .is_err()
            {
                return;
            }
        }
    }
}

/// The jobs of `batch` that no later job of the same document replaces,
/// in their order.
fn newest_of_each(batch: Vec<Job>) -> Vec<Job> {
    let mut kept: Vec<Job> = Vec::with_capacity(batch.len());
    for job in batch {
        kept.retain(|earlier| earlier.uri != job.uri);
        kept.push(job);
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;
    use std::time::Duration;

    fn job(uri: &str, version: i32, text: &str) -> Job {
        Job {
            uri: Uri::from_str(uri).expect("a URI"),
            path: None,
            version,
            text: Arc::new(text.to_owned()),
            reading: DocumentReading::default(),
        }
    }

    #[test]
    fn queued_jobs_of_one_document_are_linted_once_at_the_newest_version() {
        let batch = vec![
            job("file:///a", 1, ""),
            job("file:///b", 1, ""),
            job("file:///a", 2, ""),
            job("file:///a", 3, ""),
        ];
        let kept: Vec<(String, i32)> = newest_of_each(batch)
            .into_iter()
            .map(|job| (job.uri.to_string(), job.version))
            .collect();
        assert_eq!(kept, [("file:///b".into(), 1), ("file:///a".into(), 3)]);
    }

    #[test]
    fn the_worker_hands_back_diagnostics() {
        let worker = Worker::start(Encoding::Utf16).expect("a thread");
        worker.submit(job("file:///a", 7, "see http://h.example/~x\n"));
        let done = worker
            .results
            .recv_timeout(Duration::from_secs(30))
            .expect("a result");
        assert_eq!(done.version, 7);
        let (analysis, diagnostics) = done.result.expect("linted");
        assert_eq!((analysis.version, diagnostics.len()), (7, 1));
    }
}
