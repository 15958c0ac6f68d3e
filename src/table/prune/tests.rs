//! Unit tests of pruning tables: building, storage formats, the two-bit fallback.

use super::*;
use crate::progress::Silent;
use crate::table::comp::{CompKind, CompSpec};
use crate::table::relabel::mask_relabel;
use crate::table::testing::cube2;

fn cube2_table(metric: Metric) -> PruneTable {
    let p = cube2();
    let (relabel, _) = mask_relabel(&p, 0, None);
    let mut perm = Component::new(
        &p,
        CompSpec {
            set: 0,
            kind: CompKind::Perm { relabel },
        },
    )
    .unwrap();
    let mut ori = Component::new(
        &p,
        CompSpec {
            set: 0,
            kind: CompKind::Ori { sum: Some(0) },
        },
    )
    .unwrap();
    perm.build_table(&p);
    ori.build_table(&p);
    let goals = vec![vec![perm.goal_values(&p, None), ori.goal_values(&p, None)]];
    PruneTable::build(
        &p,
        &[&perm, &ori],
        Sources::goals(&goals),
        metric,
        false,
        "test",
        &Silent,
    )
}

/// The whole 2x2x2 in one table is God's algorithm: the counts per depth are
/// ksolve+'s (and twsearch's) published figures.
#[test]
fn cube2_full_table_counts_gods_numbers() {
    let t = cube2_table(Metric::Htm);
    assert_eq!(
        t.histogram().0,
        [1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644]
    );
    let t = cube2_table(Metric::Qtm);
    assert_eq!(
        t.histogram().0,
        [
            1, 6, 27, 120, 534, 2256, 8969, 33058, 114149, 360508, 930588, 1350852, 782536, 90280,
            276
        ]
    );
}
