//! Tests of the symmetry search.

use super::*;
use crate::def::load_puzzle;

fn shipped(name: &str) -> Puzzle {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    load_puzzle(root.join("puzzles").join(name)).unwrap().0
}

#[test]
fn orders_of_shipped() {
    for f in [
        "3x3x3.def",
        "2x2x2.def",
        "2x2x2_directed.def",
        "pyraminx.def",
        "skewb.def",
        "megaminx.def",
        "4x4x4_centres.def",
        "3x3x3_bandaged.def",
        "3x3x3_ll.def",
    ] {
        let p = shipped(f);
        let g = SymmetryGroup::find(&p).unwrap();
        let best = (0..20)
            .map(|_| {
                let t = std::time::Instant::now();
                SymmetryGroup::find(&p).unwrap();
                t.elapsed()
            })
            .min()
            .unwrap();
        eprintln!(
            "{f}: {} ({} mirrors) closed {} in {:?}",
            g.order(),
            g.mirrors(),
            g.points_closed(),
            best
        );
    }
}

#[test]
fn dump_4x4() {
    let p = shipped("4x4x4_centres.def");
    let g = SymmetryGroup::find(&p).unwrap();
    for e in g.elements() {
        let names: Vec<String> = p
            .base_moves
            .iter()
            .map(|b| format!("{}->{}", b.name, p.mv(e.move_image(b.powers[0])).name))
            .collect();
        eprintln!("{} {}", e.is_mirror(), names.join(" "));
    }
}
