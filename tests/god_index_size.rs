//! The perfect index holds only reachable positions: for puzzles whose parities,
//! orientation rules and linked pieces are known, the index space equals the number of
//! positions the moves reach, so the distance table is no larger than it must be.
//! The twsearch samples come from `../shared/twsearch-samples` (skipped when absent);
//! the Skewb's 37,791,360-entry table runs in release builds or with
//! `KSOLVE_SLOW_TESTS=1`, the Pyraminx's 302,330,880 only with `KSOLVE_SLOW_TESTS=1`
//! in a release build.

use ksolve::def::load_puzzle;
use ksolve::gods::{compute, GodOptions, GodTable};
use ksolve::progress::Silent;
use std::path::{Path, PathBuf};

fn table(path: &Path) -> GodTable {
    let (puzzle, _) = load_puzzle(path).unwrap();
    compute(&puzzle, &GodOptions::default(), &Silent, &|_, _| {}).unwrap()
}

fn shipped(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("puzzles")
        .join(name)
}

fn twsearch_sample(name: &str) -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/twsearch-samples")
        .join(name);
    p.is_file().then_some(p)
}

#[test]
fn shipped_pyraminx_and_skewb_index_only_reachable_positions() {
    // Pyraminx: edges only ever 3-cycle (even), so 6!/2 arrangements, not 6!.
    let t = table(&shipped("pyraminx.def"));
    assert_eq!(t.total(), 933_120);
    assert_eq!(t.index_space, Some(933_120));
    // Skewb: even centres, and corner twists that follow the corners' arrangement.
    let t = table(&shipped("skewb.def"));
    assert_eq!(t.total(), 3_149_280);
    assert_eq!(t.index_space, Some(3_149_280));
}

#[test]
fn twsearch_skewb_fits_in_twenty_megabytes() {
    let Some(path) = twsearch_sample("skewb.tws") else {
        return;
    };
    if cfg!(debug_assertions) && !crate::common::slow_tests() {
        return;
    }
    let t = table(&path);
    // Counts as twsearch and the earlier, eight-times larger index gave them.
    assert_eq!(
        t.counts,
        [1, 16, 208, 2280, 19683, 125280, 712032, 3782376, 14705796, 17470272, 972336, 1080]
    );
    assert_eq!(t.index_space, Some(37_791_360));
    assert!(t.table_bytes < 20 << 20, "{} bytes", t.table_bytes);
}

#[test]
fn twsearch_pyraminx_with_tips_fits_in_two_hundred_megabytes() {
    let Some(path) = twsearch_sample("pyraminx.tws") else {
        return;
    };
    if cfg!(debug_assertions) || !crate::common::slow_tests() {
        return;
    }
    let t = table(&path);
    assert_eq!(t.total(), 302_330_880);
    assert_eq!(t.max_depth(), 16);
    assert_eq!(t.index_space, Some(302_330_880));
    assert!(t.table_bytes < 200 << 20, "{} bytes", t.table_bytes);
}
