//! Unit tests of the twsearch constructs: digit-led move names, `MoveAlias`,
//! `MoveSequence`, the 0-based `StartState` / `MoveTransformation` / `ScrambleState`,
//! and the refusals that name `Illegal` and `CPOS`.

use super::*;
use crate::puzzle::{Puzzle, ScrambleSource};

/// A 2x2x2 with one corner fixed, as a twsearch file would give it.
const CUBE: &str = "\
Name Cube2
Set CORNERS 7 3
Solved
CORNERS
1 2 3 4 5 6 7
End
Move U
CORNERS
4 1 2 3 5 6 7
End
Move R
CORNERS
1 3 6 4 2 5 7
0 2 1 0 1 2 0
End
Move F
CORNERS
1 2 4 7 5 3 6
0 0 2 1 0 1 2
End
";

fn tws(extra: &str) -> Puzzle {
    parse_puzzle(format!("{CUBE}{extra}").as_bytes(), "t.tws")
        .unwrap_or_else(|e| panic!("{e}"))
        .0
}

fn tws_err(extra: &str) -> DefError {
    parse_puzzle(format!("{CUBE}{extra}").as_bytes(), "t.tws").expect_err("should be refused")
}

/// The effect of a sequence of move names.
fn effect(p: &Puzzle, names: &[&str]) -> crate::puzzle::Transform {
    names.iter().fold(p.solved.clone(), |s, n| {
        let id = p.move_by_name(n).unwrap_or_else(|| panic!("no move {n}"));
        s.then(&p.mv(id).effect, &p.sets)
    })
}

#[test]
fn move_names_may_start_with_a_digit() {
    let p = tws("Move 2U\nCORNERS\n2 3 4 1 5 6 7\nEnd\n");
    let names: Vec<_> = p.moves[9..].iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["2U", "2U2", "2U'"]);
    assert_eq!(effect(&p, &["2U"]), effect(&p, &["U'"]));
    // The name works in scrambles too.
    let v = parse_scrambles(b"ScrambleAlg a\n2U2 R\nEnd\n", "s.scr", &p).unwrap();
    assert_eq!(v.len(), 1);
    // A bare number, a sign, and a digit-led set name stay refused.
    for (text, col) in [
        ("Move 12\nCORNERS\n2 3 4 1 5 6 7\nEnd\n", 6),
        ("Move -U\nCORNERS\n2 3 4 1 5 6 7\nEnd\n", 6),
    ] {
        let e = tws_err(text);
        assert_eq!((e.line, e.col), (21, col), "{e}");
        assert!(e.to_string().contains("cannot name a move"), "{e}");
    }
    let e = parse_puzzle(b"Set 2A 3 1\n", "t.tws").unwrap_err();
    assert_eq!((e.line, e.col), (1, 5), "{e}");
}

