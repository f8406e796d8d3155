//! A streamed text (stdin, a pipe, a compressed file's inflated text)
//! checked on several threads: one thread reads it into windows (the
//! `windows` module says why a window finds what a whole read finds), the
//! workers lint the windows, and the calling thread reports them in order.
//!
//! A window knows where it starts in the input when it is read, so linting
//! it needs nothing of the others. The reader runs at most a few windows
//! ahead of the report, so memory stays a few windows however long the
//! stream.

use std::collections::BTreeMap;
use std::io::{self, BufRead};
use std::sync::mpsc::{self, Receiver};
use std::sync::Mutex;

use super::check::{cut_url_note, lint_source};
use super::notice::{cannot_read, latin1_note, InputError, Note};
use super::sink::Sink;
use super::windows::{ChunkOptions, Window, Windows};
use crate::checked::{Checked, Frame};
use crate::lint::LintOptions;
use crate::source::{Origin, Source};

/// What the reading thread hands a worker: a window and its place.
type Numbered = (usize, Window);

/// What a worker hands back: a window's place, its checked text, and the
/// warning that the window cut a URL (see [`cut_url_note`]).
type Done = (usize, Result<Checked, InputError>, Option<Note>);

/// Check the text `start` then `reader` hold, longer than a chunk, window
/// by window on `threads` threads, reporting to `sink` in order. Returns an
/// error only when `sink` fails to write.
pub(super) fn check_windows_in_parallel(
    start: Vec<u8>,
    reader: impl BufRead + Send,
    chunks: ChunkOptions,
    origin: &Origin,
    lint: &LintOptions,
    threads: usize,
    sink: &mut dyn Sink,
) -> io::Result<()> {
    // Windows read but not yet reported: one per worker and the one being
    // reported, as for a large file's parts. A window's findings can weigh
    // more than its text (a URL a line), so no more are held.
    let ahead = threads + 1;
    let (work_sender, work) = mpsc::sync_channel::<Numbered>(1);
    let work = Mutex::new(work);
    let (done_sender, done) = mpsc::channel::<Done>();
    // A permit is a reported window's text, handed back to be read into
    // again (empty ones to start with).
    let (permit_sender, permits) = mpsc::sync_channel::<String>(ahead);
    for _ in 0..ahead {
        // The channel has room for every permit.
        let _ = permit_sender.send(String::new());
    }
    std::thread::scope(|scope| {
        let reading =
            scope.spawn(move || read_windows(start, reader, chunks, &work_sender, &permits));
        for _ in 0..threads {
            let (work, done_sender) = (&work, done_sender.clone());
            scope.spawn(move || lint_windows(work, &done_sender, origin, lint));
        }
        drop(done_sender);
        let reported = report_in_order(&done, &permit_sender, sink);
        // Unblocks a reader waiting for a permit, when the report stopped.
        drop(permit_sender);
        drop(done);
        let (latin1, read_error) = reading.join().unwrap_or_default();
        reported?;
        if let Some(err) = read_error {
            sink.error(cannot_read(origin, &err));
        }
        if latin1 > 0 {
            sink.note(latin1_note(origin, latin1));
        }
        Ok(())
    })
}

/// The reading thread: cut the text into windows and hand them out, each
/// once a permit says the report is near enough; returns the bytes read as
/// Latin-1 and the read error that ended the text, if any.
fn read_windows(
    start: Vec<u8>,
    reader: impl BufRead,
    chunks: ChunkOptions,
    work: &mpsc::SyncSender<Numbered>,
    permits: &Receiver<String>,
) -> (usize, Option<io::Error>) {
    let mut windows = Windows::with_head(start, reader, chunks);
    let mut error = None;
    for index in 0.. {
        let Ok(text) = permits.recv() else {
            break;
        };
        windows.give_back(text);
        let window = match windows.next() {
            Some(Ok(window)) => window,
            Some(Err(err)) => {
                error = Some(err);
                break;
            }
            None => break,
        };
        if work.send((index, window)).is_err() {
            break;
        }
    }
    (windows.latin1_bytes(), error)
}

/// A worker: lint windows until the reading thread is done.
fn lint_windows(
    work: &Mutex<Receiver<Numbered>>,
    done: &mpsc::Sender<Done>,
    origin: &Origin,
    lint: &LintOptions,
) {
    loop {
        let next = work
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
            .recv();
        let Ok((index, window)) = next else {
            return;
        };
        let source = Source::new(origin.clone(), window.text);
        let mut cut = None;
        let checked = lint_source(&source, lint, &window.owned).map(|linted| {
            cut = cut_url_note(origin, window.base, window.last, &linted, &source);
            Checked::new(source, linted).in_frame(Frame::Text(window.base))
        });
        if done.send((index, checked, cut)).is_err() {
            // The report stopped: take what the reader still sends, unread,
            // so that it is never left waiting to hand a window over.
            drain(work);
            return;
        }
    }
}

/// Take windows until the reader is done, without linting them.
fn drain(work: &Mutex<Receiver<Numbered>>) {
    while work
        .lock()
        .unwrap_or_else(|poison| poison.into_inner())
        .recv()
        .is_ok()
    {}
}

/// Report the checked windows in order as they come, giving each one's
/// text back as a permit; stops at the first write that fails.
fn report_in_order(
    done: &Receiver<Done>,
    permits: &mpsc::SyncSender<String>,
    sink: &mut dyn Sink,
) -> io::Result<()> {
    let mut waiting = BTreeMap::new();
    let mut next = 0;
    // A checked text after the first continues the input.
    let mut started = false;
    for (index, checked, cut) in done {
        waiting.insert(index, (checked, cut));
        while let Some((checked, cut)) = waiting.remove(&next) {
            if let Some(note) = cut {
                sink.warning(note);
            }
            let text = match checked {
                Ok(checked) => {
                    let checked = checked.continuing(started);
                    sink.checked_ref(&checked)?;
                    started = true;
                    checked.into_text().unwrap_or_default()
                }
                Err(err) => {
                    sink.error(err);
                    String::new()
                }
            };
            next += 1;
            // The reader may have stopped; then no permit is wanted.
            let _ = permits.try_send(text);
        }
    }
    Ok(())
}
