//! `ksolve check` from the outside: every kind of bad input exits with code 2 and one
//! `error: FILE:LINE:COL: ...` message, good files print a summary (and JSON on
//! request), and ksolve+'s own sample files pass when they are beside the checkout.

use crate::common::ksolve;
use predicates::prelude::*;
use std::path::{Path, PathBuf};

/// A small valid definition: two sets, two moves, an Ignore and a Block.
const GOOD: &str = "\
Name Tiny
Set A 4 3
Set B 2 2
Solved
A
1 2 3 4
End
Move U
A
2 3 4 1
0 1 0 2
End
Move R
B
2 1
1 1
End
Ignore
A
0 0 1 1
0 0 0 1
End
";

/// Writes the files into a fresh folder and runs `ksolve check p.def [s.txt]` there, so
/// that messages show the short relative names.
fn check(def: &[u8], scrambles: Option<&[u8]>) -> assert_cmd::assert::Assert {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("p.def"), def).unwrap();
    let mut cmd = ksolve();
    cmd.current_dir(dir.path()).arg("check").arg("p.def");
    if let Some(s) = scrambles {
        std::fs::write(dir.path().join("s.txt"), s).unwrap();
        cmd.arg("s.txt");
    }
    cmd.assert()
}

/// Asserts a refusal: exit 2, and stderr is one error starting with `where` (file, line
/// and column) and containing `what`.
fn refused(def: &str, scrambles: Option<&str>, place: &str, what: &str) {
    let out = check(def.as_bytes(), scrambles.map(str::as_bytes))
        .code(2)
        .stdout("");
    let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(
        err.starts_with(&format!("error: {place}: ")),
        "expected {place}, got:\n{err}"
    );
    assert!(err.contains(what), "expected {what:?} in:\n{err}");
    assert_eq!(err.matches("error:").count(), 1, "{err}");
    // An empty file has no line to quote.
    if !what.contains("empty") {
        assert!(err.contains(" | "), "the line is quoted:\n{err}");
        assert!(err.trim_end().ends_with('^'), "a caret ends it:\n{err}");
    }
}

#[test]
fn missing_end_names_the_block_and_its_line() {
    refused(
        "Set A 2 1\nMove B\nA\n2 1\n",
        None,
        "p.def:2:1",
        "`Move B` (line 2) has no `End`",
    );
    refused(
        "Set A 2 1\nSolved\nA\n1 2\nMove B\nA\n2 1\nEnd\n",
        None,
        "p.def:2:1",
        "before `Move` at line 5",
    );
}

#[test]
fn unknown_command() {
    refused(
        &format!("{GOOD}Twist X\n"),
        None,
        "p.def:23:1",
        "unknown command `Twist`",
    );
    refused(
        GOOD,
        Some("Scramble a\nA\n1 2 3 4\nEnd\nSlak 2\n"),
        "s.txt:5:1",
        "unknown command `Slak`",
    );
}

#[test]
fn unknown_set() {
    refused(
        "Set A 2 1\nMove B\nC\n2 1\nEnd\n",
        None,
        "p.def:3:1",
        "unknown set `C`",
    );
    refused(
        GOOD,
        Some("Scramble a\nZ\n1 2\nEnd\n"),
        "s.txt:2:1",
        "unknown set `Z`",
    );
}

#[test]
fn set_given_twice() {
    refused(
        "Set A 2 1\nMove B\nA\n2 1\nA\n2 1\nEnd\n",
        None,
        "p.def:5:1",
        "set `A` is given twice",
    );
    refused(
        "Set A 2 1\nSet A 3 1\n",
        None,
        "p.def:2:5",
        "set `A` is given twice in this definition (first declared at line 1)",
    );
}

#[test]
fn wrong_vector_length() {
    refused(
        "Set A 3 1\nMove B\nA\n2 1\nEnd\n",
        None,
        "p.def:4:5",
        "wrong vector length for set `A`: found 2 entries, expected 3",
    );
    refused(
        GOOD,
        Some("Scramble a\nA\n1 2 3 4 1\nEnd\n"),
        "s.txt:3:9",
        "found 5 entries, expected 4",
    );
}

#[test]
fn not_a_permutation() {
    refused(
        "Set A 3 1\nMove B\nA\n2 1 2\nEnd\n",
        None,
        "p.def:4:5",
        "not a permutation: `2` appears twice",
    );
    refused(
        "Set A 3 1\nMove B\nA\n2 1 4\nEnd\n",
        None,
        "p.def:4:5",
        "`4` is not a piece of set `A`",
    );
    refused(
        GOOD,
        Some("Scramble a\nA\n1 2 2 4\nEnd\n"),
        "s.txt:3:5",
        "piece 2 appears more often than in the solved state",
    );
}

