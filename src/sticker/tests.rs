//! The `Stickers` block's checks, each reported at the file, line and column concerned,
//! and the sticker permutations the moves induce.

use super::lettering::Lettering;
use crate::def::parse_puzzle;

const CUBE: &str = include_str!("../../puzzles/3x3x3.def");
const MEGAMINX: &str = include_str!("../../puzzles/megaminx.def");

/// The shipped 3x3x3 with one sticker line replaced.
fn with_line(old: &str, new: &str) -> String {
    assert!(CUBE.contains(old), "{old}");
    CUBE.replacen(old, new, 1)
}

/// The line number (1-based) of `text` in `file`.
fn line_of(file: &str, text: &str) -> usize {
    file.lines().position(|l| l == text).unwrap() + 1
}

fn error(file: &str) -> String {
    parse_puzzle(file.as_bytes(), "c.def")
        .unwrap_err()
        .to_string()
}

#[test]
fn the_shipped_maps_load() {
    let (p, _) = parse_puzzle(CUBE.as_bytes(), "c.def").unwrap();
    let map = p.stickers.as_ref().unwrap();
    assert_eq!(map.stickers.len(), 54);
    assert_eq!(map.faces, ['U', 'R', 'F', 'D', 'L', 'B']);
    assert_eq!(map.extent(), (9, 12));
}

#[test]
fn a_slot_shown_twice_is_refused_at_its_line() {
    let file = with_line("R 3 6 CORNERS 1 1", "R 3 6 CORNERS 1 0");
    let e = error(&file);
    let first = line_of(&file, "U 2 5 CORNERS 1 0");
    let at = line_of(&file, "R 3 6 CORNERS 1 0");
    assert!(e.starts_with(&format!("c.def:{at}:1:")), "{e}");
    assert!(
        e.contains(&format!(
            "slot 0 of position 1 of CORNERS is shown by a sticker already (line {first})"
        )),
        "{e}"
    );
}

#[test]
fn a_missing_slot_is_refused_at_the_block() {
    let file = with_line("R 3 6 CORNERS 1 1\n", "");
    let e = error(&file);
    let at = line_of(&file, "Stickers");
    assert!(e.starts_with(&format!("c.def:{at}:1:")), "{e}");
    assert!(
        e.contains("no sticker shows slot 1 of position 1 of CORNERS"),
        "{e}"
    );
}

#[test]
fn a_reversed_slot_order_is_caught_by_the_moves() {
    // URF's R and F stickers trade slots: a twist would then show them the wrong way
    // round, and R would carry R-face stickers off the R face.
    let file = with_line("R 3 6 CORNERS 1 1", "R 3 6 CORNERS 1 2").replacen(
        "F 3 5 CORNERS 1 2",
        "F 3 5 CORNERS 1 1",
        1,
    );
    let e = error(&file);
    assert!(e.contains("sends the stickers of face"), "{e}");
    assert!(e.contains("a slot order is probably reversed"), "{e}");
}

#[test]
fn bad_words_are_refused_at_their_column() {
    let cases = [
        (
            "U 0 3 CORNERS 3 0",
            "U 0 3 CORNER 3 0",
            7,
            "unknown set `CORNER`",
        ),
        (
            "U 0 3 CORNERS 3 0",
            "U 0 3 CORNERS 9 0",
            15,
            "expected a position of CORNERS from 1 to 8",
        ),
        (
            "U 0 3 CORNERS 3 0",
            "U 0 3 CORNERS 3 3",
            17,
            "expected a slot",
        ),
        (
            "U 0 3 CORNERS 3 0",
            "UP 0 3 CORNERS 3 0",
            1,
            "expected one letter or digit",
        ),
        (
            "U 0 3 CORNERS 3 0",
            "U 0 3 CORNERS 3",
            17,
            "expected `FACE ROW COLUMN SET POSITION SLOT`",
        ),
        (
            "U 0 3 CORNERS 3 0",
            "U 0 x CORNERS 3 0",
            5,
            "expected a net column",
        ),
        (
            "U 0 4 EDGES 3 0",
            "U 0 3 EDGES 3 0",
            1,
            "net cell row 0, column 3 holds a sticker already",
        ),
    ];
    for (old, new, col, want) in cases {
        let file = with_line(old, new);
        let e = error(&file);
        let at = line_of(&file, new);
        assert!(e.starts_with(&format!("c.def:{at}:{col}:")), "{new}: {e}");
        assert!(e.contains(want), "{new}: {e}");
    }
}

#[test]
fn one_map_per_definition() {
    let file = format!("{CUBE}\nStickers\nU 0 0 -\nEnd\n");
    let e = error(&file);
    assert!(e.contains("a second `Stickers` block"), "{e}");
}

#[test]
fn moves_induce_sticker_permutations() {
    let (p, _) = parse_puzzle(CUBE.as_bytes(), "c.def").unwrap();
    let map = p.stickers.as_ref().unwrap();
    for m in &p.moves {
        let perm = map.induced(&p.sets, &m.effect);
        let mut seen = vec![false; perm.len()];
        for &i in &perm {
            assert!(!seen[i], "{}", m.name);
            seen[i] = true;
        }
        // A quarter turn moves 20 stickers (8 on its face, 12 around it).
        let moved = perm.iter().enumerate().filter(|&(i, &j)| i != j).count();
        assert_eq!(moved, 20, "{}", m.name);
    }
}

