//! Boards (the `Board ... End` block): the grids `show`, `solve --steps` and `play`
//! draw for the sliding puzzles and Rotate (snapshots), their SVG pictures (rendered by a
//! real SVG renderer and sampled), and the located errors of a malformed block.

use ksolve::def::{parse_puzzle, write_def};
use ksolve::picture::board::{BOARD_RGB, CELL, MARGIN, TILE_RGB};
use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs ksolve in the repository root: exit code and standard output and error.
fn ksolve(args: &[&str]) -> (Option<i32>, String) {
    let out = crate::common::ksolve()
        .current_dir(root())
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap() + &String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn show_draws_every_board() {
    for (name, alg) in [
        ("15puzzle", "L16 U15 L11"),
        ("8puzzle", ""),
        ("klotski", "H9R"),
        ("klotski_slide", "H9R2"),
        ("rotate", "A F"),
    ] {
        let def = format!("puzzles/{name}.def");
        let mut args = vec!["show", def.as_str()];
        if !alg.is_empty() {
            args.extend(["--alg", alg]);
        }
        let (code, out) = ksolve(&args);
        assert_eq!(code, Some(0), "{name}: {out}");
        insta::assert_snapshot!(format!("board_{name}"), out);
    }
}

/// `solve --steps` draws the board after every move.
#[test]
fn steps_draw_the_board() {
    let (code, out) = ksolve(&[
        "solve",
        "puzzles/8puzzle.def",
        "--alg",
        "L9 U8",
        "--steps",
        "--quiet",
    ]);
    assert_eq!(code, Some(0), "{out}");
    insta::assert_snapshot!("board_steps_8puzzle", out);
}

/// A cell (row, column) and what its inside should show: `board` or `tile`.
type Sample = ((u32, u32), &'static str);

/// The SVG of a scrambled 15-puzzle and of Klotski: the blank cell shows the board, a
/// tile its colour, a wall between two tiles is dark, the inside of a joined piece is
/// not, and the picture's corner is transparent.
#[test]
fn board_svgs_render() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&str, &str, &[Sample]); 2] = [
        (
            "15puzzle",
            "L16 U15",
            &[((2, 2), "board"), ((3, 3), "tile"), ((0, 0), "tile")],
        ),
        (
            "klotski",
            "",
            // Row 2 holds the horizontal bar (columns 0-1) and the two empty cells.
            &[((2, 2), "board"), ((2, 3), "board"), ((2, 0), "tile")],
        ),
    ];
    for (name, alg, samples) in cases {
        let path = dir.path().join(format!("{name}.svg"));
        let def = format!("puzzles/{name}.def");
        let mut args = vec!["show", def.as_str(), "--svg", path.to_str().unwrap()];
        if !alg.is_empty() {
            args.extend(["--alg", alg]);
        }
        let (code, out) = ksolve(&args);
        assert_eq!(code, Some(0), "{out}");
        let pixmap = crate::common::render_svg(&std::fs::read_to_string(&path).unwrap());
        let rgb = |x: u32, y: u32| {
            let p = pixmap.pixel(x, y).unwrap();
            (p.red(), p.green(), p.blue())
        };
        let (cell, margin) = (CELL as u32, MARGIN as u32);
        // A point inside a cell, clear of its walls and of any text.
        let inside = |r: u32, c: u32| rgb(margin + c * cell + 6, margin + r * cell + 6);
        for &((r, c), what) in samples {
            let want = if what == "board" { BOARD_RGB } else { TILE_RGB };
            assert_eq!(
                inside(r, c),
                want,
                "{name}: cell ({r}, {c}) should show {what}"
            );
        }
        // The wall between the two top-left cells, each a piece of its own.
        let dark = |(r, g, b): (u8, u8, u8)| r < 0x60 && g < 0x60 && b < 0x60;
        assert!(dark(rgb(margin + cell, margin + cell / 2)), "{name}: wall");
        assert_eq!(pixmap.pixel(0, 0).unwrap().alpha(), 0, "{name}: corner");
    }
    // Inside Klotski's big block (rows 3-4, columns 1-2) no wall is drawn.
    let path = dir.path().join("klotski.svg");
    let pixmap = crate::common::render_svg(&std::fs::read_to_string(path).unwrap());
    let (cell, margin) = (CELL as u32, MARGIN as u32);
    let p = pixmap.pixel(margin + 2 * cell, margin + 4 * cell).unwrap();
    assert_eq!(
        (p.red(), p.green(), p.blue()),
        TILE_RGB,
        "inside the big block"
    );
}

/// A board survives `write_def` and reading back.
#[test]
fn a_board_reads_back_from_write_def() {
    let path = root().join("puzzles/rotate.def");
    let p = ksolve::def::load_puzzle(&path).unwrap().0;
    assert!(p.board.is_some());
    let again = parse_puzzle(write_def(&p).as_bytes(), "rotate.def")
        .unwrap()
        .0;
    assert_eq!(again, p);
}

/// Each malformed `Board` block is refused at its line and word, saying what was
/// expected.
#[test]
fn malformed_boards_are_located() {
    let head = "Set Cells 4 1\nSolved\nCells\n1 2 3 4\nEnd\nMove S\nCells\n2 1 3 4\nEnd\n";
    let mut report = String::new();
    for body in [
        "Board Cells 3 1\nEnd\n",
        "Board Cells 2 2 2\nEnd\n",
        "Board Tiles 2 2\nEnd\n",
        "Board Cells 2 x\nEnd\n",
        "Board Cells 2 2\nTiles 1 2 3 4 5\nEnd\n",
        "Board Cells 2 2\nTiles A B\nTiles C D\nEnd\n",
        "Board Cells 2 2\nTiles ABCDEFGHIJ\nEnd\n",
        "Board Cells 2 2\nJoin 1 5 right\nEnd\n",
        "Board Cells 2 2\nJoin 1 2 up\nEnd\n",
        "Board Cells 2 2\nJoin 1 2\nEnd\n",
        "Board Cells 2 2\nShade 1\nEnd\n",
        "Board Cells 2 2\n",
        "Board Cells 2 2\nEnd\nBoard Cells 4 1\nEnd\n",
    ] {
        let text = format!("{head}{body}");
        let e = parse_puzzle(text.as_bytes(), "board.def").unwrap_err();
        report.push_str(&format!("{e}\n"));
    }
    insta::assert_snapshot!("board_errors", report);
}
