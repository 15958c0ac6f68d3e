//! `ksolve play`: scripted sessions read from standard input (transcripts as
//! snapshots) on the 3x3x3 (macros with redefinition and forget, undo and reset, the
//! checkerboard by `solve CHECKERS`, an impossible entered cube judged by `check`) and on
//! the Rotate board (a level-5 scramble solved in at most 5 moves, the one swap per
//! game), and the interactive path in a real pseudo-terminal.

use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A temporary folder holding a copy of the shipped definition `def`, so that the macro
/// file a session saves next to it stays out of the repository.
fn copy_def(def: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let to = dir.path().join(Path::new(def).file_name().unwrap());
    std::fs::copy(root().join(def), &to).unwrap();
    (dir, to)
}

/// Runs `ksolve play DEF [SCR] --seed 1 --no-clock --quiet` in a tables folder of the
/// test's own, with `script` on standard input: exit code and standard output, with
/// the temporary folder's path replaced by `[DIR]`.
fn play(dir: &Path, def: &Path, scr: Option<&str>, extra: &[&str], script: &str) -> (i32, String) {
    let mut cmd = crate::common::ksolve();
    cmd.current_dir(root()).arg("play").arg(def);
    if let Some(s) = scr {
        cmd.arg(s);
    }
    let out = cmd
        .args(["--seed", "1", "--no-clock", "--quiet", "--tables"])
        .arg(dir.join("tables"))
        .args(extra)
        .write_stdin(script)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let text = text.replace(&dir.display().to_string(), "[DIR]");
    (out.status.code().unwrap(), text)
}

#[test]
fn cube_macros_redefine_forget_undo_reset_and_save() {
    let (dir, def) = copy_def("puzzles/3x3x3.def");
    let script = "\
def SEXY R U R' U'
def TWICE SEXY2
def SEXY R U2
def LAST F
list
TWICE SEXY'
undo
reset
forget SEXY
list
save
";
    let (code, out) = play(dir.path(), &def, None, &["--memory", "64M"], script);
    assert_eq!(code, 0, "{out}");
    insta::assert_snapshot!("play_cube_macros", out);
    // The saved macros are read at the next start; the file is the one next to the def.
    let saved = std::fs::read_to_string(dir.path().join("3x3x3.def.macros")).unwrap();
    assert!(saved.contains("def TWICE R U R' U' R U R' U'\n"), "{saved}");
    assert!(
        !saved.contains("SEXY") && !saved.contains("LAST"),
        "{saved}"
    );
    let (code, out) = play(dir.path(), &def, None, &[], "list\nTWICE\n");
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("TWICE = R U R' U' R U R' U' (8 moves)"),
        "{out}"
    );
    assert!(out.contains("Moves: 8"), "{out}");
}

#[test]
fn a_file_ksolve_did_not_write_is_not_replaced_by_save() {
    let (dir, def) = copy_def("puzzles/3x3x3.def");
    let theirs = dir.path().join("3x3x3.def.macros.txt");
    std::fs::write(&theirs, "# my notes\n").unwrap();
    let (code, out) = play(
        dir.path(),
        &def,
        None,
        &["--macros", theirs.to_str().unwrap()],
        "save\n",
    );
    // It reads as an empty macro file, but `save` leaves it alone.
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains("was not written by `ksolve play`: not replaced"),
        "{out}"
    );
    assert_eq!(std::fs::read_to_string(&theirs).unwrap(), "# my notes\n");
}

#[test]
fn bad_moves_are_located_in_the_line_as_typed() {
    let (dir, def) = copy_def("puzzles/3x3x3.def");
    let (code, out) = play(
        dir.path(),
        &def,
        None,
        &[],
        "def SEXY R U R' U'\nSEXY Q\nscramble x\n",
    );
    assert_eq!(code, 2, "{out}");
    // The column is the one typed, though SEXY was expanded before parsing.
    assert!(
        out.contains("error: <stdin>:2:6: unknown move `Q`"),
        "{out}"
    );
    assert!(out.contains(" 2 | SEXY Q\n   |      ^"), "{out}");
    assert!(out.contains("`x` is not a number of moves"), "{out}");
    assert!(out.contains("Moves: 0"), "{out}");
}

#[test]
fn the_checkerboard_by_solve_pattern_step_by_step() {
    let (dir, def) = copy_def("puzzles/3x3x3_slices.def");
    let script = "\
solve CHECKERS

go
check
undo
reset
solve PLAID
";
    let (code, out) = play(
        dir.path(),
        &def,
        Some("scrambles/3x3x3_slices.checkers.txt"),
        &["--memory", "64M"],
        script,
    );
    assert_eq!(code, 2, "{out}");
    insta::assert_snapshot!("play_checkers", out);
}

