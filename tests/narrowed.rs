//! Searching on the moves a batch may use (`solve::narrow`): a definition's
//! `SearchMoves`, `--moves` or a `MoveLimits` block that leaves moves out makes the
//! search run on the puzzle without them, with tables built for the moves it makes. The
//! answers must not change, and the narrowed puzzle's cached tables must never be read
//! for the whole puzzle (or the other way round).

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `ksolve solve` in the repository root, tables in `tables` (or none): exit code and
/// standard output.
fn solve(tables: Option<&Path>, args: &[&str]) -> (Option<i32>, String) {
    let mut cmd = crate::common::ksolve();
    cmd.current_dir(root()).arg("solve").args(args).arg("-q");
    match tables {
        Some(dir) => cmd.arg("--tables").arg(dir),
        None => cmd.arg("--no-cache"),
    };
    let out = cmd.output().unwrap();
    (out.status.code(), String::from_utf8(out.stdout).unwrap())
}

/// The solution lines of a text answer.
fn solutions(text: &str) -> Vec<&str> {
    text.lines().filter(|l| l.starts_with("  ")).collect()
}

#[test]
fn the_wca_cube_solves_as_the_ksolve_plus_cube() {
    // Face-turn scrambles: the same optimal solutions in the same order, although the
    // WCA cube also defines slices, rotations and wide turns (left out of searches).
    let dir = tempfile::tempdir().unwrap();
    for alg in ["R U R' U'", "F2 D' L B2 R' U", "R U2 D' B D'"] {
        let (code, whole) = solve(Some(dir.path()), &["puzzles/3x3x3.def", "--alg", alg]);
        assert_eq!(code, Some(0));
        let (code, wca) = solve(Some(dir.path()), &["puzzles/3x3x3_wca.def", "--alg", alg]);
        assert_eq!(code, Some(0));
        assert!(!solutions(&whole).is_empty());
        assert_eq!(solutions(&whole), solutions(&wca), "{alg}");
    }
}

#[test]
fn a_scramble_with_slices_is_solved_when_moves_allow_them() {
    let dir = tempfile::tempdir().unwrap();
    // M moves the centres, which face turns cannot bring back: refused with the moves
    // that were left, and solved once --moves lets the search use M.
    let (code, out) = solve(Some(dir.path()), &["puzzles/3x3x3_wca.def", "--alg", "M U"]);
    assert_eq!(code, Some(1));
    assert!(
        out.contains("with only the moves SearchMoves and MoveLimits allow (U U2 U' D D2 D'"),
        "{out}"
    );
    let (code, out) = solve(
        Some(dir.path()),
        &["puzzles/3x3x3_wca.def", "--alg", "M U", "--moves", "U,M"],
    );
    assert_eq!(code, Some(0));
    assert_eq!(solutions(&out), vec!["  U' M'"]);
}

#[test]
fn narrowed_and_whole_tables_never_stand_in_for_each_other() {
    // The 2x2x2 solved with --moves R,U (narrowed) and then with every move, in one
    // tables folder, answers as each does with no cache at all; and the other way round.
    for order in [[true, false], [false, true]] {
        let dir = tempfile::tempdir().unwrap();
        let alg = "R U R' U R U2 R' U";
        for narrowed in order {
            let mut args = vec!["puzzles/2x2x2.def", "--alg", alg, "--slack", "1"];
            if narrowed {
                args.extend(["--moves", "R,U"]);
            }
            let cached = solve(Some(dir.path()), &args);
            let fresh = solve(None, &args);
            assert_eq!(cached, fresh, "{args:?}");
        }
        let (_, restricted) = solve(
            Some(dir.path()),
            &["puzzles/2x2x2.def", "--alg", "R U R' U'", "--moves", "R,U"],
        );
        assert_eq!(solutions(&restricted), vec!["  U R U' R'"]);
    }
}

#[test]
fn a_scramble_file_limit_that_names_an_unsearched_move_lets_the_search_use_it() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("m.txt");
    std::fs::write(
        &file,
        "MoveLimits\nM* 2\nEnd\nScrambleAlg slice\nM2 U M2\nEnd\n",
    )
    .unwrap();
    let (code, out) = solve(
        Some(dir.path()),
        &["puzzles/3x3x3_wca.def", file.to_str().unwrap()],
    );
    assert_eq!(code, Some(0), "{out}");
    // At most two M turns, and face turns: M2 U' M2 is found, as is nothing shorter.
    assert_eq!(solutions(&out)[0], "  M2 U' M2");
}