#[test]
fn written_definitions_keep_their_map() {
    for text in [CUBE, include_str!("../../puzzles/skewb.def"), MEGAMINX] {
        let (p, _) = parse_puzzle(text.as_bytes(), "c.def").unwrap();
        let again = crate::def::write_def(&p);
        let (q, _) = parse_puzzle(again.as_bytes(), "w.def").unwrap();
        assert!(q.stickers.is_some());
        assert_eq!(q, p);
    }
}

/// The colour each face is drawn in, by face.
fn face_colours(text: &str) -> Vec<(char, crate::sticker::colour::Rgb)> {
    let (p, _) = parse_puzzle(text.as_bytes(), "c.def").unwrap();
    let map = p.stickers.unwrap();
    let mut out: Vec<_> = map
        .faces
        .iter()
        .map(|&f| (f, crate::sticker::colour::rgb(&map, f)))
        .collect();
    out.sort();
    out
}

#[test]
fn colours_go_by_face_name_not_by_order() {
    // The cube's faces in the order B L D F R U: the scheme stays the standard one.
    let start = CUBE.find("\nStickers\n").unwrap() + "\nStickers\n".len();
    let end = start + CUBE[start..].find("\nEnd\n").unwrap() + 1;
    let mut lines: Vec<&str> = CUBE[start..end].lines().collect();
    lines.sort_by_key(|l| std::cmp::Reverse("URFDLB".find(&l[..1]).unwrap()));
    let reordered = format!("{}{}\n{}", &CUBE[..start], lines.join("\n"), &CUBE[end..]);
    let colours = face_colours(&reordered);
    assert_eq!(colours, face_colours(CUBE));
    assert!(colours.contains(&('U', (0xff, 0xff, 0xff))), "{colours:?}");
    assert!(colours.contains(&('F', (0x10, 0xa0, 0x30))), "{colours:?}");
}

#[test]
fn colour_lines_name_the_colours_of_faces() {
    let colours = face_colours(MEGAMINX);
    assert!(colours.contains(&('F', (0x00, 0x88, 0x00))), "{colours:?}");
    assert!(colours.contains(&('D', (0x88, 0x88, 0x88))), "{colours:?}");
    let distinct: std::collections::HashSet<_> = colours.iter().map(|c| c.1).collect();
    assert_eq!(distinct.len(), 12);
    // A hexadecimal value, and a Colour line that overrides the cube scheme.
    let file = with_line("U 0 3 CORNERS 3 0", "U 0 3 CORNERS 3 0\nColour U #8040C0");
    assert!(face_colours(&file).contains(&('U', (0x80, 0x40, 0xc0))));
}

#[test]
fn bad_colour_lines_are_refused_at_their_column() {
    let cases = [
        (
            "Colour X red",
            8,
            "expected a face of the map, one of URFDLB",
        ),
        (
            "Colour U reddish",
            10,
            "`reddish` is no colour: expected #RRGGBB",
        ),
        ("Colour U #12345", 10, "`#12345` is no colour"),
        ("Colour U", 10, "2 words in a `Colour` line"),
        ("Colour U red x", 14, "expected `Colour FACE VALUE`"),
    ];
    for (line, col, want) in cases {
        let file = with_line("U 0 3 CORNERS 3 0", &format!("U 0 3 CORNERS 3 0\n{line}"));
        let e = error(&file);
        let at = line_of(&file, line);
        assert!(e.starts_with(&format!("c.def:{at}:{col}:")), "{line}: {e}");
        assert!(e.contains(want), "{line}: {e}");
    }
    let file = with_line(
        "U 0 3 CORNERS 3 0",
        "Colour U red\nU 0 3 CORNERS 3 0\nColour U blue",
    );
    let e = error(&file);
    let (first, at) = (
        line_of(&file, "Colour U red"),
        line_of(&file, "Colour U blue"),
    );
    assert!(e.starts_with(&format!("c.def:{at}:8:")), "{e}");
    assert!(e.contains(&format!("the first is at line {first}")), "{e}");
}

#[test]
fn typed_letters_come_back_and_other_faces_keep_their_names() {
    let (p, _) = parse_puzzle(include_bytes!("../../puzzles/3x3x3.def"), "3x3x3.def").unwrap();
    let map = p.stickers.as_ref().unwrap();
    // The solved cube typed with colour initials (white up, green front).
    let faces = map.colours(&p.sets, &p.solved);
    let by_face = |f: char| match f {
        'U' => 'W',
        'R' => 'R',
        'F' => 'G',
        'D' => 'Y',
        'L' => 'O',
        _ => 'B',
    };
    let letters: Vec<char> = faces.iter().map(|&f| by_face(f)).collect();
    let l = Lettering::new(map, &p.sets, &p.solved, &letters);
    for f in ['U', 'R', 'F', 'D', 'L', 'B'] {
        assert_eq!(l.letter(f), by_face(f));
    }
    assert_eq!(Lettering::default().letter('U'), 'U');
}
