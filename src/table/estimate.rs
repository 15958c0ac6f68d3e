//! How long building pruning tables will take, said before a large build starts: the
//! size, a rough duration from a calibrated rate, and a smaller `--memory` that would
//! build quicker (at the price of weaker pruning, so slower searches).
//!
//! The rate is calibrated, not measured on the spot: a breadth-first build touches
//! every entry a few times per depth. `BENCHMARKS.md`'s random-state 3x3x3 under
//! `--memory 8G` builds 2.8 G entries (88 M corner entries and two 1.36 G edge tables) in
//! 2.5 minutes on two idle cores, about [`ENTRIES_PER_SECOND_PER_THREAD`] entries per
//! second per thread; a busy machine is slower. That is the precision the notice
//! promises ("roughly").

use super::plan::{self, PlannedTable};
use super::prune::Format;
use crate::progress::{format_bytes, format_count, format_duration};
use crate::puzzle::Puzzle;
use std::time::Duration;

/// Entries a pruning table build fills per second on one thread (calibrated in a
/// release build on the 3x3x3's tables; see the module documentation).
pub const ENTRIES_PER_SECOND_PER_THREAD: f64 = 9e6;

/// Tables (pruning and move tables) with this many entries or more still to build (about
/// 2 s on two threads) wait for a trial search in smaller tables
/// ([`super::Tables::trial_budget`]); smaller builds cost less than deciding about them.
pub const TRIAL_FROM: u64 = 1 << 25;

/// How many entries of building the trial search may spend one node against: a build
/// fills about 9 M entries a second per thread ([`ENTRIES_PER_SECOND_PER_THREAD`]) and a
/// search in small tables makes 3 to 10 M nodes, so a trial that gives up has spent
/// at most about half the build's time, usually far less (it stops before a bound it
/// projects past its budget).
pub const ENTRIES_PER_TRIAL_NODE: u64 = 8;

/// Builds storing more than this many bytes are announced before they start.
pub const ANNOUNCE_FROM: u64 = 1 << 30;

/// Smaller budgets offered in the notice, largest first.
const SMALLER_BUDGETS: [(u64, &str); 3] =
    [(1 << 30, "1G"), (512 << 20, "512M"), (256 << 20, "256M")];

/// The bytes a planned table is kept in (bytes when the budget allows them, else
/// nibbles), as [`super::Tables`] builds it.
pub fn stored_bytes(table: &PlannedTable, budget: u64) -> u64 {
    let format = if table.len <= budget / 8 {
        Format::Bytes
    } else {
        Format::Nibbles
    };
    format.bytes(table.len)
}

/// The rough time to build tables of `entries` entries on `threads` threads.
pub fn build_time(entries: u64, threads: usize) -> Duration {
    let rate = ENTRIES_PER_SECOND_PER_THREAD * threads.max(1) as f64;
    Duration::from_secs_f64(entries as f64 / rate)
}

/// The line to show before building `to_build` (the planned tables not found in the
/// cache) under `budget`, when they store more than [`ANNOUNCE_FROM`] bytes; `None`
/// for smaller builds. The advice names the largest of a few smaller budgets whose plan
/// builds fewer entries, when there is one.
pub fn build_notice(
    puzzle: &Puzzle,
    to_build: &[&PlannedTable],
    budget: u64,
    threads: usize,
) -> Option<String> {
    let bytes: u64 = to_build.iter().map(|t| stored_bytes(t, budget)).sum();
    if bytes <= ANNOUNCE_FROM {
        return None;
    }
    let entries: u64 = to_build.iter().map(|t| t.len).sum();
    let tables = if to_build.len() == 1 {
        "table"
    } else {
        "tables"
    };
    let mut line = format!(
        "building {} pruning {tables} of {} entries ({}), roughly {} on {threads} threads",
        to_build.len(),
        format_count(entries),
        format_bytes(bytes),
        format_duration(build_time(entries, threads)),
    );
    let smaller = SMALLER_BUDGETS.iter().find_map(|&(b, name)| {
        if b >= budget {
            return None;
        }
        let planned = plan::plan(puzzle, b).ok()?;
        let n: u64 = planned.iter().map(|t| t.len).sum();
        (n < entries).then_some((name, n, planned))
    });
    match smaller {
        Some((name, n, planned)) => {
            let small_bytes: u64 = planned.iter().map(|t| stored_bytes(t, 1 << 30)).sum();
            line.push_str(&format!(
                "; --memory {name} would build {} entries ({}) in about {}, but searches \
                 would prune less and take longer",
                format_count(n),
                format_bytes(small_bytes),
                format_duration(build_time(n, threads)),
            ));
        }
        None => line.push_str("; a smaller --memory would not build less"),
    }
    Some(line)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::testing::cube2;

    fn table(len: u64) -> PlannedTable {
        PlannedTable {
            comps: Vec::new(),
            name: "T".into(),
            len,
        }
    }

    #[test]
    fn small_builds_are_not_announced() {
        let p = cube2();
        let t = table(1 << 20);
        assert_eq!(build_notice(&p, &[&t], 8 << 30, 2), None);
    }

    #[test]
    fn large_builds_say_size_and_time() {
        let p = cube2();
        // 3 G entries in nibbles (the budget is under 8 bytes per entry): 1.4 GB.
        let t = table(3_000_000_000);
        let line = build_notice(&p, &[&t], 16 << 30, 2).unwrap();
        let secs = 3e9 / (2.0 * ENTRIES_PER_SECOND_PER_THREAD);
        let expected = format_duration(Duration::from_secs_f64(secs));
        assert!(
            line.starts_with(&format!(
                "building 1 pruning table of 3.0 G entries (1.4 GB), roughly {expected} on 2 threads; "
            )),
            "{line}"
        );
        // Any smaller budget plans the 2x2x2's whole table, 3.7 M entries: quicker.
        assert!(
            line.contains("--memory 1G would build 3.7 M entries (3.5 MB)"),
            "{line}"
        );
    }

    #[test]
    fn build_time_scales_with_entries_and_threads() {
        let one = build_time(1_200_000_000, 1).as_secs_f64();
        assert!((one - 1.2e9 / ENTRIES_PER_SECOND_PER_THREAD).abs() < 1e-6);
        assert!((build_time(1_200_000_000, 4).as_secs_f64() - one / 4.0).abs() < 1e-6);
        assert!((build_time(2_400_000_000, 1).as_secs_f64() - one * 2.0).abs() < 1e-6);
    }
}
