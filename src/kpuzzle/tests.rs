use super::*;
use crate::puzzle::{Puzzle, ScrambleSource};

/// Three pieces with two orientations, moves `A` (swap 0 and 1, twisting both) and
/// `B` (a 3-cycle), and the given derived moves.
fn tiny(derived: &str) -> String {
    format!(
        r#"{{
  "name": "tiny",
  "orbits": [{{ "orbitName": "P", "numPieces": 3, "numOrientations": 2 }}],
  "defaultPattern": {{ "P": {{ "pieces": [0, 1, 2], "orientation": [0, 0, 0] }} }},
  "moves": {{
    "A": {{ "P": {{ "permutation": [1, 0, 2], "orientationDelta": [1, 1, 0] }} }},
    "B": {{ "P": {{ "permutation": [1, 2, 0], "orientationDelta": [0, 0, 0] }} }}
  }}{derived}
}}"#
    )
}

fn read(text: &str) -> Result<Puzzle, crate::located::DefError> {
    read_definition(text.as_bytes(), "t.json").map(|(p, _)| p)
}

#[test]
fn moves_read_as_cubing_js_applies_them() {
    let p = read(&tiny("")).unwrap();
    assert_eq!(p.name.as_deref(), Some("tiny"));
    let a = &p.mv(p.move_by_name("A").unwrap()).effect;
    // cubing.js: new.pieces[i] = old.pieces[permutation[i]], new.orientation[i] =
    // old.orientation[permutation[i]] + orientationDelta[i]; ksolve's moves are stored
    // in exactly that form.
    assert_eq!(a.sets[0].perm, [1, 0, 2]);
    assert_eq!(a.sets[0].ori, [1, 1, 0]);
    // Twisting both swapped pieces by 1 of 2 twists nothing after two turns.
    assert_eq!(p.base_moves[0].order, 2);
    assert_eq!(p.base_moves[1].order, 3);
    assert_eq!(
        p.moves.iter().map(|m| m.name.as_str()).collect::<Vec<_>>(),
        ["A", "B", "B'"]
    );
}

#[test]
fn derived_moves_become_aliases_or_moves_in_any_order() {
    // `D` uses `C`, which comes after it; `E` is `B'` under another name.
    let p = read(&tiny(
        r#", "derivedMoves": { "D": "C2", "C": "[A: B]", "E": "B'" }"#,
    ))
    .unwrap();
    assert_eq!(p.base_moves.len(), 3);
    assert_eq!(p.base_moves[2].name, "C");
    let e = p.move_by_name("E").unwrap();
    assert_eq!(p.mv(e).name, "B'");
    // An alias brings its powers: `E'` is `B`.
    assert_eq!(p.mv(p.move_by_name("E'").unwrap()).name, "B");
    let d = p.move_by_name("D").unwrap();
    assert_eq!(p.mv(d).base, 2);
}

