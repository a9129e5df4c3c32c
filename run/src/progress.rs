//! The progress line `pto-run` shows on standard error while a program
//! runs: elapsed time and the ops executed so far (every thread's), redrawn
//! in place ten times a second once the run has taken half a second, and a
//! closing summary. Shown when standard error is a terminal (or with
//! `--progress`), never with `--quiet`.

use std::{
    io::Write,
    sync::{
        Arc,
        atomic::{AtomicBool, AtomicU64, Ordering},
    },
    thread,
    time::{Duration, Instant},
};

/// How long a run goes before its progress is drawn.
const QUIET_START: Duration = Duration::from_millis(500);
/// How often the line is redrawn.
const REDRAW: Duration = Duration::from_millis(100);

/// A count as text: 1234 -> "1234", 12345678 -> "12.3 M".
fn count(n: u64) -> String {
    match n {
        0..10_000 => n.to_string(),
        10_000..1_000_000 => format!("{:.1} k", n as f64 / 1e3),
        1_000_000..1_000_000_000 => format!("{:.1} M", n as f64 / 1e6),
        _ => format!("{:.1} G", n as f64 / 1e9),
    }
}

/// Ops per second as text.
fn rate(elapsed: Duration, ops: u64) -> String {
    let seconds = elapsed.as_secs_f64();
    count(if seconds > 0.0 {
        (ops as f64 / seconds) as u64
    } else {
        0
    })
}

/// The progress line (no newline).
fn line(entry: &str, elapsed: Duration, ops: u64) -> String {
    format!(
        "pto-run: @{entry}: {:.1} s, {} ops ({}/s)",
        elapsed.as_secs_f64(),
        count(ops),
        rate(elapsed, ops)
    )
}

/// The closing line.
fn summary(entry: &str, elapsed: Duration, ops: u64) -> String {
    format!(
        "pto-run: @{entry} ran {} ops in {:.1} s ({}/s)",
        count(ops),
        elapsed.as_secs_f64(),
        rate(elapsed, ops)
    )
}

/// Runs `work` while drawing its progress (when `shown`), counting its ops
/// in `ops`.
pub fn with_progress<T>(
    entry: &str,
    shown: bool,
    ops: Arc<AtomicU64>,
    work: impl FnOnce() -> T,
) -> T {
    if !shown {
        return work();
    }
    let start = Instant::now();
    let done = AtomicBool::new(false);
    let (result, drawn) = thread::scope(|scope| {
        let painter = scope.spawn(|| {
            let mut drawn = false;
            while !done.load(Ordering::Acquire) {
                thread::park_timeout(REDRAW);
                let elapsed = start.elapsed();
                if elapsed >= QUIET_START && !done.load(Ordering::Acquire) {
                    // \r and an erase-line redraw the line in place.
                    let mut stderr = std::io::stderr().lock();
                    let _ = write!(
                        stderr,
                        "\r\x1b[2K{}",
                        line(entry, elapsed, ops.load(Ordering::Relaxed))
                    );
                    let _ = stderr.flush();
                    drawn = true;
                }
            }
            drawn
        });
        let result = work();
        done.store(true, Ordering::Release);
        painter.thread().unpark();
        (result, painter.join().unwrap_or(false))
    });
    let mut stderr = std::io::stderr().lock();
    if drawn {
        let _ = write!(stderr, "\r\x1b[2K");
    }
    let _ = writeln!(
        stderr,
        "{}",
        summary(entry, start.elapsed(), ops.load(Ordering::Relaxed))
    );
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_read_as_people_write_them() {
        assert_eq!(count(9_999), "9999");
        assert_eq!(count(12_345), "12.3 k");
        assert_eq!(count(27_000_000), "27.0 M");
        assert_eq!(count(3_500_000_000), "3.5 G");
    }

    #[test]
    fn a_line_has_time_ops_and_rate() {
        assert_eq!(
            line("main", Duration::from_secs(2), 4_000_000),
            "pto-run: @main: 2.0 s, 4.0 M ops (2.0 M/s)"
        );
        assert_eq!(
            summary("main", Duration::from_millis(500), 1_000),
            "pto-run: @main ran 1000 ops in 0.5 s (2000/s)"
        );
    }
}
