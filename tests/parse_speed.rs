//! The readers take time linear in their input and stop at the first error: inputs
//! generated here (a million words on one line, a million-move `ScrambleAlg`, 100,000
//! `Move` blocks, tens of thousands of sets, a bad first line before 100 MB) must be read
//! or refused within a few seconds even in a debug build. Quadratic readers took minutes
//! on each of them. Every run checks what was read; the time bounds are asserted with
//! `KSOLVE_SLOW_TESTS=1` only (see `common::assert_quick`), since a loaded machine can
//! slow any reader down.

use ksolve::def::{parse_puzzle, parse_scrambles, ErrorKind, MAX_MOVES};
use std::time::{Duration, Instant};

/// Generous bounds: the linear readers take a small fraction of this on a loaded
/// machine, the quadratic ones took ten to a hundred times longer.
const BOUND: Duration = Duration::from_secs(6);

/// The most pieces a definition may have bounds the quadratic set lookups to a few
/// seconds, so their test needs a tighter bound.
const SETS_BOUND: Duration = Duration::from_millis(1500);

/// A 2x2x2 with one corner fixed, turned by U, R and F.
const CUBE2: &str = "Set CORNERS 7 3
Move U
CORNERS
4 1 2 3 5 6 7
End
Move R
CORNERS
5 2 3 1 7 6 4
1 0 0 2 2 0 1
End
Move F
CORNERS
2 6 3 4 1 5 7
2 1 0 0 1 2 0
End
";

/// Runs `f`; in slow runs, fails when it takes longer than `bound`.
fn timed<T>(what: &str, bound: Duration, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let out = f();
    let took = start.elapsed();
    crate::common::assert_quick(took, bound, what);
    out
}

#[test]
fn a_million_words_on_one_line_are_read_in_linear_time() {
    let mut text = String::from("Name");
    for i in 0..1_000_000 {
        text.push_str(if i % 2 == 0 { " ab" } else { " \tcd" });
    }
    text.push('\n');
    text.push_str(CUBE2);
    let (p, _) = timed("a 1M-word Name line", BOUND, || {
        parse_puzzle(text.as_bytes(), "long.def").unwrap()
    });
    assert!(p.name.unwrap().ends_with("ab \tcd"));
    // The same line as a vector is refused, naming its length.
    let text = format!("{CUBE2}Solved\nCORNERS\n{}\nEnd\n", "1 ".repeat(1_000_000));
    let e = timed("a 1M-entry vector", BOUND, || {
        parse_puzzle(text.as_bytes(), "long.def").unwrap_err()
    });
    assert!(
        matches!(
            *e.kind,
            ErrorKind::WrongLength {
                found: 1_000_000,
                ..
            }
        ),
        "{e}"
    );
    // The column is that of the first entry too many.
    assert_eq!((e.line, e.col), (18, 15));
}

#[test]
fn a_million_move_scramble_alg_is_read_in_linear_time() {
    let (p, _) = parse_puzzle(CUBE2.as_bytes(), "cube.def").unwrap();
    let names = ["U", "R2", "F'", "R", "U'", "F2"];
    let mut text = String::from("ScrambleAlg one line\n");
    for i in 0..1_000_000 {
        text.push_str(names[i % names.len()]);
        text.push(' ');
    }
    text.push_str("\nEnd\nScrambleAlg many lines\n");
    for i in 0..1_000_000 {
        text.push_str(names[(i + 1) % names.len()]);
        text.push(if i % 1000 == 999 { '\n' } else { ' ' });
    }
    text.push_str("End\n");
    let v = timed("two 1M-move ScrambleAlgs", BOUND, || {
        parse_scrambles(text.as_bytes(), "long.txt", &p).unwrap()
    });
    let ksolve::puzzle::ScrambleSource::Alg(a) = &v[0].source else {
        panic!("not an alg")
    };
    let ksolve::puzzle::ScrambleSource::Alg(b) = &v[1].source else {
        panic!("not an alg")
    };
    assert_eq!((a.len(), b.len()), (1_000_000, 1_000_000));
    assert_eq!(p.mv(a[2]).name, "F'");
    assert_eq!(p.mv(b[2]).name, "R");
}

#[test]
fn a_hundred_thousand_moves_stop_at_the_move_cap() {
    let mut text = String::from("Set A 2 1\n");
    for i in 0..100_000 {
        text.push_str(&format!("Move M{i}\nA\n2 1\nEnd\n"));
    }
    let e = timed("100,000 Move blocks", BOUND, || {
        parse_puzzle(text.as_bytes(), "many.def").unwrap_err()
    });
    // Each move here has order 2, so one power: the first move past the cap is refused.
    assert_eq!(e.line, 2 + 4 * MAX_MOVES, "{e}");
    assert!(e.to_string().contains(&format!("past {MAX_MOVES}")), "{e}");
}

