//! Tests of the symmetry-reduced tables: which components conjugate as functions of
//! themselves, that the class tables are right (every value's symmetry carries it onto
//! its class's representative), and that reduced tables agree entry by entry with the
//! unreduced tables over the same components, self-symmetric classes included.

use super::classes::Classes;
use super::plan::subgroup;
use super::table::{minor_conj, SymTable, Width};
use super::*;
use crate::def::load_puzzle;
use crate::progress::Silent;
use crate::puzzle::Metric;
use crate::symmetry::SymmetryGroup;
use crate::table::comp::{CompSpec, Component};
use crate::table::plan::{ori_spec, perm_specs};
use crate::table::prune::{PruneTable, Sources};

fn shipped(name: &str) -> Puzzle {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    load_puzzle(root.join("puzzles").join(name)).unwrap().0
}

fn built(p: &Puzzle, spec: &CompSpec) -> Component {
    let mut c = Component::new(p, spec.clone()).unwrap();
    c.build_table(p);
    c
}

fn whole_set(p: &Puzzle, set: usize) -> Vec<CompSpec> {
    let mut v = perm_specs(p, set, p.ignore.get(set), u64::MAX);
    v.extend(ori_spec(p, set));
    v
}

/// Every value of the major group is carried by its recorded symmetry onto its class's
/// representative, every class's stabiliser fixes it, and every symmetry of the
/// subgroup keeps each value in its class.
fn check_classes(p: &Puzzle, g: &SymmetryGroup, specs: &[CompSpec]) -> Classes {
    let comps: Vec<Component> = specs.iter().map(|s| built(p, s)).collect();
    let refs: Vec<&Component> = comps.iter().collect();
    let syms = subgroup(p, g, specs, &[]);
    let conj = Conjugator::new(p, &refs);
    let sizes: Vec<u64> = comps.iter().map(|c| c.count as u64).collect();
    let classes = Classes::build(p, g, &syms, &conj, &sizes, &crate::progress::Silent).unwrap();
    let strides = crate::table::prune::strides_of(&sizes);
    let rank = |v: &[u32]| -> u64 { v.iter().zip(&strides).map(|(&a, &s)| a as u64 * s).sum() };
    let mut sc = conj.scratch(p);
    let (mut vals, mut out) = (vec![0; sizes.len()], vec![0; sizes.len()]);
    let n: u64 = sizes.iter().product();
    for r in 0..n {
        split(r, &sizes, &mut vals);
        let (c, s) = classes.of(r);
        conj.conjugate(&g.elements()[syms[s]], &vals, &mut sc, &mut out);
        assert_eq!(rank(&out), classes.reps[c as usize] as u64, "value {r}");
        if r % 97 == 0 {
            for &t in &syms {
                conj.conjugate(&g.elements()[t], &vals, &mut sc, &mut out);
                assert_eq!(classes.of(rank(&out)).0, c);
            }
        }
    }
    for (c, &rep) in classes.reps.iter().enumerate() {
        split(rep as u64, &sizes, &mut vals);
        for &t in classes.stabiliser(c as u32) {
            conj.conjugate(&g.elements()[syms[t as usize]], &vals, &mut sc, &mut out);
            assert_eq!(rank(&out), rep as u64);
        }
    }
    classes
}

/// The 2x2x2 with a fixed corner: its corners' arrangement and twists together
/// conjugate under all six symmetries; arrangement alone too; the twists alone only
/// under those that give every corner the same offset.
#[test]
fn conjugation_conditions_on_the_2x2x2() {
    let p = shipped("2x2x2.def");
    let g = SymmetryGroup::find(&p).unwrap();
    assert_eq!(g.order(), 6);
    let all = whole_set(&p, 0);
    assert_eq!(subgroup(&p, &g, &all, &[]).len(), 6);
    assert_eq!(subgroup(&p, &g, &all[..1], &[]).len(), 6);
    let classes = check_classes(&p, &g, &all);
    // 3,674,160 positions in classes of at most six: at least 612,360 classes.
    assert!(classes.count() >= 3_674_160 / 6);
    assert!(classes.count() < 3_674_160 / 5);
}

