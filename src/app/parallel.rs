//! Parallel work with ordered output: files are linted on several threads,
//! but reports come out in input order whatever the thread count.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Condvar, Mutex};

/// How many items per thread may be worked on ahead of the oldest result not
/// yet emitted. Without a bound, one slow early file lets the others' results
/// pile up in the reorder buffer (a whole tree's findings in memory).
const AHEAD_PER_THREAD: usize = 4;

/// How far output has got, shared by the emitter and the workers it paces.
struct Progress {
    /// Index of the next result to emit, and whether the run was stopped.
    state: Mutex<(usize, bool)>,
    /// Signalled whenever `state` changes.
    changed: Condvar,
}

impl Progress {
    /// Block until item `index` is within `window` of the output, or the run
    /// stops; true when the item may be worked on.
    fn wait_for_turn(&self, index: usize, window: usize) -> bool {
        let mut state = self
            .state
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        while !state.1 && index >= state.0 + window {
            state = self
                .changed
                .wait(state)
                .unwrap_or_else(|poison| poison.into_inner());
        }
        !state.1
    }

    /// Record that every result before `expected` is out.
    fn advance(&self, expected: usize) {
        let mut state = self
            .state
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        state.0 = expected;
        self.changed.notify_all();
    }

    /// Tell every worker to stop taking items.
    fn stop(&self) {
        let mut state = self
            .state
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        state.1 = true;
        self.changed.notify_all();
    }
}

/// Run `work` on every item using `threads` threads and pass each result to
/// `emit` in item order, as soon as every earlier result has been emitted.
///
/// Results that finish early wait in a reorder buffer, so output streams
/// while later items are still being worked on. When `emit` fails, workers
/// stop taking new items and the error is returned.
pub(super) fn for_each_ordered<T, R, E>(
    items: &[T],
    threads: usize,
    work: impl Fn(&T) -> R + Sync,
    mut emit: impl FnMut(R) -> Result<(), E>,
) -> Result<(), E>
where
    T: Sync,
    R: Send,
{
    if threads <= 1 || items.len() <= 1 {
        return items.iter().try_for_each(|item| emit(work(item)));
    }
    let next = AtomicUsize::new(0);
    let progress = Progress {
        state: Mutex::new((0, false)),
        changed: Condvar::new(),
    };
    let window = threads * AHEAD_PER_THREAD;
    let (sender, receiver) = mpsc::channel::<(usize, R)>();
    std::thread::scope(|scope| {
        for _ in 0..threads.min(items.len()) {
            let sender = sender.clone();
            let (next, progress, work) = (&next, &progress, &work);
            scope.spawn(move || loop {
                // Indices are taken in increasing order, so the oldest
                // unfinished item is always within the window: no deadlock.
                let index = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(index) else { break };
                if !progress.wait_for_turn(index, window) {
                    break;
                }
                if sender.send((index, work(item))).is_err() {
                    break;
                }
            });
        }
        // Only the workers hold senders now, so the receiver ends with them.
        drop(sender);
        let result = emit_in_order(receiver, &mut emit, &progress);
        if result.is_err() {
            progress.stop();
        }
        result
    })
}

/// Receive `(index, result)` pairs in any order and emit them by index.
fn emit_in_order<R, E>(
    receiver: mpsc::Receiver<(usize, R)>,
    emit: &mut impl FnMut(R) -> Result<(), E>,
    progress: &Progress,
) -> Result<(), E> {
    let mut pending = BTreeMap::new();
    let mut expected = 0;
    for (index, result) in receiver {
        pending.insert(index, result);
        let before = expected;
        while let Some(result) = pending.remove(&expected) {
            emit(result)?;
            expected += 1;
        }
        if expected != before {
            progress.advance(expected);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicBool;
    use std::time::Duration;

    #[test]
    fn a_slow_first_item_holds_back_how_far_others_run_ahead() {
        let items: Vec<usize> = (0..100).collect();
        let first_done = AtomicBool::new(false);
        let furthest_started = AtomicUsize::new(0);
        let result: Result<(), ()> = for_each_ordered(
            &items,
            2,
            |&item| {
                if item == 0 {
                    std::thread::sleep(Duration::from_millis(200));
                    first_done.store(true, Ordering::SeqCst);
                } else if !first_done.load(Ordering::SeqCst) {
                    furthest_started.fetch_max(item, Ordering::SeqCst);
                }
                item
            },
            |_| Ok(()),
        );
        assert!(result.is_ok());
        let furthest = furthest_started.load(Ordering::SeqCst);
        assert!(
            furthest < 2 * AHEAD_PER_THREAD,
            "item {furthest} started while item 0 was still being worked on"
        );
    }

    #[test]
    fn results_come_out_in_item_order_for_every_thread_count() {
        let items: Vec<u64> = (0..200).collect();
        for threads in [1, 2, 3, 8] {
            let mut seen = Vec::new();
            let result: Result<(), ()> = for_each_ordered(
                &items,
                threads,
                |&n| {
                    // Uneven work so that later items often finish first.
                    std::thread::sleep(std::time::Duration::from_micros((200 - n) % 7));
                    n * 2
                },
                |doubled| {
                    seen.push(doubled);
                    Ok(())
                },
            );
            assert_eq!(result, Ok(()));
            let expected: Vec<u64> = items.iter().map(|n| n * 2).collect();
            assert_eq!(seen, expected, "{threads} threads");
        }
    }

    #[test]
    fn an_emit_error_stops_the_run() {
        let items: Vec<u32> = (0..1000).collect();
        let mut emitted = 0;
        let result = for_each_ordered(
            &items,
            2,
            |&n| n,
            |n| {
                emitted += 1;
                if n == 10 {
                    Err("closed")
                } else {
                    Ok(())
                }
            },
        );
        assert_eq!(result, Err("closed"));
        assert_eq!(emitted, 11);
    }
}
