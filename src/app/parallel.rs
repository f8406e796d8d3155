//! Parallel work with ordered output: items are worked on by several
//! threads, but results come out in item order whatever the thread count.
//!
//! Workers take items in batches of consecutive items and hand each batch's
//! results over at once, so that threads meet once per batch rather than
//! once per item (a channel message and a wake-up per small file cost more
//! than reading it). The thread that emits waits only for the batch it
//! needs next, and workers wait only when they are too far ahead of it.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};

/// How many batches per thread may be worked on ahead of the oldest batch
/// not yet emitted. Without a bound, one slow early item lets the others'
/// results pile up (a whole tree's findings in memory).
const AHEAD_PER_THREAD: usize = 4;

/// The most items in one batch: enough to make the handoff rare, few
/// enough that the first results are out soon.
const MAX_BATCH_LEN: usize = 64;

/// Batches per thread a run is cut into at least, so that threads finish
/// together however uneven the items are.
const BATCHES_PER_THREAD: usize = 16;

/// How items are shared out.
#[derive(Debug, Clone, Copy)]
struct Plan {
    threads: usize,
    /// Consecutive items per batch.
    batch_len: usize,
    /// Batches that may be worked on ahead of the oldest not yet emitted.
    window: usize,
}

/// Run `work` on every item using `threads` threads and pass each result to
/// `emit` in item order, as soon as every earlier result has been emitted.
///
/// For many small items (the files of a tree): they are shared out in
/// batches. When `emit` fails, workers stop taking new items and the error
/// is returned.
pub(super) fn for_each_ordered<T, R, E>(
    items: &[T],
    threads: usize,
    work: impl Fn(&T) -> R + Sync,
    emit: impl FnMut(R) -> Result<(), E>,
) -> Result<(), E>
where
    T: Sync,
    R: Send,
{
    let batch_len = (items.len() / (threads.max(1) * BATCHES_PER_THREAD)).clamp(1, MAX_BATCH_LEN);
    let plan = Plan {
        threads,
        batch_len,
        window: threads * AHEAD_PER_THREAD,
    };
    run(items, plan, work, emit, || ())
}

/// [`for_each_ordered`] for a few large items (the parts of one large
/// file): one item at a time, and one item more than the threads work on
/// started ahead of the output, so that a thread that finishes goes on at
/// once while memory stays within a part per thread and one. `stopped` is called once no more items will be taken
/// (the run ended, an emit failed or a worker panicked), before the workers
/// are joined: work that waits on an earlier item must give up then, as
/// that item may never be worked on.
pub(super) fn for_each_ordered_large<T, R, E>(
    items: &[T],
    threads: usize,
    work: impl Fn(&T) -> R + Sync,
    emit: impl FnMut(R) -> Result<(), E>,
    stopped: impl FnOnce(),
) -> Result<(), E>
where
    T: Sync,
    R: Send,
{
    let plan = Plan {
        threads,
        batch_len: 1,
        window: threads + 1,
    };
    run(items, plan, work, emit, stopped)
}

/// Share `items` out as `plan` says, emitting results in item order on
/// this thread; `stopped` is called before the workers are joined.
fn run<T, R, E>(
    items: &[T],
    plan: Plan,
    work: impl Fn(&T) -> R + Sync,
    mut emit: impl FnMut(R) -> Result<(), E>,
    stopped: impl FnOnce(),
) -> Result<(), E>
where
    T: Sync,
    R: Send,
{
    if plan.threads <= 1 || items.len() <= 1 {
        let result = items.iter().try_for_each(|item| emit(work(item)));
        stopped();
        return result;
    }
    let batches = items.len().div_ceil(plan.batch_len);
    let handoff = Handoff::new(batches);
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..plan.threads.min(batches) {
            let (next, handoff, work) = (&next, &handoff, &work);
            scope.spawn(move || {
                let _abandon = AbandonOnPanic(handoff);
                loop {
                    // Batches are taken in increasing order, so the oldest
                    // unfinished batch is always within the window: no
                    // deadlock.
                    let batch = next.fetch_add(1, Ordering::Relaxed);
                    if batch >= batches || !handoff.wait_for_room(batch, plan.window) {
                        break;
                    }
                    let start = batch * plan.batch_len;
                    let end = (start + plan.batch_len).min(items.len());
                    let results = items[start..end].iter().map(work).collect();
                    handoff.finish(batch, results);
                }
            });
        }
        let result = emit_in_order(&handoff, batches, &mut emit);
        handoff.stop();
        stopped();
        result
    })
}