/// On the 3x3x3, every one of the 48 symmetries conjugates the corners' arrangement
/// and the edges' arrangement; the class tables of the corners' arrangement are right.
#[test]
fn cube_classes_of_the_corner_arrangement() {
    let p = shipped("3x3x3.def");
    let g = SymmetryGroup::find(&p).unwrap();
    assert_eq!(g.order(), 48);
    let corners = p.sets.iter().position(|s| s.name == "CORNERS").unwrap();
    let perm = &whole_set(&p, corners)[..1];
    assert_eq!(subgroup(&p, &g, perm, &[]).len(), 48);
    let classes = check_classes(&p, &g, perm);
    // 40320 arrangements, 984 classes under the 48 symmetries (Kociemba's count of
    // corner-permutation classes under the full group, 2768 under 16).
    assert_eq!(classes.count(), 984);
}

/// A reduced table gives, for every position, the entry of the unreduced table over
/// the same components: compared entry by entry, with self-symmetric classes (the
/// solved twists are fixed by every symmetry of the subgroup) among them.
fn compare_entry_by_entry(p: &Puzzle, major: &[CompSpec], minor: &[CompSpec], metric: Metric) {
    compare_at_width(
        p,
        major,
        minor,
        metric,
        Width::Nibbles { allow_bytes: true },
    );
}

/// [`compare_entry_by_entry`] at either width. A two-bit table with deepest stored
/// depth `m` must give at most the entry for entries below `m - 2` (its group's least
/// depth), the entry itself for `m - 2` and `m - 1`, and `m` for deeper ones, in the
/// half-turn metric; under another metric it counts every move 1, so it only bounds the
/// entries from below.
fn compare_at_width(
    p: &Puzzle,
    major: &[CompSpec],
    minor: &[CompSpec],
    metric: Metric,
    width: Width,
) {
    let g = SymmetryGroup::find(p).unwrap();
    let syms = subgroup(p, &g, major, minor);
    assert!(syms.len() > 1, "no symmetry to reduce by");
    let a: Vec<Component> = major.iter().map(|s| built(p, s)).collect();
    let b: Vec<Component> = minor.iter().map(|s| built(p, s)).collect();
    let (ar, br): (Vec<&Component>, Vec<&Component>) = (a.iter().collect(), b.iter().collect());
    let sizes: Vec<u64> = a.iter().map(|c| c.count as u64).collect();
    let classes = Classes::build(
        p,
        &g,
        &syms,
        &Conjugator::new(p, &ar),
        &sizes,
        &crate::progress::Silent,
    )
    .unwrap();
    assert!(classes.stab_sets.len() > 1, "no self-symmetric class");
    let conj = minor_conj(p, &g, &syms, &br);
    let all: Vec<&Component> = ar.iter().chain(&br).copied().collect();
    let goals: Vec<Vec<u32>> = all
        .iter()
        .map(|c| c.goal_values(p, p.ignore.get(c.spec.set)))
        .collect();
    let t = SymTable::build(
        p, classes, &ar, &br, conj, &goals, metric, width, "t", &Silent,
    );
    let full = PruneTable::build(
        p,
        &all,
        Sources::goals(&[goals]),
        metric,
        true,
        "t",
        &Silent,
    );
    assert!(t.table.len < full.len);
    let ka = a.len();
    let mut vals = vec![0u32; all.len()];
    let sizes: Vec<u64> = all.iter().map(|c| c.count as u64).collect();
    let m = t.table.max_depth as u32;
    let mut told = 0u64;
    for i in 0..full.len {
        split(i, &sizes, &mut vals);
        let (got, exact) = (t.bound(&vals[..ka], &vals[ka..]), full.get(i));
        match width {
            Width::Nibbles { .. } => assert_eq!(got, exact, "entry {i}"),
            Width::Crumbs if metric != Metric::Htm => assert!(got <= exact, "entry {i}"),
            Width::Crumbs => {
                match exact {
                    // Below the last layers: the group's least depth.
                    e if e + 2 < m => assert!(got <= e, "entry {i}"),
                    e if e < m => assert_eq!(got, e, "entry {i}"),
                    _ => assert_eq!(got, m, "entry {i} (exact {exact})"),
                }
                told += (exact + 2 >= m) as u64;
            }
        }
    }
    if width == Width::Crumbs && metric == Metric::Htm {
        // Most entries lie in the last three layers.
        assert!(told * 2 > full.len, "{told} of {}", full.len);
    }
}

