//! The extension object: every feature no shipped puzzle has (forbidden pairs, costs,
//! a one-orientation "twist", partial masks, `SearchMoves` naming every move, a board
//! with joins) written and read back the same, each refusal of bad input at its spot,
//! and the refusal of a puzzle whose JSON would not read back.

use crate::kpuzzle::{read_definition, write_definition};
use crate::puzzle::Puzzle;

/// Move `X` "twists" position 1 of the one-orientation set `B` (so it touches it for
/// `Block`), `Y` is directed, and every ksolve-only block is given.
const EVERYTHING: &str = "Name ext
Set A 3 2
Set B 2 1
Solved
A
1 2 3
0 0 0
B
1 2
0 0
End

Move X
A
2 1 3
1 1 0
B
1 2
0 1
End

Move Y noinverse
A
2 3 1
0 0 0
End

Move Z
B
2 1
0 0
End

ForbiddenPairs
X Z
End

MoveCosts
X 3
End

SearchMoves X Y Z

Ignore
A
0 0 1
0 1 0
End

Block
A
1 2
End

Board A 3 1
Tiles . - X
Join 2 3 right
End
";

fn def(text: &str) -> Puzzle {
    crate::def::parse_puzzle(text.as_bytes(), "t.def")
        .unwrap()
        .0
}

#[test]
fn every_feature_reads_back_the_same() {
    let p = def(EVERYTHING);
    assert!(p.base_moves[0].touched[1][1], "X touches B's position 1");
    let out = write_definition(&p).unwrap();
    let (back, warnings) = read_definition(out.json.as_bytes(), "t.json").unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(back, p, "{}", out.json);
    for part in [
        r#""noinverse": ["Y"]"#,
        r#""touched""#,
        r#""X": { "B": [1] }"#,
        r#"["X", "Z"]"#,
        r#""X": 3"#,
        r#""searchMoves": ["X", "Y", "Z"]"#,
        r#""A": { "pieces": [0, 0, 1], "orientation": [0, 1, 0] }"#,
        r#"{ "A": [0, 1] }"#,
        r#""board": { "orbit": "A", "columns": 3, "rows": 1, "tiles": [".", "-", "X"], "joins": [{ "first": 1, "second": 2, "side": "right" }] }"#,
    ] {
        assert!(out.json.contains(part), "{part} in\n{}", out.json);
    }
}

#[test]
fn a_plain_puzzle_has_no_extension() {
    let p = def("Set A 3 1\nSolved\nA\n1 2 3\nEnd\nMove X\nA\n2 3 1\nEnd\n");
    let out = write_definition(&p).unwrap();
    assert!(!out.json.contains("ksolve"), "{}", out.json);
    // cubing.js requires a name; none is written as an empty one and read back as none.
    assert!(out.json.contains(r#""name": """#), "{}", out.json);
}

/// A guarded move is used only as given, so it has no powers, as with `When`.
#[test]
fn guarded_moves_are_directed_and_goals_are_sets() {
    let json = tiny(
        r#""guards": { "B": [{ "orbit": "P", "position": 0, "pieces": [0, 2] }] },
    "free": { "P": [1, 2] },
    "require": [{ "when": { "orbit": "P", "position": 1, "pieces": [1] }, "never": true }]"#,
    );
    let (p, _) = read_definition(json.as_bytes(), "t.json").unwrap();
    let b = &p.base_moves[1];
    assert!(b.directed && b.powers.len() == 1);
    assert_eq!(p.guards[1].as_ref().unwrap().conds[0].labels, [0, 2]);
    assert_eq!(p.free[0], [false, true, true]);
    assert_eq!(
        p.ignore[0].perm,
        [false, true, true],
        "a free position is ignored"
    );
    // Positions 1 and 2 share labels 1 and 2, and 1 may not stand at position 1.
    let goals = p.goal_positions(10).unwrap();
    assert_eq!(goals.len(), 1);
    assert_eq!(goals[0].sets[0].perm, [0, 2, 1]);
    let out = write_definition(&p).unwrap();
    assert_eq!(read_definition(out.json.as_bytes(), "again").unwrap().0, p);
}

/// The tiny puzzle of `kpuzzle/tests.rs` (orbit `P` of three pieces with two
/// orientations; moves `A` and `B`) with an extension holding `props`, which starts on
/// line 9.
fn tiny(props: &str) -> String {
    format!(
        r#"{{
  "orbits": [{{ "orbitName": "P", "numPieces": 3, "numOrientations": 2 }}],
  "defaultPattern": {{ "P": {{ "pieces": [0, 1, 2], "orientation": [0, 0, 0] }} }},
  "moves": {{
    "A": {{ "P": {{ "permutation": [1, 0, 2], "orientationDelta": [1, 1, 0] }} }},
    "B": {{ "P": {{ "permutation": [1, 2, 0], "orientationDelta": [0, 0, 0] }} }}
  }},
  "name": "tiny",
  "ksolve": {{ {props} }}
}}"#
    )
}