#[test]
fn many_sets_are_looked_up_in_linear_time() {
    // 35,000 one-piece sets and one of 30,000 pieces (the most pieces a definition may
    // have); Solved and a scramble name every set, and a Block lists every piece of the
    // big set.
    let n = 35_000;
    let mut text = String::from("Set BIG 30000 1\n");
    for i in 0..n {
        text.push_str(&format!("Set S{i} 1 1\n"));
    }
    let mut sections = String::new();
    for i in (0..n).rev() {
        sections.push_str(&format!("S{i}\n1\n"));
    }
    let big: Vec<String> = (1..=30_000).map(|k| k.to_string()).collect();
    let big = big.join(" ");
    text.push_str(&format!("Solved\n{sections}End\n"));
    let mut swap: Vec<String> = (1..=30_000).map(|k| k.to_string()).collect();
    swap.swap(0, 1);
    text.push_str(&format!("Move X\nBIG\n{}\nEnd\n", swap.join(" ")));
    text.push_str(&format!("Block\nBIG\n{big}\nEnd\n"));
    let (p, _) = timed("35,000 sets", SETS_BOUND, || {
        parse_puzzle(text.as_bytes(), "sets.def").unwrap()
    });
    assert_eq!(p.sets.len(), n + 1);
    assert_eq!(p.blocks[0].pieces.len(), 30_000);
    let scramble = format!("Scramble all\n{sections}BIG\n{big}\nEnd\n");
    let v = timed("a scramble naming 35,001 sets", SETS_BOUND, || {
        parse_scrambles(scramble.as_bytes(), "sets.txt", &p).unwrap()
    });
    assert_eq!(v.len(), 1);
    // A duplicate set name is still found, with the line of the first.
    let dup = text.replacen("Set S7 1 1", "Set S3 1 1", 1);
    let e = timed("a duplicate among 35,000 sets", SETS_BOUND, || {
        parse_puzzle(dup.as_bytes(), "sets.def").unwrap_err()
    });
    assert_eq!(e.line, 9, "{e}");
    assert!(e.to_string().contains("first declared at line 5"), "{e}");
}

#[test]
fn a_forbidden_group_of_a_million_names_is_read_in_linear_time() {
    let line = ["U", "R", "F"].repeat(333_333).join(" ");
    let text = format!("{CUBE2}ForbiddenGroups\n{line}\nEnd\n");
    let (p, _) = timed("a 1M-name ForbiddenGroups line", BOUND, || {
        parse_puzzle(text.as_bytes(), "forbid.def").unwrap()
    });
    let u = p.move_by_name("U").unwrap();
    let r = p.move_by_name("R").unwrap();
    assert!(!p.canonical_successor(u, r));
    assert!(!p.canonical_successor(r, u));
}

/// About 100 MB of well-formed move blocks.
fn huge_tail() -> String {
    let block = "Move U\nCORNERS\n4 1 2 3 5 6 7\nEnd\n";
    block.repeat((100 << 20) / block.len())
}

#[test]
fn an_error_on_line_one_does_not_wait_for_the_rest_of_the_file() {
    let tail = huge_tail();
    for (first, found) in [
        ("Bogus 1 2\n", "unknown command `Bogus`"),
        ("Set CORNERS 0 3\n", "`0` is too small"),
    ] {
        let text = format!("{first}{tail}");
        let e = timed(
            "a bad first line before 100 MB",
            Duration::from_secs(2),
            || parse_puzzle(text.as_bytes(), "huge.def").unwrap_err(),
        );
        assert_eq!(e.line, 1, "{e}");
        assert!(e.to_string().contains(found), "{e}");
    }
    // The same for scramble files, with a move the puzzle does not have.
    let (p, _) = parse_puzzle(CUBE2.as_bytes(), "cube.def").unwrap();
    let alg = "ScrambleAlg x\nU R\nEnd\n".repeat((100 << 20) / 22);
    let text = format!("ScrambleAlg bad\nU Q\nEnd\n{alg}");
    let e = timed(
        "a bad scramble before 100 MB",
        Duration::from_secs(2),
        || parse_scrambles(text.as_bytes(), "huge.txt", &p).unwrap_err(),
    );
    assert_eq!((e.line, e.col), (2, 3), "{e}");
}