#[test]
fn orientation_out_of_range() {
    refused(
        "Set A 3 2\nMove B\nA\n2 1 3\n0 2 0\nEnd\n",
        None,
        "p.def:5:3",
        "orientation 2 is out of range for set `A`: expected 0 to 1",
    );
    refused(
        GOOD,
        Some("Scramble a\nA\n1 2 3 4\n0 0 3 0\nEnd\n"),
        "s.txt:4:5",
        "orientation 3 is out of range",
    );
}

#[test]
fn not_a_number() {
    refused(
        "Set A 3 2\nMove B\nA\n2 x 3\nEnd\n",
        None,
        "p.def:4:3",
        "`x` is not a number",
    );
    refused(
        "Set A three 2\n",
        None,
        "p.def:1:7",
        "`three` is not a number",
    );
    refused(
        GOOD,
        Some("MaxDepth deep\n"),
        "s.txt:1:10",
        "`deep` is not a number",
    );
}

#[test]
fn huge_numbers_are_refused_without_overflow() {
    refused(
        "Set A 99999999999999999999999999 2\n",
        None,
        "p.def:1:7",
        "is too large",
    );
    refused(
        GOOD,
        Some("Slack 4294967296\nRandomScramble r\nEnd\n"),
        "s.txt:1:7",
        "is too large: expected at most 4294967295",
    );
    refused(
        "Set A 3 2\nMove B\nA\n2 18446744073709551617 3\nEnd\n",
        None,
        "p.def:4:3",
        "too large",
    );
}

#[test]
fn unknown_move_names() {
    refused(
        GOOD,
        Some("ScrambleAlg a\nU Z2\nEnd\n"),
        "s.txt:2:3",
        "unknown move `Z2`",
    );
    refused(
        &format!("{GOOD}ForbiddenPairs\nU X\nEnd\n"),
        None,
        "p.def:24:3",
        "unknown move `X`",
    );
    refused(
        GOOD,
        Some("MoveLimits\nF* 2\nEnd\nRandomScramble r\nEnd\n"),
        "s.txt:2:1",
        "unknown move `F*`",
    );
}

#[test]
fn question_mark_outside_ignore() {
    refused(
        GOOD,
        Some("Scramble a\nA\n? 2 3 4\nEnd\n"),
        "s.txt:3:1",
        "`?` at position 1 of set `A` ignores its permutation, but the definition's `Ignore` does not allow that there",
    );
    refused(
        GOOD,
        Some("Scramble a\nA\n1 2 ? ?\n0 0 ? 0\nEnd\n"),
        "s.txt:4:5",
        "ignores its orientation",
    );
}

#[test]
fn bad_block_pieces() {
    refused(
        &format!("{GOOD}Block\nA\n1 5\nEnd\n"),
        None,
        "p.def:25:3",
        "bad Block: piece 5 is not in set `A`",
    );
    refused(
        &format!("{GOOD}Block\nA\n1 1\nEnd\n"),
        None,
        "p.def:25:3",
        "listed twice",
    );
}

#[test]
fn empty_and_binary_files() {
    refused("", None, "p.def:1:1", "the file is empty");
    refused(
        "# nothing but a comment\n\n",
        None,
        "p.def:1:1",
        "the file is empty",
    );
    refused(GOOD, Some(""), "s.txt:1:1", "the file is empty");
    let out = check(b"Set A 2 1\n\x7fELF\x02\x01\x01\x00\x00", None).code(2);
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(
        err.starts_with("error: p.def:2:1: this is not a text file (control byte 0x7f)"),
        "{err}"
    );
}

#[test]
fn set_after_solved_or_move() {
    refused(
        "Set A 2 1\nSolved\nA\n1 2\nEnd\nSet B 2 1\n",
        None,
        "p.def:6:1",
        "`Set` after `Solved` at line 2",
    );
}

#[test]
fn missing_file() {
    ksolve()
        .args(["check", "/nonexistent/x.def"])
        .assert()
        .code(2)
        .stderr(predicate::str::starts_with(
            "error: /nonexistent/x.def: cannot read the file",
        ));
}

