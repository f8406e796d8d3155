//! `urlint server`: the Language Server Protocol over stdio, so that an
//! editor shows urlint's findings as the user types.
//!
//! The server is synchronous, on threads and channels (as rust-analyzer's
//! `lsp-server` runs it): a reader and a writer thread frame messages on
//! stdin and stdout (`transport`, which no client can crash), the session's loop handles them (`session`), and a
//! worker thread lints (`worker`), so that no document, however large,
//! keeps the loop from answering. A document is read as the command line
//! reads the file it is (`analysis`), with the configuration the command
//! line would find from the workspace root (`settings`); positions are
//! counted in the encoding the client negotiated (`position`).
//!
//! What the client gets: diagnostics on open, change and save
//! (`diagnostics`), hover on a URL (`hover`), and code actions: fixes,
//! fix-all and suppression comments (`actions`, `fixes`, `comments`,
//! `edit`). Nothing is ever
//! written to stdout but protocol messages: the server logs to stderr,
//! which clients keep in their server log, and shows the user only what
//! needs acting on (a configuration that does not read).

mod actions;
mod analysis;
mod comments;
mod diagnostics;
mod document;
mod edit;
mod fixes;
mod hover;
mod position;
mod session;
mod settings;
mod transport;
mod uri;
mod worker;

pub(crate) use session::{Ended, ServerError};
pub(crate) use transport::DEFAULT_MAX_MESSAGE_BYTES;

/// Serve one client over stdin and stdout until it says `exit`, refusing
/// messages over `max_message_bytes`.
pub(crate) fn run(max_message_bytes: usize) -> Result<Ended, ServerError> {
    return_freed_memory_at_once();
    let (connection, io_threads) = transport::stdio(max_message_bytes)?;
    let ended = session::serve(&connection);
    // The writer thread ends, its last message written, once the sender is
    // dropped; the reader has ended when `exit` was read or the client's
    // end closed, and its error (a malformed message) says more than the
    // closed connection it left behind.
    drop(connection);
    match ended {
        Ok(_) | Err(ServerError::Disconnected) => {
            io_threads.join()?;
            ended
        }
        Err(_) => ended,
    }
}

/// Ask the command's allocator (mimalloc, src/main.rs) to give memory back
/// to the system as soon as it is freed. By default it waits 10 ms and then
/// purges only on a later allocation, which a server idle between edits
/// does not make: the buffers of a large document's last reading stayed
/// resident (120 MB for a 17 MB document, 73 MB with immediate purging;
/// docs/benchmarks.md). Setting the option of a mimalloc that is not the
/// global allocator changes nothing; a delay the user set
/// (`MIMALLOC_PURGE_DELAY`) is theirs and is kept.
fn return_freed_memory_at_once() {
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_some() {
        return;
    }
    // `mi_option_purge_delay` in mimalloc v2's `mimalloc.h`, which the
    // bindings do not name: the option after `mi_option_eager_commit_delay`.
    const PURGE_DELAY: libmimalloc_sys::mi_option_t =
        libmimalloc_sys::mi_option_eager_commit_delay + 1;
    // SAFETY: setting an option takes no pointer; mimalloc's option setters
    // are not made for races, and this runs before the server starts its
    // reading, writing and linting threads.
    unsafe { libmimalloc_sys::mi_option_set(PURGE_DELAY, 0) }
}
