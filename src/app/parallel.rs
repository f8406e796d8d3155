//! Parallel work with ordered output: items are worked on by several
//! threads, but results come out in item order whatever the thread count.
//!
//! Items come from a feed, which may still be finding them (a directory
//! walk) while workers read the first ones. Workers take items in batches
//! of consecutive items and hand each batch's results over at once, so
//! that threads meet once per batch rather than once per item (a channel
//! message and a wake-up per small file cost more than reading it). The
//! thread that emits waits only for the batch it needs next, and workers
//! wait only when they are too far ahead of it or ahead of the feed.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};

/// How many batches per thread may be worked on ahead of the oldest batch
/// not yet emitted. Without a bound, one slow early item lets the others'
/// results pile up (a whole tree's findings in memory).
const AHEAD_PER_THREAD: usize = 4;

/// The most items in one batch: enough to make the handoff rare, few
/// enough that the first results are out soon and that threads finish
/// together.
const MAX_BATCH_LEN: usize = 64;

/// A feed: it hands each item to the function it is given, in order, and
/// stops when that function breaks.
pub(super) type Push<'p, T> = &'p mut dyn FnMut(T) -> ControlFlow<()>;

/// How items are shared out.
#[derive(Debug, Clone, Copy)]
struct Plan {
    threads: usize,
    /// The most consecutive items per batch.
    max_batch_len: usize,
    /// Batches that may be worked on ahead of the oldest not yet emitted.
    window: usize,
}

impl Plan {
    /// The plan for many small items on `threads` threads.
    fn for_many(threads: usize) -> Plan {
        Plan {
            threads,
            max_batch_len: MAX_BATCH_LEN,
            window: threads * AHEAD_PER_THREAD,
        }
    }

    /// How many items batch `batch` holds (the last may hold fewer): the
    /// first batches are short, so that every thread has work as soon as
    /// the feed has found a few items, and the length doubles up to
    /// `max_batch_len`.
    fn batch_len(&self, batch: usize) -> usize {
        let doubled = u32::try_from(batch)
            .ok()
            .and_then(|batch| 1usize.checked_shl(batch))
            .unwrap_or(usize::MAX);
        doubled.min(self.max_batch_len)
    }
}

/// Run `work` on every item `feed` pushes, using `threads` threads, and
/// pass each result to `emit` in item order, as soon as every earlier
/// result has been emitted.
///
/// For many small items (the files of a tree), found while they are
/// worked on: they are shared out in batches, and `feed` runs on a thread
/// of its own. When `emit` fails, the feed is stopped, workers stop taking
/// new items and the error is returned.
pub(super) fn for_each_ordered<T, R, E>(
    threads: usize,
    feed: impl FnOnce(Push<'_, T>) -> ControlFlow<()> + Send,
    work: impl Fn(T) -> R + Sync,
    emit: impl FnMut(R) -> Result<(), E>,
) -> Result<(), E>
where
    T: Send,
    R: Send,
{
    run(feed, Plan::for_many(threads), work, emit, || ())
}

/// [`for_each_ordered`] for a few large items (the parts of one large
/// file): one item at a time, and one item more than the threads work on
/// started ahead of the output, so that a thread that finishes goes on at
/// once while memory stays within a part per thread and one. `stopped` is called once no more items will be taken
/// (the run ended, an emit failed or a worker panicked), before the workers
/// are joined: work that waits on an earlier item must give up then, as
/// that item may never be worked on.
pub(super) fn for_each_ordered_large<'i, T, R, E>(
    items: &'i [T],
    threads: usize,
    work: impl Fn(&T) -> R + Sync,
    emit: impl FnMut(R) -> Result<(), E>,
    stopped: impl FnOnce(),
) -> Result<(), E>
where
    T: Sync,
    R: Send,
{
    let threads = if items.len() <= 1 { 1 } else { threads };
    let plan = Plan {
        threads,
        max_batch_len: 1,
        window: threads + 1,
    };
    let feed = |push: Push<'_, &'i T>| items.iter().try_for_each(push);
    run(feed, plan, work, emit, stopped)
}

/// Share out the items `feed` pushes as `plan` says, emitting results in
/// item order on this thread; `stopped` is called before the workers are
/// joined. With one thread, each item is worked on and emitted as it is
/// pushed.
fn run<T, R, E>(
    feed: impl FnOnce(Push<'_, T>) -> ControlFlow<()> + Send,
    plan: Plan,
    work: impl Fn(T) -> R + Sync,
    mut emit: impl FnMut(R) -> Result<(), E>,
    stopped: impl FnOnce(),
) -> Result<(), E>
where
    T: Send,
    R: Send,
{
    if plan.threads <= 1 {
        let mut result = Ok(());
        let _ = feed(&mut |item| {
            result = emit(work(item));
            match result {
                Ok(()) => ControlFlow::Continue(()),
                Err(_) => ControlFlow::Break(()),
            }
        });
        stopped();
        return result;
    }
    let handoff = Handoff::new();
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        let feeding = &handoff;
        scope.spawn(move || {
            let _abandon = AbandonOnPanic(feeding);
            feeding.feed(feed, plan);
        });
        for _ in 0..plan.threads {
            let (next, handoff, work) = (&next, &handoff, &work);
            scope.spawn(move || {
                let _abandon = AbandonOnPanic(handoff);
                loop {
                    // Batches are taken in increasing order, so the oldest
                    // unfinished batch is always within the window, and the
                    // feed never waits: no deadlock.
                    let batch = next.fetch_add(1, Ordering::Relaxed);
                    if !handoff.wait_for_room(batch, plan.window) {
                        break;
                    }
                    let Some(items) = handoff.items(batch) else {
                        break;
                    };
                    let results = items.into_iter().map(work).collect();
                    handoff.finish(batch, results);
                }
            });
        }
        let result = emit_in_order(&handoff, &mut emit);
        handoff.stop();
        stopped();
        result
    })
}

