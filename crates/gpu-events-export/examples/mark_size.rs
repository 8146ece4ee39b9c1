//! Measures the memory of the deduplication watermarks per mark (BENCHMARKS.md, "Exporter
//! memory"): the marks' steady-state memory is bytes per mark × marks, and marks = new events
//! per second × `markTtl`. Reads the process's resident memory (Linux `/proc/self/status`)
//! before and after building `N` marks, so malloc's overhead and the table's growth are in it.
//!
//! ```sh
//! cargo run --release -p gpu-events-export --example mark_size -- 360000
//! ```

use std::num::NonZeroUsize;

use chrono::Utc;
use gpu_events_export::dedupe::{EventId, Mark, Watermarks};

/// Resident memory in bytes (0 where `/proc` is not there).
fn rss() -> usize {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let kb = status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse::<usize>().ok())
        .unwrap_or(0);
    kb * 1024
}

fn main() {
    let n: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(360_000);
    let now = Utc::now();
    let mark = Mark { count: 3, exported_at: now, last_seen: Some(now) };
    let ids: Vec<EventId> = (0..n).map(|i| EventId::from_uid(&format!("00000000-0000-4000-8000-{i:012}"))).collect();
    let before = rss();
    let mut marks = Watermarks::new(NonZeroUsize::new(500_000).unwrap_or(NonZeroUsize::MIN));
    marks.restore(ids.iter().map(|id| (*id, mark)));
    let held = rss().saturating_sub(before);
    let before_snapshot = rss();
    let snapshot = marks.snapshot();
    let snapshot_bytes = rss().saturating_sub(before_snapshot);
    println!(
        "{n} marks: {held} bytes resident, {:.1} bytes per mark; a checkpoint's snapshot adds {snapshot_bytes} bytes ({:.1} per mark) while it is written",
        held as f64 / n as f64,
        snapshot_bytes as f64 / n as f64,
    );
    drop(snapshot);
    drop(marks);
}