/// Emit every batch's results in order, waiting for each batch in turn.
fn emit_in_order<R, E>(
    handoff: &Handoff<R>,
    batches: usize,
    emit: &mut impl FnMut(R) -> Result<(), E>,
) -> Result<(), E> {
    for batch in 0..batches {
        // A worker that panicked left its batch unfinished; the scope
        // passes its panic on once this returns.
        let Some(results) = handoff.take(batch) else {
            return Ok(());
        };
        for result in results {
            emit(result)?;
        }
        handoff.emitted(batch + 1);
    }
    Ok(())
}

/// Where workers leave finished batches for the emitting thread.
struct Handoff<R> {
    state: Mutex<State<R>>,
    /// Batches emitted so far, readable without the lock.
    emitted: AtomicUsize,
    /// The run was stopped: an emit failed, or a worker panicked.
    stopped: AtomicBool,
    /// The emitting thread waits here for the batch it needs next.
    ready: Condvar,
    /// Workers wait here for room ahead of the output.
    room: Condvar,
}

/// What the threads share under the lock.
struct State<R> {
    /// Finished batches not yet emitted, by batch number.
    finished: Vec<Option<Vec<R>>>,
    /// Batches emitted so far.
    emitted: usize,
    /// The emitting thread is waiting for batch `emitted`.
    emitter_waiting: bool,
    /// Workers waiting for room.
    workers_waiting: usize,
    /// A worker panicked: its batch will never be finished.
    abandoned: bool,
}

impl<R> Handoff<R> {
    fn new(batches: usize) -> Self {
        Handoff {
            state: Mutex::new(State {
                finished: (0..batches).map(|_| None).collect(),
                emitted: 0,
                emitter_waiting: false,
                workers_waiting: 0,
                abandoned: false,
            }),
            emitted: AtomicUsize::new(0),
            stopped: AtomicBool::new(false),
            ready: Condvar::new(),
            room: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State<R>> {
        self.state
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
    }

    /// Block until `batch` is within `window` batches of the output, or the
    /// run stops; true when the batch may be worked on. Takes no lock while
    /// there is room.
    fn wait_for_room(&self, batch: usize, window: usize) -> bool {
        if batch < self.emitted.load(Ordering::Acquire) + window {
            return !self.stopped.load(Ordering::Acquire);
        }
        let mut state = self.lock();
        while !self.stopped.load(Ordering::Acquire) && batch >= state.emitted + window {
            state.workers_waiting += 1;
            state = self
                .room
                .wait(state)
                .unwrap_or_else(|poison| poison.into_inner());
            state.workers_waiting -= 1;
        }
        !self.stopped.load(Ordering::Acquire)
    }

    /// Leave the results of `batch`, waking the emitting thread only when it
    /// waits for this very batch.
    fn finish(&self, batch: usize, results: Vec<R>) {
        let mut state = self.lock();
        state.finished[batch] = Some(results);
        if state.emitter_waiting && batch == state.emitted {
            self.ready.notify_one();
        }
    }

    /// Wait for the results of `batch` and take them; `None` when a worker
    /// panicked before finishing it.
    fn take(&self, batch: usize) -> Option<Vec<R>> {
        let mut state = self.lock();
        loop {
            if let Some(results) = state.finished[batch].take() {
                state.emitter_waiting = false;
                return Some(results);
            }
            if state.abandoned {
                return None;
            }
            state.emitter_waiting = true;
            state = self
                .ready
                .wait(state)
                .unwrap_or_else(|poison| poison.into_inner());
        }
    }

    /// Record that the first `batches` batches are out, waking workers only
    /// when some wait for room.
    fn emitted(&self, batches: usize) {
        self.emitted.store(batches, Ordering::Release);
        let mut state = self.lock();
        state.emitted = batches;
        if state.workers_waiting > 0 {
            self.room.notify_all();
        }
    }

    /// Tell every worker to stop taking batches.
    fn stop(&self) {
        self.stopped.store(true, Ordering::Release);
        let _state = self.lock();
        self.room.notify_all();
    }
}

/// Stops the run when a worker panics, so that the emitting thread does not
/// wait for a batch that will never come.
struct AbandonOnPanic<'h, R>(&'h Handoff<R>);

impl<R> Drop for AbandonOnPanic<'_, R> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.stopped.store(true, Ordering::Release);
            let mut state = self.0.lock();
            state.abandoned = true;
            self.0.ready.notify_all();
            self.0.room.notify_all();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_slow_first_item_holds_back_how_far_others_run_ahead() {
        let items: Vec<usize> = (0..5000).collect();
        let first_done = AtomicBool::new(false);
        let furthest_started = AtomicUsize::new(0);
        let threads = 2;
        let batch_len = (items.len() / (threads * BATCHES_PER_THREAD)).clamp(1, MAX_BATCH_LEN);
        let result: Result<(), ()> = for_each_ordered(
            &items,
            threads,
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
            furthest < threads * AHEAD_PER_THREAD * batch_len,
            "item {furthest} started while item 0 was still being worked on"
        );
    }