#[test]
fn an_impossible_entered_cube_is_judged_by_check() {
    let (dir, def) = copy_def("puzzles/3x3x3.def");
    // The URF corner twisted in place.
    let script = "\
enter UUUUUUUUFURRRRRRRRFFRFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB
check
R
enter UUUUUUUUU RRRRRRRRR FFFFFFFFF DDDDDDDDD LLLLLLLLL BBBBBBBBB
check
";
    let (code, out) = play(dir.path(), &def, None, &[], script);
    assert_eq!(code, 2, "{out}");
    insta::assert_snapshot!("play_impossible", out);
}

/// The moves a transcript says were made: the `Step I of N: MOVE` lines.
fn steps(out: &str) -> Vec<&str> {
    out.lines()
        .filter_map(|l| l.strip_prefix("Step "))
        .filter_map(|l| l.split_once(": ").map(|(_, m)| m))
        .collect()
}

#[test]
fn rotate_level_five_is_solved_in_five_and_one_swap_per_game() {
    let (dir, def) = copy_def("puzzles/rotate.def");
    let script = "\
scramble 5
SA
SB
undo
answer
solve
go
";
    let (code, out) = play(
        dir.path(),
        &def,
        Some("scrambles/rotate.txt"),
        &["--memory", "160M"],
        script,
    );
    // The refused swap is an error of the script.
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains("Scrambled with 5 random moves backwards"),
        "{out}"
    );
    assert!(
        out.contains("error: <stdin>:3:1: move `SB` is refused: the moves SA SB SC SE SF SG SI SJ SK SM SN SO share a limit of 1 per game"),
        "{out}"
    );
    assert!(
        out.contains("Limit on SA SB SC SE SF SG SI SJ SK SM SN SO: 0 of 1 left"),
        "{out}"
    );
    // After the undo the swap is allowed again.
    assert!(out.contains("Took back SA."), "{out}");
    let made = steps(&out);
    assert!(!made.is_empty() && made.len() <= 5, "{made:?}\n{out}");
    assert!(made.iter().all(|m| !m.starts_with('S')), "{made:?}");
    assert!(out.contains("Solved in"), "{out}");
    assert!(out.contains("The scrambler used 5"), "{out}");
    insta::assert_snapshot!("play_rotate", out);
}

/// Waits for the line editor's prompt. Before each prompt the editor asks the terminal
/// where the cursor is (`ESC [ 6 n`) and reads the answer for a moment; a terminal
/// answers `ESC [ row ; col R`, which is what this fake terminal must do too, or keys
/// typed then would be read as the answer.
#[cfg(unix)]
fn prompt(p: &mut rexpect::session::PtySession) {
    p.exp_string("play> ").unwrap();
}

/// Types `keys` (unbuffered, as a person would).
#[cfg(unix)]
fn keys(p: &mut rexpect::session::PtySession, keys: &str) {
    p.send(keys).unwrap();
    p.flush().unwrap();
}

#[cfg(unix)]
#[test]
fn a_terminal_session_prompts_completes_and_draws() {
    use rexpect::session::spawn_command;
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = std::process::Command::new(crate::common::bin());
    cmd.current_dir(root())
        .args(["play", "puzzles/3x3x3.def", "--quiet", "--macros"])
        .arg(dir.path().join("m.macros"))
        .arg("--tables")
        .arg(dir.path().join("tables"));
    let mut p = spawn_command(cmd, Some(30_000)).unwrap();
    p.exp_string("Type `help` for the commands.").unwrap();
    p.exp_string("Moves: 0").unwrap();
    prompt(&mut p);
    // `scr` and Tab complete to the command; `U` and two Tabs list the U moves.
    keys(&mut p, "scr\t");
    p.exp_string("scramble").unwrap();
    keys(&mut p, "\x15"); // Ctrl-U: clear the line.
    keys(&mut p, "U\t\t");
    p.exp_string("U2").unwrap();
    keys(&mut p, "2\r");
    // The net, in colour (ANSI backgrounds), then the count.
    p.exp_string("\x1b[").unwrap();
    p.exp_string("Moves: 1").unwrap();
    prompt(&mut p);
    keys(&mut p, "quit\r");
    p.exp_eof().unwrap();
}

/// A cube entered with the player's own colour letters is drawn with them, also after
/// the moves that follow.
#[test]
fn an_entered_cube_keeps_the_players_letters() {
    let (dir, def) = copy_def("puzzles/3x3x3.def");
    let script = "\
enter WWWWWWWWW RRRRRRRRR GGGGGGGGG YYYYYYYYY OOOOOOOOO BBBBBBBBB
R
";
    let (code, out) = play(dir.path(), &def, None, &[], script);
    assert_eq!(code, 0, "{out}");
    let after = out.split("> R").nth(1).unwrap();
    assert!(after.contains("W W G") && !after.contains('U'), "{out}");
}
