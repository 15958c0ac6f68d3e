//! The command line never gives a wrong or endless answer for what the settings make
//! impossible: `--count 0`, positions the moves left by `MoveLimits` cannot reach, and
//! huge `Slack` runs, which print solutions as they are found.

use assert_cmd::Command;
use std::path::PathBuf;

fn files(scrambles: &str) -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let def = dir.path().join("cube2.def");
    let scr = dir.path().join("s.txt");
    std::fs::write(&def, crate::common::CUBE2).unwrap();
    std::fs::write(&scr, scrambles).unwrap();
    (dir, def, scr)
}

fn ksolve(def: &PathBuf, scr: &PathBuf, extra: &[&str]) -> Command {
    let mut cmd = crate::common::ksolve();
    cmd.arg("solve")
        .arg(def)
        .arg(scr)
        .arg("--no-cache")
        .args(extra);
    cmd
}

/// What `ksolve solve DEF SCR ARGS` printed on stdout in its first four seconds, after
/// which it is killed: a run that streams has printed solutions by then.
fn stdout_of_killed_run(def: &PathBuf, scr: &PathBuf, args: &[&str]) -> String {
    let mut child = std::process::Command::new(crate::common::bin())
        .arg("solve")
        .arg(def)
        .arg(scr)
        .args(args)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut stdout, &mut text).unwrap();
        text
    });
    std::thread::sleep(std::time::Duration::from_secs(4));
    child.kill().unwrap();
    child.wait().unwrap();
    reader.join().unwrap()
}

#[test]
fn count_zero_is_refused() {
    let (_d, def, scr) = files("ScrambleAlg two\nR U\nEnd\n");
    let out = ksolve(&def, &scr, &["--count", "0"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("--count"), "{err}");
    let help = ksolve(&def, &scr, &["--help"]).output().unwrap();
    let help = String::from_utf8(help.stdout).unwrap();
    assert!(help.contains("1 or more"), "{help}");
}

#[test]
fn positions_the_allowed_moves_cannot_reach_are_refused() {
    // F is forbidden, so F's position can never be solved; R's still can.
    let (_d, def, scr) = files(
        "MoveLimits\nF* 0\nEnd\nScrambleAlg f\nF\nEnd\nScrambleAlg r\nR\nEnd\n\
         MoveLimits\nU 0\nU2 0\nU' 0\nR* 0\nF* 0\nEnd\nScramble nothing left\nCORNERS\n\
         2 1 3 4 5 6 7\nEnd\n",
    );
    let out = ksolve(&def, &scr, &[])
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains(
            "1 5 7\n1 2 0 0 2 1 0\n\
             No solution: the position cannot be reached: with only the moves MoveLimits \
             allow (U U2 U' R R2 R'), "
        ),
        "{text}"
    );
    assert!(text.contains("Solving r\nScramble position:"), "{text}");
    assert!(text.contains("  R'\n"), "{text}");
    assert!(
        text.contains("Solving nothing left\nNo solution: the position cannot be reached: with only the moves MoveLimits allow (none), "),
        "{text}"
    );
    let out = ksolve(&def, &scr, &["--json"])
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    let first: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(first["status"], "unreachable");
    assert!(first["reason"]
        .as_str()
        .unwrap()
        .contains("MoveLimits allow"));
}

/// A limit of 0 shared by several names takes every one of them away: with `U* F* 0`
/// only R turns, so a U turn cannot be undone.
#[test]
fn a_shared_zero_limit_takes_away_every_move_it_names() {
    let (_d, def, scr) = files("MoveLimits\nU* F* 0\nEnd\nScrambleAlg u\nU\nEnd\n");
    let out = ksolve(&def, &scr, &[])
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains(
            "the position cannot be reached: with only the moves MoveLimits allow (R R2 R')"
        ),
        "{text}"
    );
}

/// A Slack too large to finish prints solutions while it runs: killed after a few
/// seconds, it has printed the optimal ones and longer ones, one per line.
#[test]
fn huge_slack_prints_solutions_as_it_goes() {
    let (_d, def, scr) =
        files("Slack 4294967295\nScrambleAlg j\nR U R' F' R U R' U' R' F R2 U' R' U'\nEnd\n");
    let text = stdout_of_killed_run(&def, &scr, &["--no-cache", "--quiet", "--threads", "2"]);
    let lengths: Vec<usize> = text
        .lines()
        .filter(|l| l.starts_with("  "))
        .map(|l| l.split_whitespace().count())
        .collect();
    assert!(lengths.len() >= 20, "{text}");
    assert_eq!(lengths[..20], [10; 20]);
    assert!(lengths.iter().any(|&l| l > 10), "{}", lengths.len());
}

#[test]
fn more_move_limits_than_the_search_counts_are_refused() {
    // The search counts limits as bits of one word; a 65th limit must be refused in
    // words, not end in an internal replay error.
    let dir = tempfile::tempdir().unwrap();
    let def = dir.path().join("many.def");
    let scr = dir.path().join("s.txt");
    let mut text = String::from("Set P 2 1\n");
    let mut limits = String::from("MoveLimits\n");
    for i in 0..65 {
        text.push_str(&format!("Move M{i}\nP\n2 1\nEnd\n"));
        limits.push_str(&format!("M{i} 3\n"));
    }
    limits.push_str("End\nScrambleAlg x\nM0\nEnd\n");
    std::fs::write(&def, text).unwrap();
    std::fs::write(&scr, limits).unwrap();
    let out = ksolve(&def, &scr, &[])
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("at most 64 MoveLimits"), "{err}");
    assert!(!err.contains("internal error"), "{err}");
}

#[test]
fn json_output_streams_its_solutions_too() {
    // The object is written as the search goes: a run stopped early has already printed
    // its name and solutions, and a finished one is still one valid object per line.
    let (_d, def, scr) =
        files("Slack 4294967295\nScrambleAlg j\nR U R' F' R U R' U' R' F R2 U' R' U'\nEnd\n");
    let text = stdout_of_killed_run(&def, &scr, &["--no-cache", "--quiet", "--json"]);
    assert!(
        text.starts_with("{\"name\":\"j\",\"solutions\":[\""),
        "{text:.200}"
    );
    assert!(text.matches(',').count() > 1000, "{}", text.len());

    let (_d, def, scr) = files("ScrambleAlg j\nR U R' F' R U R' U' R' F R2 U' R' U'\nEnd\n");
    let out = ksolve(&def, &scr, &["--json", "--count", "3"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let v: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
    assert_eq!(v["name"], "j");
    assert_eq!(v["status"], "solved");
    assert_eq!(v["solutions"].as_array().unwrap().len(), 3);
    assert_eq!(v["length"], 10);
}