/// Two-bit tables: the 2x2x2's God's table and the Pyraminx's edges × centres, in
/// both metrics.
#[test]
fn two_bit_reduced_tables_hold_the_last_layers() {
    let p = shipped("2x2x2.def");
    compare_at_width(&p, &whole_set(&p, 0), &[], Metric::Htm, Width::Crumbs);
    let p = shipped("pyraminx.def");
    let edges = whole_set(&p, 0);
    let centres = vec![ori_spec(&p, 1).unwrap()];
    compare_at_width(&p, &edges, &centres, Metric::Htm, Width::Crumbs);
    compare_at_width(&p, &edges, &centres, Metric::Qtm, Width::Crumbs);
}

#[test]
fn the_2x2x2_reduced_table_is_gods_table() {
    let p = shipped("2x2x2.def");
    compare_entry_by_entry(&p, &whole_set(&p, 0), &[], Metric::Htm);
}

/// The Pyraminx's edges (arrangement and flips) reduced by the symmetries that also
/// conjugate its centres' twists, with the twists as the minor component.
#[test]
fn a_reduced_table_with_a_minor_component_matches_in_both_metrics() {
    let p = shipped("pyraminx.def");
    let edges = whole_set(&p, 0);
    let centres = vec![ori_spec(&p, 1).unwrap()];
    compare_entry_by_entry(&p, &edges, &centres, Metric::Htm);
    compare_entry_by_entry(&p, &edges, &centres, Metric::Qtm);
}

/// Which components of shipped puzzles conjugate under how many symmetries.
#[test]
fn subgroups_of_shipped_puzzles() {
    let p = shipped("3x3x3.def");
    let g = SymmetryGroup::find(&p).unwrap();
    let c = whole_set(&p, 0);
    let eo = ori_spec(&p, 1).unwrap();
    let co = ori_spec(&p, 0).unwrap();
    // The corners seen whole conjugate under all 48; the twists alone, or the flips,
    // only under the 16 that keep the axis the definition's twists are measured from.
    assert_eq!(subgroup(&p, &g, &c, &[]).len(), 48);
    assert_eq!(subgroup(&p, &g, &[co], &[]).len(), 16);
    assert_eq!(subgroup(&p, &g, std::slice::from_ref(&eo), &[]).len(), 16);
    assert_eq!(subgroup(&p, &g, &c, &[eo]).len(), 16);
}

