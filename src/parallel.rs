//! Parallel work with ordered output: files are linted on several threads,
//! but reports come out in input order whatever the thread count.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

/// Run `work` on every item using `threads` threads and pass each result to
/// `emit` in item order, as soon as every earlier result has been emitted.
///
/// Results that finish early wait in a reorder buffer, so output streams
/// while later items are still being worked on. When `emit` fails, workers
/// stop taking new items and the error is returned.
pub fn for_each_ordered<T, R, E>(
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
    let stop = AtomicBool::new(false);
    let (sender, receiver) = mpsc::channel::<(usize, R)>();
    std::thread::scope(|scope| {
        for _ in 0..threads.min(items.len()) {
            let sender = sender.clone();
            let (next, stop, work) = (&next, &stop, &work);
            scope.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(index) else { break };
                    if sender.send((index, work(item))).is_err() {
                        break;
                    }
                }
            });
        }
        // Only the workers hold senders now, so the receiver ends with them.
        drop(sender);
        let result = emit_in_order(receiver, &mut emit);
        if result.is_err() {
            stop.store(true, Ordering::Relaxed);
        }
        result
    })
}

/// Receive `(index, result)` pairs in any order and emit them by index.
fn emit_in_order<R, E>(
    receiver: mpsc::Receiver<(usize, R)>,
    emit: &mut impl FnMut(R) -> Result<(), E>,
) -> Result<(), E> {
    let mut pending = BTreeMap::new();
    let mut expected = 0;
    for (index, result) in receiver {
        pending.insert(index, result);
        while let Some(result) = pending.remove(&expected) {
            emit(result)?;
            expected += 1;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

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