#[test]
fn good_files_print_a_summary_and_json() {
    let scr = "Slack 1\nQTM\nMoveLimits\nU* 2\nEnd\nScramble s\nA\n1 2 ?4 ?3\n0 0 0 ?\nEnd\nScrambleAlg a\nU R U'\nEnd\n";
    let out = ksolve_check_ok(GOOD, scr);
    assert!(out.contains("puzzle: Tiny"), "{out}");
    assert!(out.contains("U  order 4: U U2 U'"), "{out}");
    assert!(out.contains("commuting pairs: 1 (U-R)"), "{out}");
    assert!(
        out.contains(
            "s (line 6): position with ignored parts; qtm, max depth 999, slack 1, limits U* 2"
        ),
        "{out}"
    );
    let json: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert_eq!(json["name"], "Tiny");
    assert_eq!(json["sets"][0]["upper_bound"], 24 * 81);
    assert_eq!(json["base_moves"][1]["moves"], serde_json::json!(["R"]));
    assert_eq!(json["scrambles"][1]["kind"], "alg");
    assert_eq!(json["scrambles"][1]["alg_moves"], 3);
}

/// `MoveCosts` weights show beside each base move's powers, and in JSON.
#[test]
fn move_costs_show_in_check() {
    let def = format!("{GOOD}MoveCosts\nU* 2\nU2 0\nEnd\n");
    let out = ksolve_check_ok(&def, "ScrambleAlg a\nU R\nEnd\n");
    assert!(out.contains("U  order 4: U U2 U' (weights 2 0 2)"), "{out}");
    assert!(out.contains("R  order 2: R (weights 1)"), "{out}");
    let json: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    assert_eq!(
        json["base_moves"][0]["weights"],
        serde_json::json!([2, 0, 2])
    );
    let plain = ksolve_check_ok(GOOD, "ScrambleAlg a\nU R\nEnd\n");
    assert!(!plain.contains("weights"), "{plain}");
}

/// A limit shared by several names prints as its line reads, and in JSON with the names
/// one by one.
#[test]
fn shared_move_limits_show_in_check() {
    let scr = "MoveLimits\nU* R 1\nEnd\nScrambleAlg a\nU R U'\nEnd\n";
    let out = ksolve_check_ok(GOOD, scr);
    assert!(out.contains("slack 0, limits U* R 1"), "{out}");
    let json: serde_json::Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    let limit = &json["scrambles"][0]["limits"][0];
    assert_eq!(limit["moves"], "U* R");
    assert_eq!(limit["names"], serde_json::json!(["U*", "R"]));
    assert_eq!(limit["max"], 1);
}

fn ksolve_check_ok(def: &str, scr: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("p.def"), def).unwrap();
    std::fs::write(dir.path().join("s.txt"), scr).unwrap();
    let out = ksolve()
        .current_dir(dir.path())
        .args(["check", "p.def", "s.txt", "--json"])
        .assert()
        .success()
        .stderr("");
    String::from_utf8(out.get_output().stdout.clone()).unwrap()
}

#[test]
fn deprecated_commands_warn_once_on_stderr() {
    let def = format!("{GOOD}Multiplicators\nU U2\nEnd\nParallelMoves\nU R\nEnd\n");
    let out = check(def.as_bytes(), None).success();
    let err = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert_eq!(err.matches("warning:").count(), 1, "{err}");
    assert!(
        err.starts_with("warning: p.def:23: `Multiplicators` is deprecated"),
        "{err}"
    );
}

/// ksolve+'s sample folder, when the checkout sits beside it.
fn samples() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/ksolve-samples");
    dir.is_dir().then_some(dir)
}

#[test]
fn every_ksolve_plus_sample_passes_except_the_one_without_end() {
    let Some(dir) = samples() else { return };
    let pairs = [
        ("2x2x2.def", "2x2x2.txt"),
        ("3x3x3_RFU.def", "3x3x3_RFU.txt"),
        ("Megaminx_RU.def", "Megaminx_RU.txt"),
        ("Bicube.def", "bicube.txt"),
    ];
    for def in crate::common::definitions_in(&dir) {
        let name = def.file_name().unwrap().to_str().unwrap().to_string();
        let mut cmd = ksolve();
        cmd.current_dir(&dir).args(["check", &name]);
        if let Some((_, s)) = pairs.iter().find(|(d, _)| *d == name) {
            cmd.arg(s);
        }
        if name == "3x3x3_3color.def" {
            cmd.assert().code(2).stderr(predicate::str::starts_with(
                "error: 3x3x3_3color.def:57:1: `Move B` (line 57) has no `End`",
            ));
        } else {
            cmd.assert().success();
        }
    }
}