/// A table that settles its last layers ([`super::build::Layout::settle_from`]) agrees
/// with the exact build below the settled depth and holds that depth for every deeper
/// entry: never above the true distance.
#[test]
fn a_settled_table_is_exact_below_its_last_layer_and_a_lower_bound_in_it() {
    use super::build::{bfs, Layout};
    use crate::table::prune::Format;
    let p = shipped("2x2x2.def");
    let g = SymmetryGroup::find(&p).unwrap();
    let major = whole_set(&p, 0);
    let syms = subgroup(&p, &g, &major, &[]);
    let a: Vec<Component> = major.iter().map(|s| built(&p, s)).collect();
    let ar: Vec<&Component> = a.iter().collect();
    let sizes: Vec<u64> = a.iter().map(|c| c.count as u64).collect();
    let classes = Classes::build(
        &p,
        &g,
        &syms,
        &Conjugator::new(&p, &ar),
        &sizes,
        &crate::progress::Silent,
    )
    .unwrap();
    let goals: Vec<Vec<u32>> = ar
        .iter()
        .map(|c| c.goal_values(&p, p.ignore.get(c.spec.set)))
        .collect();
    let run = |settle_from, format| {
        let layout = Layout {
            format,
            clip: true,
            settle_from,
        };
        let r = bfs(
            &p,
            &classes,
            &ar,
            &[],
            &[],
            &goals,
            Metric::Htm,
            layout,
            "t",
            &Silent,
        );
        r.unwrap_or_else(|_| unreachable!("clipped"))
    };
    let (exact, exact_depth, _) = run(u64::MAX, Format::Nibbles);
    let (settled, depth, _) = run(0, Format::Nibbles);
    assert_eq!(exact_depth, 11, "the 2x2x2's God's number");
    assert!(depth < exact_depth, "the last layers were settled");
    let mut deeper = 0;
    for i in 0..classes.count() {
        let (e, s) = (exact.get(i), settled.get(i));
        if e < depth {
            assert_eq!(s, e, "entry {i}");
        } else {
            assert_eq!(s, depth, "entry {i} (exact {e})");
            deeper += (e > depth) as u32;
        }
    }
    assert!(deeper > 0, "some entries are deeper than the settled depth");

    // Two bits, in the same layout: codes 1 and 2 are the depths `top - 2` and
    // `top - 1`, code 3 at least `top` (exactly where the four-bit build settles), code
    // 0 shallower, with the least depth of its group of 16 as the fallback.
    let (crumbs, top, fallback) = run(0, Format::Crumbs);
    let fallback = fallback.expect("two-bit builds keep a fallback");
    assert_eq!(top, depth, "stops where the four-bit build settles");
    let n = classes.count();
    let mut below = 0;
    for i in 0..n {
        let e = exact.get(i);
        let code = crumbs.get(i);
        match code {
            1 | 2 => assert_eq!(e as u32, top as u32 - 3 + code as u32, "entry {i}"),
            3 => assert!(e >= top, "entry {i}"),
            _ => {
                assert!(e + 2 < top, "entry {i}");
                let group = (i / 16 * 16)..((i / 16 + 1) * 16).min(n);
                let least = group.map(|j| exact.get(j)).min().unwrap();
                let nib = (fallback[(i >> 5) as usize] >> (((i >> 4) & 1) * 4)) & 15;
                assert_eq!(nib, least, "entry {i}");
                below += 1;
            }
        }
    }
    assert!(below > 0, "some entries lie below the last layers");
}

/// The budget split: a smaller share for the ordinary tables is taken only for a reduced
/// table that sees at least twice the positions of the whole budget's largest table.
/// Under 1G the 3x3x3's corners reduced by 48 symmetries (88 M positions) are not worth
/// shrinking the ordinary tables to an eighth (they were, by the sum of scores, which
/// rewards many small tables: m14 scrambles then took ten times longer); under 8G the
/// nxopt table is (which corners lie in the U layer and their twists, which edges lie
/// in the middle layer and their flips: fewer positions than corners × flips, but with
/// the tight-bound rule).
#[test]
fn a_smaller_share_is_taken_only_for_a_reduced_table_that_sees_far_more() {
    let p = shipped("3x3x3.def");
    let g = SymmetryGroup::find(&p).unwrap();
    let small = cached::planned(&p, &g, 1 << 30).unwrap();
    assert_eq!(small.ordinary, 1 << 30);
    let big = cached::planned(&p, &g, 8 << 30).unwrap().plan.unwrap();
    assert_eq!(big.positions(), 155_196_518_400);
    assert!(big.tight && !big.crumbs);
    assert_eq!(big.syms.len(), 16);
    assert_eq!(big.name, "EDGES.p2o+CORNERS.p2o");
}

/// Under the default budget of a 24 GiB machine (a quarter of its 24,684,084 KiB of
/// memory: 5.885 GiB) the 3x3x3's nxopt table fits at four bits per entry (4.6 GiB)
/// beside the ordinary tables; under 4G at two.
#[test]
fn the_default_budget_of_a_24_gib_machine_holds_the_nxopt_table() {
    let p = shipped("3x3x3.def");
    let g = SymmetryGroup::find(&p).unwrap();
    let budget = 24_684_084u64 * 1024 / 4;
    let plan = cached::planned(&p, &g, budget).unwrap().plan.unwrap();
    assert_eq!(plan.positions(), 155_196_518_400);
    assert!(plan.tight && !plan.crumbs);
    let small = cached::planned(&p, &g, 4 << 30).unwrap().plan.unwrap();
    assert_eq!(small.positions(), 155_196_518_400);
    assert!(small.crumbs);
}