#[test]
fn bad_extensions_are_refused_at_the_spot() {
    let cases: [(&str, &str, &str); 18] = [
        (
            r#""colour": 1"#,
            r#""colour""#,
            "not a property of ksolve's extension",
        ),
        (
            r#""noinverse": ["Q"]"#,
            r#""Q""#,
            "`Q` is not a move of `moves`",
        ),
        (r#""noinverse": ["A", "A"]"#, r#""A"]"#, "listed twice"),
        (
            r#""guards": { "A": [{ "orbit": "P", "position": 3, "pieces": [0] }] }"#,
            "3,",
            "a position of orbit `P`",
        ),
        (
            r#""guards": { "A": [{ "orbit": "Q", "position": 0, "pieces": [0] }] }"#,
            r#""Q""#,
            "unknown orbit `Q`",
        ),
        (
            r#""require": [{ "when": { "orbit": "P", "position": 0, "pieces": [0] }, "never": true }]"#,
            r#"{ "when""#,
            "break this rule",
        ),
        (
            r#""require": [{ "when": { "orbit": "P", "position": 0, "pieces": [1] } }]"#,
            r#"{ "when""#,
            "exactly one of",
        ),
        (
            r#""moveCosts": { "A": 101 }"#,
            "101",
            "a cost, a whole number from 0 to 100",
        ),
        (r#""forbiddenPairs": [["A"]]"#, r#"["A"]"#, "expected two"),
        (
            r#""stickers": [{ "face": "UU", "row": 0, "col": 0 }]"#,
            r#""UU""#,
            "names a face",
        ),
        (r#""ignore": { "Q": {} }"#, r#""Q""#, "unknown orbit `Q`"),
        (
            r#""touched": { "A'": {} }"#,
            r#""A'""#,
            "not a move of `moves`",
        ),
        (
            r#""searchMoves": ["Q"]"#,
            r#""Q""#,
            "not a move of the definition",
        ),
        (
            r#""ignore": { "P": { "pieces": [0, 0, 2], "orientation": [0, 0, 0] } }"#,
            "2]",
            "from 0 to 1",
        ),
        (
            r##""colours": { "U": "#ffffff" }"##,
            "{ \"U",
            "without a sticker map",
        ),
        (
            r#""board": { "orbit": "P", "columns": 2, "rows": 1 }"#,
            "2,",
            "expected a divisor of 3",
        ),
        (
            r#""board": { "orbit": "P", "columns": 3, "rows": 1, "tiles": ["a b"] }"#,
            r#""a b""#,
            "without blanks",
        ),
        (
            r#""board": { "orbit": "P", "columns": 1, "rows": 3, "joins": [{ "first": 0, "second": 1, "side": "up" }] }"#,
            r#""up""#,
            "expected `right` or `down`",
        ),
    ];
    for (props, at, message) in cases {
        let json = tiny(props);
        let e = read_definition(json.as_bytes(), "t.json").unwrap_err();
        let text = e.to_string();
        assert!(text.contains(message), "{props}: {text}");
        let line = json.lines().nth(8).unwrap();
        let col = line.find(at).unwrap() + 1;
        assert_eq!((e.line, e.col), (9, col), "{props}: {text}");
    }
    let e = read_definition(tiny("").replace("{  }", "[]").as_bytes(), "t.json").unwrap_err();
    assert!(e.to_string().contains("ksolve's extension"), "{e}");
}

/// A move of its own made of guarded moves would need a guard per step.
#[test]
fn derived_moves_of_their_own_beside_guards_are_refused() {
    let json = tiny(r#""guards": { "B": [{ "orbit": "P", "position": 0, "pieces": [0] }] }"#)
        .replace(
            r#""name": "tiny","#,
            r#""name": "tiny", "derivedMoves": { "C": "A B" },"#,
        );
    let e = read_definition(json.as_bytes(), "t.json").unwrap_err();
    assert!(e.to_string().contains("guarded moves"), "{e}");
}

/// A puzzle built by hand may hold what no reader makes; its JSON would read back
/// different, so it is refused, with the part named.
#[test]
fn a_puzzle_that_would_read_back_different_is_refused() {
    let mut p = def("Set A 3 1\nSolved\nA\n1 2 3\nEnd\nMove X\nA\n2 3 1\nEnd\n");
    p.name = Some("  padded  ".to_string());
    let e = write_definition(&p).err().unwrap().to_string();
    assert!(e.contains("the name would read back different"), "{e}");
    p.name = Some("two\nlines".to_string());
    let e = write_definition(&p).err().unwrap().to_string();
    assert!(e.contains("the written JSON is refused"), "{e}");
}

/// The megaminx's sticker map names its faces' colours, which read back in their order;
/// a colour that is not `#RRGGBB`, or a face the map lacks, is refused.
#[test]
fn face_colours_read_back_and_are_checked() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/megaminx.def");
    let (p, _) = crate::def::load_puzzle(&path).unwrap();
    assert!(!p.stickers.as_ref().unwrap().face_colours.is_empty());
    let json = write_definition(&p).unwrap().json;
    assert_eq!(read_definition(json.as_bytes(), "m.json").unwrap().0, p);
    let e = read_definition(
        json.replacen("\"U\": \"#ffffff\"", "\"U\": \"#fffff\"", 1)
            .as_bytes(),
        "m.json",
    )
    .unwrap_err();
    assert!(e.to_string().contains("is no colour"), "{e}");
    let e = read_definition(
        json.replacen("\"U\": \"#ffffff\"", "\"Q\": \"#ffffff\"", 1)
            .as_bytes(),
        "m.json",
    )
    .unwrap_err();
    assert!(e.to_string().contains("expected a face of the map"), "{e}");
}