/// Emit every batch's results in order, waiting for each batch in turn,
/// until the feed has ended and its last batch is out.
fn emit_in_order<T, R, E>(
    handoff: &Handoff<T, R>,
    emit: &mut impl FnMut(R) -> Result<(), E>,
) -> Result<(), E> {
    // A worker that panicked left its batch unfinished; the scope passes
    // its panic on once this returns.
    for batch in 0.. {
        let Some(results) = handoff.take(batch) else {
            break;
        };
        for result in results {
            emit(result)?;
        }
        handoff.emitted(batch + 1);
    }
    Ok(())
}

/// Where the feed leaves batches of items for workers, and workers leave
/// finished batches for the emitting thread.
struct Handoff<T, R> {
    state: Mutex<State<T, R>>,
    /// Batches emitted so far, readable without the lock.
    emitted: AtomicUsize,
    /// The run was stopped: an emit failed, or a thread panicked.
    stopped: AtomicBool,
    /// The emitting thread waits here for the batch it needs next.
    ready: Condvar,
    /// Workers wait here for room ahead of the output.
    room: Condvar,
    /// Workers wait here for the feed to fill their batch.
    fed: Condvar,
}

/// What the threads share under the lock.
struct State<T, R> {
    /// Batches fed and not yet taken by a worker, by batch number.
    batches: Vec<Option<Vec<T>>>,
    /// The feed has ended: no batch comes after those in `batches`.
    fed_all: bool,
    /// Workers waiting for the feed.
    workers_starving: usize,
    /// Finished batches not yet emitted, by batch number.
    finished: Vec<Option<Vec<R>>>,
    /// Batches emitted so far.
    emitted: usize,
    /// The emitting thread is waiting for batch `emitted`.
    emitter_waiting: bool,
    /// Workers waiting for room.
    workers_waiting: usize,
    /// A thread panicked: a batch may never be fed or finished.
    abandoned: bool,
}