#[test]
fn derived_moves_that_use_each_other_are_refused_at_the_algorithm() {
    let e = read(&tiny(r#", "derivedMoves": { "C": "D", "D": "C" }"#)).unwrap_err();
    let text = e.to_string();
    assert!(text.contains("unknown move `D`"), "{text}");
    // Located in the file, the caret under the name inside the string.
    assert_eq!((e.line, e.col), (8, 30), "{text}");
    assert!(e.text.contains(r#""C": "D""#), "{text}");
}

#[test]
fn refusals_name_the_spot() {
    let cases = [
        (
            tiny("").replace("[1, 2, 0]", "[1, 1, 0]"),
            (7, 38),
            "appears twice in the permutation",
        ),
        (
            tiny("").replace(r#""B": { "P""#, r#""B": { "Q""#),
            (7, 12),
            "unknown orbit `Q`",
        ),
        (
            tiny("").replace("[1, 1, 0] }", "[1, 2, 0] }"),
            (6, 69),
            "from 0 to 1",
        ),
        (
            tiny("").replace("\"orbitName\": \"P\", ", ""),
            (3, 14),
            "no `orbitName`",
        ),
        (
            tiny("").replace("[0, 0, 0] } }\n", "[0, 0, 0] } },\n"),
            (7, 78),
            "expected JSON",
        ),
        (
            tiny("").replace(
                "[1, 0, 2], \"orientationDelta\": [1, 1, 0]",
                "[0, 1, 2], \"orientationDelta\": [0, 0, 0]",
            ),
            (6, 5),
            "changes nothing",
        ),
        (
            tiny(r#", "derivedMoves": { "B'": "A" }"#),
            (8, 24),
            "distinct names",
        ),
    ];
    for (text, (line, col), message) in cases {
        let e = read(&text).unwrap_err();
        let shown = e.to_string();
        assert!(shown.contains(message), "{shown}");
        assert_eq!((e.line, e.col), (line, col), "{shown}\n{text}");
        assert!(
            shown.starts_with(&format!("t.json:{line}:{col}: ")),
            "{shown}"
        );
    }
}

#[test]
fn deep_nesting_and_bad_bytes_are_refused_without_recursing() {
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let e = read(&format!(r#"{{"orbits": {deep}}}"#)).unwrap_err();
    assert!(e.to_string().contains("nest deeper"), "{e}");
    let e = read_definition(b"{\"name\": \"\xff\"}", "t.json").unwrap_err();
    assert!(e.to_string().contains("not UTF-8"), "{e}");
    assert!(read("{}").unwrap_err().to_string().contains("no `orbits`"));
    // A name ksolve+'s `Name` line could not hold, or a number as a move's name.
    let e = read(&tiny("").replace("\"tiny\"", "\"ti\\u001dny\"")).unwrap_err();
    assert!(e.to_string().contains("control character"), "{e}");
    let e = read(&tiny("").replace("\"B\": {", "\"12\": {")).unwrap_err();
    assert!(e.to_string().contains("read as vectors"), "{e}");
    let e = read(&tiny("").replace("\"B\": {", "\"-B\": {")).unwrap_err();
    assert!(e.to_string().contains("`-B` cannot name a move"), "{e}");
    let p = read(&tiny("").replace("\"tiny\"", "\"  \"")).unwrap();
    assert_eq!(p.name, None);
    assert!(read("[1]")
        .unwrap_err()
        .to_string()
        .contains("expected a KPuzzle definition"));
}

#[test]
fn an_orientation_modulus_reduces_the_orbits_twists() {
    let four = tiny("")
        .replace("\"numOrientations\": 2", "\"numOrientations\": 4")
        .replace("[1, 1, 0] }", "[1, 3, 0] }");
    let p = read(&four).unwrap();
    assert_eq!(p.sets[0].orientations, 4);
    let ignored = four.replace(
        "\"orientation\": [0, 0, 0] }",
        "\"orientation\": [0, 0, 0], \"orientationMod\": [1, 1, 1] }",
    );
    // Known modulo 1: the goal does not look at the twists at all, as cubing.js's does
    // not look at the 3x3x3's centres.
    let p = read(&ignored).unwrap();
    assert_eq!(p.sets[0].orientations, 1);
    assert!(p.ignore[0].ori.iter().all(|&b| !b));
    let halves = four.replace(
        "\"orientation\": [0, 0, 0] }",
        "\"orientation\": [0, 0, 0], \"orientationMod\": [2, 2, 2] }",
    );
    let p = read(&halves).unwrap();
    assert_eq!(p.sets[0].orientations, 2);
    assert_eq!(
        p.mv(p.move_by_name("A").unwrap()).effect.sets[0].ori,
        [1, 1, 0]
    );
}

/// The tiny puzzle with four orientations, and with orientation ignorable at position 0
/// only (the extension's `ignore`).
fn four() -> Puzzle {
    read(
        &tiny(r#", "ksolve": { "ignore": { "P": { "pieces": [0, 0, 0], "orientation": [1, 0, 0] } } }"#)
            .replace("\"numOrientations\": 2", "\"numOrientations\": 4")
            .replace("[1, 1, 0] }", "[1, 3, 0] }"),
    )
    .unwrap()
}

/// A pattern's modulus travels with its piece, as in cubing.js: it applies at the
/// piece's home, where the solved state puts it.
#[test]
fn pattern_moduli_apply_where_the_piece_ends() {
    let p = four();
    let with = |pieces: &str, mods: &str| {
        pattern(
            &p,
            &format!(
                r#"{{ "P": {{ "pieces": {pieces}, "orientation": [0, 1, 0], "orientationMod": {mods} }} }}"#
            ),
        )
    };
    // Piece 0 stands at position 1, its twist known modulo 2: the goal is the solved
    // state with position 0 twisted 0 or 2.
    let s = with("[1, 0, 2]", "[0, 2, 0]").unwrap();
    let goal = s.settings.goal.as_ref().unwrap();
    let oris: Vec<&[u8]> = goal
        .positions
        .iter()
        .map(|g| &g.target.state.sets[0].ori[..])
        .collect();
    assert_eq!(oris, [[0, 0, 0], [2, 0, 0]]);
    // Known (0 or 4) everywhere: the definition's goal.
    assert!(with("[1, 0, 2]", "[0, 4, 0]")
        .unwrap()
        .settings
        .goal
        .is_none());
    // Unknown (1): ignored at position 0, which `Ignore` allows, not at position 1.
    let s = with("[1, 0, 2]", "[0, 1, 0]").unwrap();
    let ScrambleSource::Position(t) = &s.source else {
        panic!("{s:?}")
    };
    assert_eq!(t.ignore[0].ori, [true, false, false]);
    let e = with("[1, 0, 2]", "[1, 0, 0]").unwrap_err();
    assert!(e.to_string().contains("ends at position 1"), "{e}");
    let e = with("[1, 0, 2]", "[0, 3, 0]").unwrap_err();
    assert!(e.to_string().contains("does not divide the 4"), "{e}");
    assert_eq!(e.col, 79, "{e}");
}

#[test]
fn pattern_moduli_of_interchangeable_pieces_agree_and_are_bounded() {
    let two = tiny("").replacen("\"pieces\": [0, 1, 2]", "\"pieces\": [0, 1, 1]", 1);
    let p = read(
        &two.replace("\"numOrientations\": 2", "\"numOrientations\": 4")
            .replace("[1, 1, 0] }", "[1, 3, 0] }"),
    )
    .unwrap();
    let e = pattern(
        &p,
        r#"{ "P": { "pieces": [0, 1, 1], "orientation": [0, 0, 0], "orientationMod": [0, 2, 0] } }"#,
    )
    .unwrap_err();
    assert!(e.to_string().contains("share one modulus"), "{e}");
    // Both copies known modulo 2: either may end at either home.
    let s = pattern(
        &p,
        r#"{ "P": { "pieces": [1, 0, 1], "orientation": [0, 0, 1], "orientationMod": [2, 0, 2] } }"#,
    )
    .unwrap();
    assert_eq!(s.settings.goal.as_ref().unwrap().positions.len(), 4);
    // Thirteen pieces of four orientations known modulo 2 make 2^13 goal positions.
    let n = 13;
    let ids: Vec<usize> = (0..n).collect();
    let zeros = vec![0; n];
    let big = format!(
        r#"{{ "orbits": [{{ "orbitName": "P", "numPieces": {n}, "numOrientations": 4 }}],
  "defaultPattern": {{ "P": {{ "pieces": {ids:?}, "orientation": {zeros:?} }} }},
  "moves": {{ "A": {{ "P": {{ "permutation": {:?}, "orientationDelta": {zeros:?} }} }} }} }}"#,
        (1..n).chain([0]).collect::<Vec<_>>()
    );
    let p = read(&big).unwrap();
    let e = pattern(
        &p,
        &format!(r#"{{ "P": {{ "pieces": {ids:?}, "orientation": {zeros:?}, "orientationMod": {:?} }} }}"#, vec![2; n]),
    )
    .unwrap_err();
    assert!(
        e.to_string().contains("more than 4096 goal positions"),
        "{e}"
    );
}

#[test]
fn unknown_properties_are_warned_about() {
    let text = tiny("").replacen("\"name\"", "\"colour\": 3,\n  \"name\"", 1);
    let (_, warnings) = read_definition(text.as_bytes(), "t.json").unwrap();
    assert_eq!(warnings.len(), 1);
    assert!(warnings[0].message.contains("`colour`"), "{}", warnings[0]);
}

#[test]
fn written_definitions_read_back_the_same() {
    let p = read(&tiny(r#", "derivedMoves": { "C": "[A: B]", "E": "B'" }"#)).unwrap();
    let out = write_definition(&p).unwrap();
    let (back, warnings) = read_definition(out.json.as_bytes(), "again").unwrap();
    assert!(warnings.is_empty());
    assert_eq!(back, p, "{}", out.json);
    // Only the alias itself is written; its powers come back when it is read.
    assert!(out.json.contains(r#""E": "B'""#), "{}", out.json);
    assert!(!out.json.contains(r#""E'""#), "{}", out.json);
    // The ksolve+ form keeps the alias too, as a `MoveAlias` line.
    let text = crate::def::write_def(&p);
    let (again, _) = crate::def::parse_puzzle(text.as_bytes(), "again.def").unwrap();
    assert_eq!(again, p, "{text}");
}

fn pattern(p: &Puzzle, json: &str) -> Result<crate::puzzle::Scramble, crate::located::DefError> {
    read_pattern(json.as_bytes(), "p.json", "p", p)
}

#[test]
fn patterns_are_positions() {
    let p = read(&tiny("")).unwrap();
    let s = pattern(
        &p,
        r#"{ "P": { "pieces": [1, 0, 2], "orientation": [1, 1, 0] } }"#,
    )
    .unwrap();
    let ScrambleSource::Position(t) = &s.source else {
        panic!("{s:?}")
    };
    assert_eq!(&t.state, &p.mv(p.move_by_name("A").unwrap()).effect);
    let e = pattern(
        &p,
        r#"{ "P": { "pieces": [1, 1, 2], "orientation": [1, 1, 0] } }"#,
    )
    .unwrap_err();
    assert!(e.to_string().contains("more often"), "{e}");
    let e = pattern(&p, r#"{ "P": { "pieces": [0, 1, 2], "orientation": [0, 0, 0], "orientationMod": [1, 0, 0] } }"#)
    .unwrap_err();
    assert!(e.to_string().contains("does not allow"), "{e}");
}

#[test]
fn json_is_told_from_ksolve_text() {
    assert!(is_json(b"  \n{\"a\": 1}"));
    assert!(is_json(b"\xef\xbb\xbf{}"));
    assert!(!is_json(b"Name x\nSet A 2 1\n"));
    assert!(!is_json(b"# {comment}\n"));
    assert!(!is_json(b""));
}

#[test]
fn moduli_that_differ_within_an_orbit_are_the_goals() {
    // Pieces 0 and 2 may show either twist: the goal is a set, the orbit keeps its two
    // orientations, and what is free may be left unsolved by scrambles too.
    let text = tiny("").replace(
        "\"orientation\": [0, 0, 0] }",
        "\"orientation\": [0, 0, 0], \"orientationMod\": [1, 0, 1] }",
    );
    let p = read(&text).unwrap();
    assert_eq!(p.sets[0].orientations, 2);
    assert_eq!(p.known_mod, [[1, 2, 1]]);
    assert_eq!(p.ignore[0].ori, [true, false, true]);
    let mut twisted = p.solved.clone();
    twisted.sets[0].ori = vec![1, 0, 1];
    assert!(p.is_solved(&twisted, &[]));
    twisted.sets[0].ori = vec![0, 1, 0];
    assert!(!p.is_solved(&twisted, &[]));
    // A shared modulus is the orbit's count, unless `moduloGoal` names the orbit.
    let shared = tiny("").replace(
        "\"orientation\": [0, 0, 0] }",
        "\"orientation\": [0, 0, 0], \"orientationMod\": [1, 1, 1] }",
    );
    assert_eq!(read(&shared).unwrap().sets[0].orientations, 1);
    let named = shared.replacen('{', "{ \"ksolve\": { \"moduloGoal\": [\"P\"] },", 1);
    let p = read(&named).unwrap();
    assert_eq!(
        (p.sets[0].orientations, &p.known_mod[..]),
        (2, &[vec![1, 1, 1]][..])
    );
}
