//! Tests of the algorithm notation (each construct, precedence, nesting, bounds, errors
//! with their columns, ksolve+ names that look like the notation) and of the tools.

use super::*;
use crate::def::{load_puzzle, parse_puzzle, DefError, ErrorKind};
use crate::puzzle::Transform;
use proptest::prelude::*;

fn cube() -> Puzzle {
    load_puzzle(concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/3x3x3.def"))
        .unwrap()
        .0
}

fn read(p: &Puzzle, text: &str) -> Result<Alg, DefError> {
    let lines: Vec<AlgLine> = text
        .split('\n')
        .enumerate()
        .map(|(i, t)| AlgLine { no: i + 1, text: t })
        .collect();
    parse("alg", &lines, &MoveNames::new(p))
}

/// The algorithm as move names, expanded.
fn names(p: &Puzzle, text: &str) -> String {
    let alg = read(p, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    p.format_sequence(&alg.moves(p, false))
}

fn err(p: &Puzzle, text: &str) -> DefError {
    match read(p, text) {
        Ok(a) => panic!("{text} read as {:?}", p.format_sequence(&a.moves(p, false))),
        Err(e) => e,
    }
}

#[test]
fn plain_sequences_read_as_move_names() {
    let p = cube();
    assert_eq!(names(&p, "R U R' U'"), "R U R' U'");
    assert_eq!(names(&p, "  R\tU2  \n\nF' "), "R U2 F'");
    assert_eq!(names(&p, ""), "");
}

#[test]
fn powers_reduce_modulo_the_order() {
    let p = cube();
    assert_eq!(names(&p, "R2'"), "R2");
    assert_eq!(names(&p, "R3"), "R'");
    assert_eq!(names(&p, "R3'"), "R");
    assert_eq!(names(&p, "R5 U4 F0"), "R");
    assert_eq!(names(&p, "R'2"), "R2");
    assert_eq!(names(&p, "R1000000000000000001"), "R");
}

#[test]
fn groups_repeat_and_invert() {
    let p = cube();
    assert_eq!(names(&p, "(R U)3"), "R U R U R U");
    assert_eq!(names(&p, "(R U)'"), "U' R'");
    assert_eq!(names(&p, "(R U2)2'"), "U2 R' U2 R'");
    assert_eq!(names(&p, "(R U)0 F"), "F");
    assert_eq!(names(&p, "()"), "");
}

#[test]
fn commutators_and_conjugates() {
    let p = cube();
    assert_eq!(names(&p, "[R, U]"), "R U R' U'");
    assert_eq!(names(&p, "[R: U]"), "R U R'");
    assert_eq!(names(&p, "[R, U]'"), "U R U' R'");
    assert_eq!(names(&p, "[R: U]'"), "R U' R'");
    assert_eq!(names(&p, "[R U:F]2"), "R U F U' R' R U F U' R'");
    assert_eq!(names(&p, "[R,U]"), "R U R' U'");
}

#[test]
fn constructs_nest() {
    let p = cube();
    assert_eq!(names(&p, "[F: [R, U]]"), "F R U R' U' F'");
    assert_eq!(names(&p, "([R, U] D)2"), "R U R' U' D R U R' U' D");
    assert_eq!(names(&p, "[(R U)2, F]"), "R U R U F U' R' U' R' F'");
    assert_eq!(names(&p, "[[R: U], D]'"), "D R U R' D' R U' R'");
}

#[test]
fn powers_bind_to_the_nearest_move_or_bracket() {
    let p = cube();
    assert_eq!(names(&p, "R U2"), "R U2");
    assert_eq!(names(&p, "R (U)2"), "R U U");
    assert_eq!(names(&p, "(R U)2"), "R U R U");
}

#[test]
fn comments_run_to_the_end_of_the_line() {
    let p = cube();
    assert_eq!(names(&p, "R // U U\nF"), "R F");
    assert_eq!(names(&p, "R//U\n// all comment\nF"), "R F");
    // A bracket may span lines.
    assert_eq!(names(&p, "(R // first\n U)2"), "R U R U");
}

#[test]
fn errors_name_the_line_and_column() {
    let p = cube();
    let e = err(&p, "R Q");
    assert_eq!((e.line, e.col), (1, 3));
    assert!(matches!(*e.kind, ErrorKind::UnknownMove { .. }), "{e}");
    let e = err(&p, "R\n  (R U");
    assert_eq!((e.line, e.col), (2, 3));
    assert!(e.to_string().contains("never closed"), "{e}");
    let e = err(&p, "[R U]");
    assert_eq!((e.line, e.col), (1, 5));
    assert!(e.to_string().contains("expected `,` or `:`"), "{e}");
    let e = err(&p, "R U )");
    assert_eq!((e.line, e.col), (1, 5));
    let e = err(&p, "(R U]");
    assert_eq!((e.line, e.col), (1, 5));
    let e = err(&p, "[R, U)");
    assert_eq!((e.line, e.col), (1, 6));
    let e = err(&p, "R U99999999999999999999999");
    assert_eq!((e.line, e.col), (1, 4));
    assert!(matches!(*e.kind, ErrorKind::TooLarge { .. }), "{e}");
    let e = err(&p, "(R)99999999999999999999999");
    assert_eq!((e.line, e.col), (1, 4));
    let e = err(&p, "R ' U");
    assert_eq!((e.line, e.col), (1, 3));
    let e = err(&p, "R U End");
    assert!(e.to_string().contains("`End` alone"), "{e}");
}

#[test]
fn expansion_is_bounded_before_it_happens() {
    let p = cube();
    let e = err(&p, "F (R U)1000000000");
    assert_eq!((e.line, e.col), (1, 3));
    assert!(e.to_string().contains("at most"), "{e}");
    let e = err(&p, "((R U)100000)100000");
    assert_eq!((e.line, e.col), (1, 1));
    let e = err(&p, "[R, (U)300000000]");
    assert_eq!((e.line, e.col), (1, 1));
    // An empty body repeats for free, however often.
    assert_eq!(
        names(&p, "(R4)18446744073709551615 ((U4)1000000000)1000000000"),
        ""
    );
    // Nesting is bounded too, so no input can exhaust the stack.
    let deep = format!(
        "{}R{}",
        "(".repeat(MAX_NESTING + 1),
        ")".repeat(MAX_NESTING + 1)
    );
    let e = err(&p, &deep);
    assert_eq!(e.col, MAX_NESTING + 1);
    let ok = format!("{}R{}", "(".repeat(MAX_NESTING), ")".repeat(MAX_NESTING));
    assert_eq!(names(&p, &ok), "R");
}

/// A definition whose move names look like the notation: they must keep meaning the
/// moves they name, as in ksolve+.
const LOOKALIKES: &str = "\
Set A 4 1
Solved
A
1 2 3 4
End
Move R
A
2 1 3 4
End
Move R3
A
1 3 2 4
End
Move Rw
A
1 2 4 3
End
Move (x)
A
4 2 3 1
End
";

#[test]
fn exact_move_names_win_over_the_notation() {
    let (p, _) = parse_puzzle(LOOKALIKES.as_bytes(), "look.def").unwrap();
    let id = |n: &str| p.move_by_name(n).unwrap();
    let moves = |t: &str| read(&p, t).unwrap().moves(&p, false);
    assert_eq!(
        moves("R3 Rw (x) R"),
        [id("R3"), id("Rw"), id("(x)"), id("R")]
    );
    // The notation still works around them: R has order 2, so R3 would be R.
    assert_eq!(moves("(R3 Rw)2"), [id("R3"), id("Rw"), id("R3"), id("Rw")]);
    assert_eq!(moves("Rw2"), Vec::<MoveId>::new());
}

#[test]
fn directed_moves_expand_to_repeats() {
    let p = load_puzzle(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/puzzles/2x2x2_directed.def"
    ))
    .unwrap()
    .0;
    assert_eq!(names(&p, "U'"), "U U U");
    assert_eq!(names(&p, "U2 R"), "U U R");
    assert_eq!(names(&p, "(U R)'"), "R R R U U U");
    let alg = read(&p, "[U, R]").unwrap();
    assert_eq!(alg.len(false), 8);
    // Inverting the expanded moves repeats each U three times (U' is U U U), inverting
    // the tree does not; both make the same position.
    let seq = alg.moves(&p, false);
    let id = Transform::identity(&p.sets);
    let flat = p.apply_sequence(&id, &inverse_sequence(&p, &seq));
    assert_eq!(flat, p.apply_sequence(&id, &alg.moves(&p, true)));
    assert!(p.apply_sequence(&flat, &seq).is_identity());
}

#[test]
fn order_of_known_algorithms() {
    let p = cube();
    let ord = |t: &str| order(&p, &read(&p, t).unwrap().moves(&p, false)).to_string();
    assert_eq!(ord("R U"), "105");
    assert_eq!(ord("R"), "4");
    assert_eq!(ord(""), "1");
    assert_eq!(ord("R2 U2"), "6");
    assert_eq!(ord("[R, U]"), "6");
}

#[test]
fn simplify_cancels_and_merges_across_commuting_moves() {
    let p = cube();
    let simp = |t: &str| {
        let seq = read(&p, t).unwrap().moves(&p, false);
        p.format_sequence(&simplify(&p, &seq))
    };
    assert_eq!(simp("R L R"), "R2 L");
    assert_eq!(simp("R R U U' R2"), "");
    assert_eq!(simp("R U U' R'"), "");
    assert_eq!(simp("R U R"), "R U R");
    assert_eq!(simp("U D U' D2 U2"), "D' U2");
}

/// A random algorithm in the notation, built from the 3x3x3's face names.
fn alg_text() -> impl Strategy<Value = String> {
    let leaf = (0..6usize, 0..6u32, any::<bool>()).prop_map(|(f, k, prime)| {
        let face = ["U", "D", "R", "L", "F", "B"][f];
        let power = if k == 1 { String::new() } else { k.to_string() };
        format!("{face}{power}{}", if prime { "'" } else { "" })
    });
    leaf.prop_recursive(3, 24, 4, |inner| {
        let seq = || prop::collection::vec(inner.clone(), 0..4).prop_map(|v| v.join(" "));
        let post = (0..4u32, any::<bool>())
            .prop_map(|(k, prime)| format!("{}{}", k, if prime { "'" } else { "" }));
        prop_oneof![
            seq(),
            (seq(), post.clone()).prop_map(|(a, p)| format!("({a}){p}")),
            (seq(), seq(), post.clone()).prop_map(|(a, b, p)| format!("[{a}, {b}]{p}")),
            (seq(), seq(), post).prop_map(|(a, b, p)| format!("[{a}: {b}]{p}")),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn inverse_undoes_and_is_an_involution(text in alg_text()) {
        let p = cube();
        let alg = read(&p, &text).unwrap();
        let seq = alg.moves(&p, false);
        let inv = alg.moves(&p, true);
        prop_assert_eq!(&inv, &inverse_sequence(&p, &seq));
        prop_assert_eq!(&inverse_sequence(&p, &inv), &seq);
        prop_assert_eq!(seq.len() as u64, alg.len(false));
        let there = p.apply_sequence(&Transform::identity(&p.sets), &seq);
        let back = p.apply_sequence(&there, &inv);
        prop_assert!(back.is_identity(), "{}", text);
    }

    #[test]
    fn simplify_keeps_the_position(text in alg_text()) {
        let p = cube();
        let seq = read(&p, &text).unwrap().moves(&p, false);
        let short = simplify(&p, &seq);
        prop_assert!(short.len() <= seq.len());
        let id = Transform::identity(&p.sets);
        prop_assert_eq!(p.apply_sequence(&id, &seq), p.apply_sequence(&id, &short));
        // Simplifying again changes nothing: the result has no adjacent merges left.
        prop_assert_eq!(simplify(&p, &short), short);
    }

    #[test]
    fn any_text_is_read_or_refused_without_panicking(
        text in "[RUF2'0-9()\\[\\],: /x\n\t]{0,40}"
    ) {
        let p = cube();
        if let Ok(alg) = read(&p, &text) {
            prop_assert_eq!(alg.moves(&p, false).len() as u64, alg.len(false));
            prop_assert_eq!(alg.moves(&p, true).len() as u64, alg.len(true));
        }
    }
}

#[test]
fn a_node_stays_small() {
    // A plain list of moves holds one node per move while it is read.
    assert_eq!(std::mem::size_of::<Node>(), 16);
}
