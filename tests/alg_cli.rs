//! `ksolve alg` from the outside: the examples of its help, batch mode on standard
//! input, and errors that exit with code 2 and name the column.

use assert_cmd::Command;
use predicates::prelude::*;

const CUBE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/3x3x3.def");

fn alg(args: &[&str]) -> Command {
    let mut cmd = crate::common::ksolve();
    cmd.arg("alg").arg(CUBE).args(args);
    cmd
}

#[test]
fn invert_prints_the_inverse() {
    alg(&["invert", "R U R' U'"])
        .assert()
        .success()
        .stdout("U R U' R'\n");
    alg(&["invert"])
        .write_stdin("R U R' U'\n")
        .assert()
        .success()
        .stdout("U R U' R'\n");
}

#[test]
fn simplify_cancels_to_the_identity() {
    alg(&["simplify", "R R U U' R2"])
        .assert()
        .success()
        .stdout("\n");
    alg(&["simplify", "R L R"])
        .assert()
        .success()
        .stdout("R2 L\n");
}

#[test]
fn order_of_r_u_is_105() {
    alg(&["order", "R U"]).assert().success().stdout("105\n");
}

#[test]
fn show_prints_the_position_in_ksolve_form() {
    // R of the shipped cube applied to solved; a position gives each twist at the
    // position the piece is in, so the twists read differently from the Move R block.
    alg(&["show", "R"]).assert().success().stdout(
        "CORNERS\n5 2 3 1 8 6 7 4\n2 0 0 1 1 0 0 2\nEDGES\n1 2 3 9 5 6 7 12 8 10 11 4\n0 0 0 0 0 0 0 0 0 0 0 0\n",
    );
    alg(&["show", "[R, U] [R, U]'"]).assert().success().stdout(
        "CORNERS\n1 2 3 4 5 6 7 8\n0 0 0 0 0 0 0 0\nEDGES\n1 2 3 4 5 6 7 8 9 10 11 12\n0 0 0 0 0 0 0 0 0 0 0 0\n",
    );
}

#[test]
fn stdin_gives_one_answer_per_line() {
    alg(&["invert", "-"])
        .write_stdin("R U\n[R, U]\r\n\n(R U)2 // twice\nF\n")
        .assert()
        .success()
        .stdout("U' R'\nU R U' R'\n\nU' R' U' R'\nF'\n");
    alg(&["order"])
        .write_stdin("R U\nR\n")
        .assert()
        .success()
        .stdout("105\n4\n");
}

#[test]
fn errors_exit_2_with_the_column() {
    alg(&["invert", "R [U, F"]).assert().code(2).stderr(
        predicate::str::contains("<argument>:1:3:").and(predicate::str::contains("never closed")),
    );
    alg(&["simplify"])
        .write_stdin("R U\nR Q\nU\n")
        .assert()
        .code(2)
        .stdout("R U\n")
        .stderr(predicate::str::contains("<stdin>:2:3: unknown move `Q`"));
    alg(&["order", "(R U)1000000000"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("<argument>:1:1:"));
    alg(&["flip", "R"]).assert().code(2);
}

#[test]
fn blocked_moves_are_refused_at_their_column() {
    let bandaged = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/3x3x3_bandaged.def");
    let mut cmd = crate::common::ksolve();
    cmd.args(["alg", bandaged, "invert", "U [U': F]"])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("<argument>:1:8:").and(predicate::str::contains("blocked")),
        );
    let mut cmd = crate::common::ksolve();
    cmd.args(["alg", bandaged, "invert", "U R"])
        .assert()
        .success()
        .stdout("R' U'\n");
}

/// docs/conventions.md's worked example of the vector conventions ("What the numbers
/// mean"): the position `R` makes on the shipped 2x2x2, written as a `Scramble` would.
#[test]
fn show_gives_the_readme_example_of_the_conventions() {
    let cube2 = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/2x2x2.def");
    crate::common::ksolve()
        .args(["alg", cube2, "show", "R"])
        .assert()
        .success()
        .stdout("CORNERS\n5 2 3 1 7 6 4\n2 0 0 1 1 0 2\n");
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/conventions.md"))
            .unwrap();
    assert!(readme.contains("`5 2 3 1 7 6 4` with twists `2 0 0 1 1 0 2`"));
}