#[test]
fn move_alias_names_a_move_and_its_powers() {
    let p = tws("MoveAlias Up U\nMoveAlias Ri R'\n");
    let id = |n: &str| p.move_by_name(n).unwrap_or_else(|| panic!("no move {n}"));
    assert_eq!(id("Up"), id("U"));
    assert_eq!(id("Up2"), id("U2"));
    assert_eq!(id("Up'"), id("U'"));
    assert_eq!(id("Ri"), id("R'"));
    assert_eq!(id("Ri2"), id("R2"));
    assert_eq!(id("Ri'"), id("R"));
    // Aliases are not searched: the moves stay those of the three faces.
    assert_eq!(p.moves.len(), 9);
    let v = parse_scrambles(b"ScrambleAlg a\nUp Ri'\nEnd\n", "s.scr", &p).unwrap();
    assert_eq!(
        v[0].source,
        ScrambleSource::Alg(vec![id("U"), id("R")]),
        "aliases resolve in scrambles"
    );
    // ForbiddenPairs may name aliases.
    let p = tws("MoveAlias Up U\nForbiddenPairs\nUp R\nEnd\n");
    let (u, r) = (p.move_by_name("U").unwrap(), p.move_by_name("R").unwrap());
    assert!(p.forbidden[u.index() * p.moves.len() + r.index()]);
    // MoveLimits may name an alias alone or as a family (`Up*` is every power of U).
    let p = tws("MoveAlias Up U\n");
    let v = parse_scrambles(
        b"MoveLimits\nUp* 1\nUp 0\nEnd\nRandomScramble r\nEnd\n",
        "s.scr",
        &p,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let u_base = p.mv(p.move_by_name("U").unwrap()).base;
    assert_eq!(
        v[0].settings.limits,
        vec![
            crate::puzzle::MoveLimit::single(crate::puzzle::LimitKey::Family(u_base), 1),
            crate::puzzle::MoveLimit::single(
                crate::puzzle::LimitKey::Move(p.move_by_name("U").unwrap()),
                0
            ),
        ]
    );
}

#[test]
fn move_alias_errors_name_the_place() {
    let e = tws_err("MoveAlias Up X\n");
    assert_eq!((e.line, e.col), (21, 14), "{e}");
    assert!(matches!(&*e.kind, ErrorKind::UnknownMove { found, .. } if found == "X"));
    let e = tws_err("MoveAlias R U\n");
    assert_eq!((e.line, e.col), (21, 11), "{e}");
    assert!(e.to_string().contains("defined twice"), "{e}");
    let e = tws_err("MoveAlias Up\n");
    assert_eq!((e.line, e.col), (21, 14), "{e}");
    assert!(e.to_string().contains("MoveAlias NEW EXISTING"), "{e}");
}

#[test]
fn move_sequence_is_a_searched_move_composed_of_others() {
    // `T` uses `S`, defined after it, and the alias `Up`; commas also separate moves.
    let p = tws("MoveSequence T S,Up2\nMoveSequence S R U R' U'\nMoveAlias Up U\n");
    let s = p.base_by_name("S").unwrap();
    let t = p.base_by_name("T").unwrap();
    assert_eq!(p.base_moves[s].effect, effect(&p, &["R", "U", "R'", "U'"]));
    assert_eq!(
        p.base_moves[t].effect,
        effect(&p, &["R", "U", "R'", "U'", "U2"])
    );
    assert_eq!(p.base_moves[s].order, 6);
    let names: Vec<_> = p.base_moves[s]
        .powers
        .iter()
        .map(|&id| p.mv(id).name.as_str())
        .collect();
    assert_eq!(names, ["S", "S2", "S3", "S2'", "S'"]);
}

#[test]
fn move_sequence_errors_name_the_place() {
    // A cycle: neither can be expanded; the error points at the first unknown word.
    let e = tws_err("MoveSequence A R B\nMoveSequence B A U\n");
    assert_eq!((e.line, e.col), (21, 18), "{e}");
    assert!(e.to_string().contains("in move sequence `A`"), "{e}");
    let e = tws_err("MoveSequence A R R'\n");
    assert_eq!((e.line, e.col), (21, 14), "{e}");
    assert!(e.to_string().contains("changes nothing"), "{e}");
    let e = tws_err("MoveSequence A\n");
    assert_eq!((e.line, e.col), (21, 16), "{e}");
    let e = tws_err("MoveSequence U2 R\n");
    assert!(e.to_string().contains("defined twice"), "{e}");
    let e = tws_err("MoveSequence A R, X\n");
    assert_eq!((e.line, e.col), (21, 19), "{e}");
}

#[test]
fn zero_based_states_read_like_one_based_ones() {
    let one = tws("");
    let zero = CUBE
        .replace(
            "Solved\nCORNERS\n1 2 3 4 5 6 7",
            "StartState\nCORNERS\n0 1 2 3 4 5 6",
        )
        .replace(
            "Move R\nCORNERS\n1 3 6 4 2 5 7",
            "MoveTransformation R\nCORNERS\n0 2 5 3 1 4 6",
        );
    let zero = parse_puzzle(zero.as_bytes(), "z.tws").unwrap().0;
    assert_eq!(zero, one);
    let e = parse_puzzle(CUBE.replace("Solved", "StartState").as_bytes(), "z.tws").unwrap_err();
    assert_eq!((e.line, e.col), (5, 13), "{e}");
    assert!(e.to_string().contains("from 0 to 6"), "{e}");
    // ScrambleState numbers from 0, Scramble from 1.
    let a = parse_scrambles(
        b"ScrambleState a\nCORNERS\n1 2 3 0 4 5 6\nEnd\nScramble b\nCORNERS\n2 3 4 1 5 6 7\nEnd\n",
        "s.scr",
        &one,
    )
    .unwrap();
    assert_eq!(a[0].source, a[1].source);
    let e = parse_scrambles(
        b"ScrambleState a\nCORNERS\n1 2 3 4 5 6 7\nEnd\n",
        "s.scr",
        &one,
    )
    .unwrap_err();
    assert_eq!((e.line, e.col), (3, 13), "{e}");
}

#[test]
fn unsupported_twsearch_constructs_are_refused_by_name() {
    let e = tws_err("Illegal CORNERS 1 2 3\n");
    assert_eq!((e.line, e.col), (21, 1), "{e}");
    let text = e.to_string();
    assert!(
        text.starts_with("t.tws:21:1: twsearch's `Illegal`"),
        "{text}"
    );
    assert!(text.contains("not supported"), "{text}");
    let p = tws("");
    let e = parse_scrambles(b"CPOS 0123456\n", "s.scr", &p).unwrap_err();
    assert_eq!((e.line, e.col), (1, 1), "{e}");
    assert!(e.to_string().contains("`CPOS`"), "{e}");
    assert!(e.to_string().contains("compact positions"), "{e}");
}
