//! Known-answer tests: published God's-algorithm tables (numbers copied from
//! `../shared/reference/gods-tables.md`) reproduced on puzzles built in code.

use crate::gods_fixtures::*;
use ksolve::gods::{compute, GodOptions, GodTable, Method};
use ksolve::progress::Silent;
use ksolve::puzzle::{Metric, Puzzle};

fn table(p: &Puzzle, metric: Metric, method: Method) -> GodTable {
    let opts = GodOptions {
        metric,
        method,
        ..GodOptions::default()
    };
    compute(p, &opts, &Silent, &|_, _| {}).unwrap()
}

/// Checks every antipode: at the deepest distance by its solution's cost, and solved by it.
fn check_antipodes(p: &Puzzle, t: &GodTable, metric: Metric, want: usize) {
    assert_eq!(t.antipodes.len(), want);
    for a in &t.antipodes {
        let cost: u32 = a.solution.iter().map(|&m| metric.cost(p, m)).sum();
        assert_eq!(cost as usize, t.max_depth());
        assert_eq!(p.apply_sequence(&a.state, &a.solution), p.solved);
    }
}

#[test]
fn cube2_htm() {
    let p = cube2();
    let t = table(&p, Metric::Htm, Method::Auto);
    assert_eq!(
        t.counts,
        [1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644]
    );
    assert_eq!(t.total(), 3_674_160);
    assert_eq!(t.method, Method::Indexed);
    check_antipodes(&p, &t, Metric::Htm, 5);
}

#[test]
fn cube2_qtm() {
    let p = cube2();
    let t = table(&p, Metric::Qtm, Method::Auto);
    assert_eq!(
        t.counts,
        [
            1, 6, 27, 120, 534, 2256, 8969, 33058, 114149, 360508, 930588, 1350852, 782536, 90280,
            276
        ]
    );
    assert_eq!(t.total(), 3_674_160);
    check_antipodes(&p, &t, Metric::Qtm, 5);
}

#[test]
fn cube2_clockwise_only() {
    let p = cube2_clockwise();
    assert_eq!(p.moves.len(), 3, "directed moves get no powers");
    let t = table(&p, Metric::Htm, Method::Auto);
    assert_eq!(
        t.counts,
        [
            1, 3, 9, 27, 78, 216, 583, 1546, 4035, 10320, 25824, 62832, 146322, 321876, 635632,
            988788, 958176, 450280, 66420, 1192
        ]
    );
    assert_eq!(t.max_depth(), 19);
    assert_eq!(*t.counts.last().unwrap(), 1192);
    check_antipodes(&p, &t, Metric::Htm, 5);
}

#[test]
fn pyraminx_without_tips() {
    let p = pyraminx();
    let want = [
        1, 8, 48, 288, 1728, 9896, 51808, 220111, 480467, 166276, 2457, 32,
    ];
    let t = table(&p, Metric::Htm, Method::Auto);
    assert_eq!(t.counts, want);
    assert_eq!(t.total(), 933_120);
    check_antipodes(&p, &t, Metric::Htm, 5);
    // Every turn has order 3, so both powers are quarter turns: QTM agrees with HTM.
    assert_eq!(table(&p, Metric::Qtm, Method::Auto).counts, want);
}

#[test]
fn cube2_all_faces_htm() {
    if !crate::common::slow_tests() {
        return;
    }
    let p = cube2_all_faces();
    let t = table(&p, Metric::Htm, Method::Auto);
    assert_eq!(
        t.counts,
        [1, 18, 243, 2874, 28000, 205416, 1168516, 5402628, 20776176, 45391616, 15139616, 64736]
    );
    assert_eq!(t.total(), 88_179_840);
    check_antipodes(&p, &t, Metric::Htm, 5);
}

#[test]
fn cube2_all_faces_qtm() {
    if !crate::common::slow_tests() {
        return;
    }
    let p = cube2_all_faces();
    let t = table(&p, Metric::Qtm, Method::Auto);
    assert_eq!(
        t.counts,
        [
            1, 12, 114, 924, 6539, 39528, 199926, 806136, 2761740, 8656152, 22334112, 32420448,
            18780864, 2166720, 6624
        ]
    );
    assert_eq!(t.total(), 88_179_840);
}

#[test]
fn skewb_shipped_definition() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/skewb.def");
    let (p, _) = ksolve::def::load_puzzle(path).unwrap();
    let t = table(&p, Metric::Htm, Method::Auto);
    assert_eq!(
        t.counts,
        [1, 8, 48, 288, 1728, 10248, 59304, 315198, 1225483, 1455856, 81028, 90]
    );
    assert_eq!(t.total(), 3_149_280);
    check_antipodes(&p, &t, Metric::Htm, 5);
}
