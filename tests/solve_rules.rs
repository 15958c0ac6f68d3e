//! Slack, MoveLimits, `?` ignores, Block and the quarter-turn metric: every solution list
//! the solver prints (lengths, counts and order) equals what an independent brute-force
//! search over the piece-level model finds.

use crate::common::*;

/// Solves every scramble of `scr` on `def` and compares with the brute force.
fn agree(def: &str, scr: &str) -> Vec<Vec<usize>> {
    let p = puzzle(def);
    let mut counts = Vec::new();
    for s in scrambles(&p, scr) {
        let (start, ignore) = position(&p, &s);
        let got = solve(&p, &start, &ignore, &s.settings);
        let want = brute_force(&p, &start, &ignore, &s.settings);
        assert_same_solutions(&p, &got.solutions, &want, &format!("scramble {}", s.name));
        assert!(
            !want.is_empty(),
            "scramble {} should have solutions",
            s.name
        );
        counts.push(want.iter().map(|x| x.len()).collect());
    }
    counts
}

#[test]
fn slack_prints_the_next_lengths_too() {
    let lengths = agree(
        CUBE2,
        "MaxDepth 7\nSlack 2\nScrambleAlg four\nR U F' R2\nEnd\nSlack 4\nScrambleAlg two\nR U\nEnd\n",
    );
    // Slack really added longer solutions.
    assert!(lengths.iter().any(|l| l.first() != l.last()), "{lengths:?}");
}

#[test]
fn move_limits_per_move_and_per_family() {
    agree(
        CUBE2,
        "MaxDepth 7\nSlack 2\nMoveLimits\nF* 1\nR2 0\nEnd\nScrambleAlg limited\nR U F R' U\nEnd\n\
         MoveLimits\nU 1\nEnd\nScrambleAlg one U\nU R U' R'\nEnd\n",
    );
}

#[test]
fn question_marks_ignore_only_what_the_scramble_says() {
    // The definition allows ignoring UBL and UBR; the first scramble ignores both
    // permutations and UBL's twist, the second only UBR's permutation (with a hint).
    agree(
        &cube2_with_ignore(),
        "MaxDepth 6\nSlack 1\nScramble both\nCORNERS\n1 2 ? ? 5 6 7\n0 0 ? 0 0 0 0\nEnd\n\
         Scramble one\nCORNERS\n1 2 3 ?4 5 6 7\n0 0 0 0 0 0 0\nEnd\n",
    );
}

#[test]
fn blocks_forbid_moves_that_split_them() {
    agree(
        &cube2_with_block(),
        "MaxDepth 7\nSlack 1\nScrambleAlg bandaged\nU R U' F\nEnd\nScrambleAlg again\nU' R F R'\nEnd\n",
    );
}

#[test]
fn quarter_turn_metric() {
    agree(
        CUBE2,
        "QTM\nMaxDepth 7\nSlack 1\nScrambleAlg quarter\nR U2 F'\nEnd\n",
    );
}

#[test]
fn directed_moves_turn_one_way_only() {
    let def = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/puzzles/2x2x2_directed.def"
    ))
    .unwrap();
    let lengths = agree(
        &def,
        "MaxDepth 6\nSlack 1\nScrambleAlg back\nR\nEnd\nScrambleAlg two\nU R\nEnd\n",
    );
    assert_eq!(lengths[0][0], 3);
}
