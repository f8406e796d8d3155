//! A progress line on stderr for long reads: bytes read out of the total,
//! redrawn at most ten times a second, erased when the input is done.
//!
//! The caller decides whether to show it (stderr is a terminal); it draws
//! nothing during its first half second, so quick inputs never flicker.

use std::io::{self, Read, Write};
use std::time::{Duration, Instant};

/// Time between two redraws.
const REDRAW_EVERY: Duration = Duration::from_millis(100);

/// Time before the first draw.
const FIRST_DRAW_AFTER: Duration = Duration::from_millis(500);

/// A reader that reports how far it got.
pub(super) struct Progress<R> {
    inner: R,
    name: String,
    total: Option<u64>,
    read: u64,
    started: Instant,
    last_draw: Option<Instant>,
}

impl<R: Read> Progress<R> {
    /// Report on reading `inner`, the input called `name` of `total` bytes
    /// (unknown for stdin).
    pub(super) fn new(inner: R, name: String, total: Option<u64>) -> Self {
        Progress {
            inner,
            name,
            total,
            read: 0,
            started: Instant::now(),
            last_draw: None,
        }
    }

    /// Count `bytes` more read by other means (parts of a file read on
    /// other threads), redrawing when enough time has passed.
    pub(super) fn advance(&mut self, bytes: u64) {
        self.read += bytes;
        self.tick();
    }

    /// Redraw when enough time has passed.
    fn tick(&mut self) {
        let now = Instant::now();
        let due = match self.last_draw {
            Some(last) => now.duration_since(last) >= REDRAW_EVERY,
            None => now.duration_since(self.started) >= FIRST_DRAW_AFTER,
        };
        if due {
            self.last_draw = Some(now);
            let line = status_line(&self.name, self.read, self.total);
            // Progress is a courtesy: a stderr that cannot be written must
            // not stop the run.
            let _ = write!(io::stderr().lock(), "\r\x1b[K{line}");
        }
    }
}

impl<R> Progress<R> {
    /// Erase the progress line, if one was drawn.
    fn clear(&mut self) {
        if self.last_draw.take().is_some() {
            let _ = write!(io::stderr().lock(), "\r\x1b[K");
        }
    }
}

impl<R: Read> Read for Progress<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let read = self.inner.read(buf)?;
        self.read += read as u64;
        if read == 0 {
            self.clear();
        } else {
            self.tick();
        }
        Ok(read)
    }
}

impl<R> Drop for Progress<R> {
    fn drop(&mut self) {
        self.clear();
    }
}

/// `urlint: NAME: 120.0 MiB / 2.0 GiB (6%)`, or without the total.
fn status_line(name: &str, read: u64, total: Option<u64>) -> String {
    match total {
        Some(total) if total > 0 => format!(
            "urlint: {name}: {} / {} ({}%)",
            size(read),
            size(total),
            read.saturating_mul(100) / total
        ),
        _ => format!("urlint: {name}: {}", size(read)),
    }
}

/// A byte count in binary units with one decimal.
fn size(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes as f64;
    let mut unit = "B";
    for name in UNITS {
        if value < 1024.0 {
            break;
        }
        value /= 1024.0;
        unit = name;
    }
    if unit == "B" {
        format!("{bytes} B")
    } else {
        format!("{value:.1} {unit}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_lines_name_the_input_and_the_share_read() {
        let cases = [
            (512, Some(2048), "urlint: a.mbox: 512 B / 2.0 KiB (25%)"),
            (
                3 << 30,
                Some(4 << 30),
                "urlint: a.mbox: 3.0 GiB / 4.0 GiB (75%)",
            ),
            (5 << 20, None, "urlint: a.mbox: 5.0 MiB"),
            (0, Some(0), "urlint: a.mbox: 0 B"),
        ];
        for (read, total, expected) in cases {
            assert_eq!(status_line("a.mbox", read, total), expected);
        }
    }

    #[test]
    fn reading_passes_bytes_through_unchanged() {
        let mut reader = Progress::new(&b"hello"[..], "x".into(), Some(5));
        let mut text = String::new();
        reader.read_to_string(&mut text).expect("memory");
        assert_eq!((text.as_str(), reader.read), ("hello", 5));
    }
}