impl<T, R> Handoff<T, R> {
    fn new() -> Self {
        Handoff {
            state: Mutex::new(State {
                batches: Vec::new(),
                fed_all: false,
                workers_starving: 0,
                finished: Vec::new(),
                emitted: 0,
                emitter_waiting: false,
                workers_waiting: 0,
                abandoned: false,
            }),
            emitted: AtomicUsize::new(0),
            stopped: AtomicBool::new(false),
            ready: Condvar::new(),
            room: Condvar::new(),
            fed: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State<T, R>> {
        self.state
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
    }

    /// Run `feed`, cutting what it pushes into batches as `plan` says,
    /// until it ends or the run stops.
    fn feed(&self, feed: impl FnOnce(Push<'_, T>) -> ControlFlow<()>, plan: Plan) {
        let mut batch = Vec::new();
        let mut published = 0;
        let _ = feed(&mut |item| {
            batch.push(item);
            if batch.len() == plan.batch_len(published) {
                self.publish(std::mem::take(&mut batch));
                published += 1;
            }
            if self.stopped.load(Ordering::Acquire) {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        if !batch.is_empty() {
            self.publish(batch);
        }
        let mut state = self.lock();
        state.fed_all = true;
        self.fed.notify_all();
        self.ready.notify_one();
    }

    /// Leave the next batch of items, waking the workers waiting for it.
    fn publish(&self, items: Vec<T>) {
        let mut state = self.lock();
        state.batches.push(Some(items));
        if state.workers_starving > 0 {
            self.fed.notify_all();
        }
    }

    /// Wait for the items of `batch` and take them; `None` when the feed
    /// ended before it, or the run stopped.
    fn items(&self, batch: usize) -> Option<Vec<T>> {
        let mut state = self.lock();
        loop {
            if self.stopped.load(Ordering::Acquire) {
                return None;
            }
            if let Some(items) = state.batches.get_mut(batch) {
                return items.take();
            }
            if state.fed_all {
                return None;
            }
            state.workers_starving += 1;
            state = self
                .fed
                .wait(state)
                .unwrap_or_else(|poison| poison.into_inner());
            state.workers_starving -= 1;
        }
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
        if state.finished.len() <= batch {
            state.finished.resize_with(batch + 1, || None);
        }
        state.finished[batch] = Some(results);
        if state.emitter_waiting && batch == state.emitted {
            self.ready.notify_one();
        }
    }

    /// Wait for the results of `batch` and take them; `None` when the feed
    /// ended before it, or a thread panicked before finishing it.
    fn take(&self, batch: usize) -> Option<Vec<R>> {
        let mut state = self.lock();
        loop {
            if let Some(results) = state.finished.get_mut(batch).and_then(Option::take) {
                state.emitter_waiting = false;
                return Some(results);
            }
            if state.abandoned || (state.fed_all && batch >= state.batches.len()) {
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

    /// Tell the feed and every worker to stop.
    fn stop(&self) {
        self.stopped.store(true, Ordering::Release);
        let _state = self.lock();
        self.room.notify_all();
        self.fed.notify_all();
    }
}

/// Stops the run when a feed or a worker panics, so that no thread waits
/// for a batch that will never come.
struct AbandonOnPanic<'h, T, R>(&'h Handoff<T, R>);

impl<T, R> Drop for AbandonOnPanic<'_, T, R> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.stopped.store(true, Ordering::Release);
            let mut state = self.0.lock();
            state.abandoned = true;
            self.0.ready.notify_all();
            self.0.room.notify_all();
            self.0.fed.notify_all();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// A feed of `items`, pushed in order.
    fn fed<T: Copy + Send + Sync>(
        items: &[T],
    ) -> impl FnOnce(Push<'_, T>) -> ControlFlow<()> + Send + '_ {
        |push| items.iter().try_for_each(|&item| push(item))
    }

    #[test]
    fn a_slow_first_item_holds_back_how_far_others_run_ahead() {
        let items: Vec<usize> = (0..5000).collect();
        let first_done = AtomicBool::new(false);
        let furthest_started = AtomicUsize::new(0);
        let threads = 2;
        let result: Result<(), ()> = for_each_ordered(
            threads,
            fed(&items),
            |item| {
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
        let plan = Plan::for_many(threads);
        let within_window: usize = (0..plan.window).map(|batch| plan.batch_len(batch)).sum();
        let furthest = furthest_started.load(Ordering::SeqCst);
        assert!(
            furthest < within_window,
            "item {furthest} started while item 0 was still being worked on"
        );
    }

    #[test]
    fn batches_start_short_and_double() {
        let plan = Plan {
            threads: 2,
            max_batch_len: 64,
            window: 8,
        };
        let lens: Vec<usize> = (0..9).map(|batch| plan.batch_len(batch)).collect();
        assert_eq!(lens, [1, 2, 4, 8, 16, 32, 64, 64, 64]);
        assert_eq!(plan.batch_len(usize::MAX), 64);
    }

    #[test]
    fn results_come_out_in_item_order_for_every_thread_count_and_size() {
        for len in [0, 1, 2, 7, 200, 3000] {
            let items: Vec<u64> = (0..len).collect();
            for threads in [1, 2, 3, 8] {
                for large in [false, true] {
                    let mut seen = Vec::new();
                    // Uneven work so that later items often finish first.
                    let work = |n: u64| {
                        std::thread::sleep(Duration::from_micros((200 - n % 200) % 7));
                        n * 2
                    };
                    let emit = |doubled| {
                        seen.push(doubled);
                        Ok::<(), ()>(())
                    };
                    let result = if large {
                        for_each_ordered_large(&items, threads, |&n| work(n), emit, || ())
                    } else {
                        for_each_ordered(threads, fed(&items), work, emit)
                    };
                    assert_eq!(result, Ok(()));
                    let expected: Vec<u64> = items.iter().map(|n| n * 2).collect();
                    assert_eq!(seen, expected, "{len} items, {threads} threads");
                }
            }
        }
    }

    #[test]
    fn a_slow_feed_is_worked_on_as_it_comes() {
        let items: Vec<u32> = (0..100).collect();
        let mut seen = Vec::new();
        let result = for_each_ordered(
            2,
            |push: Push<'_, u32>| {
                items.iter().try_for_each(|&item| {
                    if item % 10 == 0 {
                        std::thread::sleep(Duration::from_millis(1));
                    }
                    push(item)
                })
            },
            |n| n + 1,
            |n| {
                seen.push(n);
                Ok::<(), ()>(())
            },
        );
        assert_eq!(result, Ok(()));
        assert_eq!(seen, (1..=100).collect::<Vec<u32>>());
    }

    #[test]
    fn an_emit_error_stops_the_run_and_its_feed() {
        for threads in [1, 2] {
            let mut emitted = 0;
            // A feed that never ends unless it is stopped.
            let result = for_each_ordered(
                threads,
                |push: Push<'_, u32>| (0..).try_for_each(push),
                |n| n,
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
                2,
                fed(&items),
                |n| {
                    assert!(n != 150, "worker panics on item 150");
                    n
                },
                |_| Ok::<(), ()>(()),
            )
        });
        assert!(run.is_err(), "the worker's panic is passed on");
    }
}
