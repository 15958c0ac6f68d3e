//! `ksolve show` and `solve --steps`: the nets they print (snapshots, colour off), the
//! SVG pictures (rendered by a real SVG renderer), and the ksolve+ form for puzzles
//! without a sticker map.

use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs ksolve in the repository root: exit code and standard output.
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
fn show_prints_the_net() {
    let (code, out) = ksolve(&[
        "show",
        "puzzles/3x3x3.def",
        "--alg",
        "R U",
        "--color",
        "never",
    ]);
    assert_eq!(code, Some(0));
    insta::assert_snapshot!("show_3x3x3_r_u", out);
    let (code, out) = ksolve(&[
        "show",
        "puzzles/2x2x2.def",
        "--alg",
        "F",
        "--color",
        "never",
    ]);
    assert_eq!(code, Some(0));
    insta::assert_snapshot!("show_2x2x2_f", out);
    // Not a terminal: plain letters without --color too.
    let (_, plain) = ksolve(&["show", "puzzles/2x2x2.def", "--alg", "F"]);
    assert_eq!(plain, out);
    let (_, coloured) = ksolve(&[
        "show",
        "puzzles/2x2x2.def",
        "--alg",
        "F",
        "--color",
        "always",
    ]);
    assert!(coloured.contains("\u{1b}["), "{coloured}");
}

#[test]
fn show_reads_facelets_and_says_why_a_colouring_is_impossible() {
    let superflip = "UBULURUFURURFRBRDRFUFLFRFDFDFDLDRDBDLULBLFLDLBUBRBLBDB";
    let (code, out) = ksolve(&["show", "puzzles/3x3x3.def", "--facelets", superflip]);
    assert_eq!(code, Some(0), "{out}");
    insta::assert_snapshot!("show_superflip", out);
    let twisted = "UUUUUUUUFURRRRRRRRFFRFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB";
    let (code, out) = ksolve(&["show", "puzzles/3x3x3.def", "--facelets", twisted]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("the corner U-R-F is twisted"), "{out}");
}

#[test]
fn a_puzzle_without_a_sticker_map_shows_its_position_in_ksolve_form() {
    let (code, out) = ksolve(&["show", "puzzles/4x4x4_centres.def", "--alg", "U"]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.starts_with("CENTRES\n"), "{out}");
    let (code, out) = ksolve(&["show", "puzzles/4x4x4_centres.def", "--svg", "x.svg"]);
    assert_eq!(code, Some(2), "{out}");
    assert!(out.contains("no `Stickers` or `Board` block"), "{out}");
    assert!(!root().join("x.svg").exists());
}

#[test]
fn solve_steps_prints_the_net_after_each_move() {
    let (code, out) = ksolve(&[
        "solve",
        "puzzles/2x2x2.def",
        "--facelets",
        // R U from solved.
        "UUFFUBRRRRFDDBDBFDLLLLUB",
        "--steps",
        "--no-cache",
        "--count",
        "1",
        "--quiet",
    ]);
    assert_eq!(code, Some(0), "{out}");
    insta::assert_snapshot!("solve_steps_2x2x2", out);
}

/// The pictures in `docs/` are what `show --svg` draws today, and a real SVG renderer
/// draws them with the right colours where the stickers are.
#[test]
fn svg_pictures_render() {
    let dir = tempfile::tempdir().unwrap();
    for (name, alg) in [
        ("cube-solved.svg", ""),
        ("cube-scrambled.svg", "R U F' L2 D B'"),
    ] {
        let path = dir.path().join(name);
        let mut args = vec!["show", "puzzles/3x3x3.def", "--svg", path.to_str().unwrap()];
        if !alg.is_empty() {
            args.extend(["--alg", alg]);
        }
        let (code, out) = ksolve(&args);
        assert_eq!(code, Some(0), "{out}");
        let drawn = std::fs::read_to_string(&path).unwrap();
        let shipped = std::fs::read_to_string(root().join("docs").join(name)).unwrap();
        assert_eq!(drawn, shipped, "docs/{name} is out of date");
        let pixmap = crate::common::render_svg(&drawn);
        // The U centre (row 1, column 4 of the net) is white and the F centre (row 4,
        // column 4) green; the corner of the picture is left transparent.
        let at = |row: u32, col: u32| {
            let p = pixmap.pixel(col * 30 + 4 + 6, row * 30 + 4 + 6).unwrap();
            (p.red(), p.green(), p.blue(), p.alpha())
        };
        assert_eq!(at(1, 4), (0xff, 0xff, 0xff, 0xff), "{name}");
        assert_eq!(at(4, 4), (0x10, 0xa0, 0x30, 0xff), "{name}");
        assert_eq!(pixmap.pixel(1, 1).unwrap().alpha(), 0, "{name}");
    }
}