    #[test]
    fn results_come_out_in_item_order_for_every_thread_count_and_size() {
        for len in [0, 1, 2, 7, 200, 3000] {
            let items: Vec<u64> = (0..len).collect();
            for threads in [1, 2, 3, 8] {
                for large in [false, true] {
                    let mut seen = Vec::new();
                    // Uneven work so that later items often finish first.
                    let work = |&n: &u64| {
                        std::thread::sleep(Duration::from_micros((200 - n % 200) % 7));
                        n * 2
                    };
                    let emit = |doubled| {
                        seen.push(doubled);
                        Ok::<(), ()>(())
                    };
                    let result = if large {
                        for_each_ordered_large(&items, threads, work, emit, || ())
                    } else {
                        for_each_ordered(&items, threads, work, emit)
                    };
                    assert_eq!(result, Ok(()));
                    let expected: Vec<u64> = items.iter().map(|n| n * 2).collect();
                    assert_eq!(seen, expected, "{len} items, {threads} threads");
                }
            }
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

    #[test]
    fn work_waiting_on_an_earlier_item_is_released_when_an_emit_fails() {
        // Each item waits for the one before it, as an mbox slice waits for
        // where the slice before it starts. The first emit fails, so a
        // later item's predecessor may never be taken: without the stop
        // hook that wait would never end.
        let items: Vec<usize> = (0..64).collect();
        let state = Mutex::new((vec![false; items.len()], false));
        let changed = Condvar::new();
        let lock = || state.lock().unwrap_or_else(|poison| poison.into_inner());
        let result = for_each_ordered_large(
            &items,
            4,
            |&item| {
                let mut state = lock();
                while item > 0 && !state.0[item - 1] && !state.1 {
                    state = changed
                        .wait(state)
                        .unwrap_or_else(|poison| poison.into_inner());
                }
                state.0[item] = true;
                changed.notify_all();
                item
            },
            |_| Err("closed"),
            || {
                lock().1 = true;
                changed.notify_all();
            },
        );
        assert_eq!(result, Err("closed"));
    }

    #[test]
    fn a_panicking_worker_does_not_leave_the_emitter_waiting() {
        let items: Vec<u32> = (0..300).collect();
        let run = std::panic::catch_unwind(|| {
            for_each_ordered(
                &items,
                2,
                |&n| {
                    assert!(n != 150, "worker panics on item 150");
                    n
                },
                |_| Ok::<(), ()>(()),
            )
        });
        assert!(run.is_err(), "the worker's panic is passed on");
    }
}
