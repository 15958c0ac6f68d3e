//! `solve`'s command-line scrambles and settings: `--alg`, scrambles on standard input
//! (`-`, also for `check`), the flags that replace a scramble file's `Slack`,
//! `MaxDepth`, `QTM`/`HTM` and `MoveLimits`, and the per-scramble summary on stderr.

use std::path::PathBuf;

/// The tests' 2x2x2 (moves U, R, F; one corner held) and a scramble file beside it.
fn files(scrambles: &str) -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let def = dir.path().join("cube2.def");
    let scr = dir.path().join("s.txt");
    std::fs::write(&def, crate::common::CUBE2).unwrap();
    std::fs::write(&scr, scrambles).unwrap();
    (dir, def, scr)
}

/// Runs ksolve with `args` (tables in memory) and `stdin`; returns (exit code, stdout,
/// stderr).
fn run(args: &[&str], stdin: &str) -> (i32, String, String) {
    crate::common::output(
        crate::common::ksolve()
            .args(args)
            .arg("--no-cache")
            .write_stdin(stdin),
    )
}

/// The solution lines of ksolve+'s text output (indented two spaces).
fn solutions(stdout: &str) -> Vec<&str> {
    stdout
        .lines()
        .filter_map(|l| l.strip_prefix("  "))
        .collect()
}

/// The one `--json` object of a run that solved one scramble.
fn json(stdout: &str) -> serde_json::Value {
    serde_json::from_str(stdout.trim()).unwrap()
}

#[test]
fn slack_flag_replaces_the_files_slack() {
    let sune = "ScrambleAlg sune\nR U R' U R U2 R'\nEnd\n";
    let (_d, def, scr) = files(&format!("Slack 0\n{sune}"));
    let (def, scr) = (def.to_str().unwrap(), scr.to_str().unwrap());
    let (code, file_only, _) = run(&["solve", def, scr], "");
    assert_eq!(code, 0);
    let optimal = solutions(&file_only);
    let (code, flagged, _) = run(&["solve", def, scr, "--slack", "1"], "");
    assert_eq!(code, 0);
    let found = solutions(&flagged);
    assert!(found.len() > optimal.len(), "{flagged}");
    let longest = optimal[0].split(' ').count() + 1;
    assert!(
        found.iter().all(|s| s.split(' ').count() <= longest),
        "{flagged}"
    );
    // The flag wins in both directions: it also removes a file's Slack.
    let (_d2, def2, scr2) = files(&format!("Slack 1\n{sune}"));
    let (def2, scr2) = (def2.to_str().unwrap(), scr2.to_str().unwrap());
    let (_, file_slack, _) = run(&["solve", def2, scr2], "");
    assert_eq!(solutions(&file_slack), found);
    let (_, zero, _) = run(&["solve", def2, scr2, "--slack", "0"], "");
    assert_eq!(solutions(&zero), optimal);
}

#[test]
fn max_depth_flag_replaces_the_files_max_depth() {
    let (_d, def, scr) = files("MaxDepth 2\nScrambleAlg three\nR U F\nEnd\n");
    let (def, scr) = (def.to_str().unwrap(), scr.to_str().unwrap());
    let (code, out, _) = run(&["solve", def, scr], "");
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("Max depth reached"), "{out}");
    let (code, out, _) = run(&["solve", def, scr, "--max-depth", "3"], "");
    assert_eq!(code, 0, "{out}");
    assert_eq!(solutions(&out), ["F' U' R'"]);
    let (code, out, _) = run(&["solve", def, "--alg", "R U F", "--max-depth", "2"], "");
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("Max depth reached"), "{out}");
}

#[test]
fn qtm_and_htm_flags_replace_the_files_metric() {
    let (_d, def, scr) = files("ScrambleAlg half\nR2 U\nEnd\n");
    let (def, scr) = (def.to_str().unwrap(), scr.to_str().unwrap());
    let (_, out, _) = run(&["solve", def, scr, "--json"], "");
    let v = json(&out);
    assert_eq!(
        (v["metric"].as_str(), v["length"].as_u64()),
        (Some("htm"), Some(2))
    );
    let (_, out, _) = run(&["solve", def, scr, "--json", "--qtm"], "");
    let v = json(&out);
    assert_eq!(
        (v["metric"].as_str(), v["length"].as_u64()),
        (Some("qtm"), Some(3))
    );
    let (_d2, def2, scr2) = files("QTM\nScrambleAlg half\nR2 U\nEnd\n");
    let (def2, scr2) = (def2.to_str().unwrap(), scr2.to_str().unwrap());
    let (_, out, _) = run(&["solve", def2, scr2, "--json"], "");
    assert_eq!(json(&out)["metric"], "qtm");
    let (_, out, _) = run(&["solve", def2, scr2, "--json", "--htm"], "");
    let v = json(&out);
    assert_eq!(
        (v["metric"].as_str(), v["length"].as_u64()),
        (Some("htm"), Some(2))
    );
    let (code, _, err) = run(&["solve", def, scr, "--qtm", "--htm"], "");
    assert_eq!(code, 2, "{err}");
}

#[test]
fn moves_flag_allows_only_those_moves_and_replaces_move_limits() {
    // The file forbids F; `--moves F` replaces that, so F' solves it.
    let (_d, def, scr) = files("MoveLimits\nF* 0\nEnd\nScrambleAlg f\nF\nEnd\n");
    let (def, scr) = (def.to_str().unwrap(), scr.to_str().unwrap());
    let (code, out, _) = run(&["solve", def, scr], "");
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("cannot be reached"), "{out}");
    let (code, out, _) = run(&["solve", def, scr, "--moves", "F"], "");
    assert_eq!(code, 0, "{out}");
    assert_eq!(solutions(&out), ["F'"]);
    // Without F, F cannot be undone: refused by the reachability check, not searched
    // for ever, and the message names the flag.
    let (code, out, _) = run(&["solve", def, "--alg", "F", "--moves", "R,U"], "");
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("with only the moves --moves allows (U U2 U' R R2 R')"),
        "{out}"
    );
    // Every solution, also past optimal, uses only the moves named (a power names its
    // base move; the flag may be repeated).
    let sune = "R U R' U R U2 R'";
    let (code, out, _) = run(
        &[
            "solve", def, "--alg", sune, "--moves", "R2", "--moves", "U", "--slack", "2",
        ],
        "",
    );
    assert_eq!(code, 0, "{out}");
    let found = solutions(&out);
    assert!(!found.is_empty());
    assert!(
        found
            .iter()
            .all(|s| s.split(' ').all(|m| m.starts_with(['R', 'U']))),
        "{out}"
    );
    let (_, all, _) = run(&["solve", def, "--alg", sune, "--slack", "2"], "");
    assert!(solutions(&all).iter().any(|s| s.contains('F')), "{all}");
    let (code, _, err) = run(&["solve", def, scr, "--moves", "R,X"], "");
    assert_eq!(code, 2);
    assert!(
        err.contains("no move `X`") && err.contains("U, R, F"),
        "{err}"
    );
}

#[test]
fn alg_flag_solves_the_position_each_algorithm_makes() {
    let (_d, def, scr) = files("");
    let (def, scr) = (def.to_str().unwrap(), scr.to_str().unwrap());
    let (code, out, _) = run(&["solve", def, "--alg", "R U", "--alg", "(R U)2'"], "");
    assert_eq!(code, 0, "{out}");
    assert!(
        out.starts_with("Solving R U\nScramble position:\n"),
        "{out}"
    );
    assert!(out.contains("Solving (R U)2'\n"), "{out}");
    assert_eq!(solutions(&out), ["U' R'", "R U R U"]);
    // The ksolve+ form takes it too.
    let (code, out, _) = run(&[def, "--alg", "F2"], "");
    assert_eq!((code, solutions(&out)), (0, vec!["F2"]));
    let (code, _, err) = run(&["solve", def, "--alg", "R (U"], "");
    assert_eq!(code, 2);
    assert!(
        err.contains("<--alg>:1:3:") && err.contains(" 1 | R (U"),
        "{err}"
    );
    let (code, _, err) = run(&["solve", def, scr, "--alg", "R"], "");
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = run(&["solve", def], "");
    assert_eq!(code, 2, "{err}");
}

#[test]
fn dash_reads_scrambles_from_standard_input() {
    let (_d, def, _scr) = files("");
    let def = def.to_str().unwrap();
    let text = "ScrambleAlg piped\nR U\nEnd\n";
    let (code, out, _) = run(&["solve", def, "-"], text);
    assert_eq!(code, 0, "{out}");
    assert!(out.starts_with("Solving piped\n"), "{out}");
    assert_eq!(solutions(&out), ["U' R'"]);
    let (code, legacy, _) = run(&[def, "-"], text);
    assert_eq!((code, legacy), (0, out));
    let (code, _, err) = run(&["solve", def, "-"], "ScrambleAlg bad\nR Q\nEnd\n");
    assert_eq!(code, 2);
    assert!(err.contains("<stdin>:2:3:"), "{err}");
    let out = crate::common::ksolve()
        .args(["check", def, "-", "--json"])
        .write_stdin(text)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let v: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    assert_eq!(v["scramble_file"], "<stdin>");
    assert_eq!(v["scrambles"][0]["name"], "piped");
}

#[test]
fn text_mode_summarises_each_scramble_on_stderr() {
    let (_d, def, scr) =
        files("ScrambleAlg two\nR U\nEnd\nMaxDepth 1\nScrambleAlg far\nR U F\nEnd\n");
    let (def, scr) = (def.to_str().unwrap(), scr.to_str().unwrap());
    let (code, out, err) = run(&["solve", def, scr], "");
    assert_eq!(code, 1, "{out}");
    // Progress writes one line per finished stage off a terminal; the rest are summaries.
    let lines: Vec<&str> = err.lines().filter(|l| !l.contains(": done in ")).collect();
    assert_eq!(lines.len(), 2, "{err}");
    // The time, and how much of it went to tables when that counts.
    let first = lines[0].split(" (").next().unwrap();
    let (head, secs) = first.rsplit_once(", ").unwrap();
    assert_eq!(head, "two: 2 moves, 1 solution");
    assert!(secs.ends_with(" s") && secs[..secs.len() - 2].parse::<f64>().is_ok());
    if let Some((_, split)) = lines[0].split_once(" (") {
        assert!(
            split.contains(" s tables, ") && split.ends_with(" s search)"),
            "{err}"
        );
    }
    assert!(
        lines[1].starts_with("far: no solution within MaxDepth 1, "),
        "{err}"
    );
    // Standard output is ksolve+'s, untouched by the summary.
    assert!(!out.contains("2 moves"), "{out}");
    let (_, quiet_out, quiet_err) = run(&["solve", def, scr, "--quiet"], "");
    assert_eq!(quiet_err, "");
    assert_eq!(quiet_out, out);
    // JSON output is unaffected: one object per scramble on stdout, and no summary on
    // stderr (finished stages still write their lines there).
    let (_d2, def2, scr2) = files("ScrambleAlg two\nR U\nEnd\nScrambleAlg one\nF\nEnd\n");
    let (def2, scr2) = (def2.to_str().unwrap(), scr2.to_str().unwrap());
    let (code, out, err) = run(&["solve", def2, scr2, "--json"], "");
    assert_eq!(code, 0);
    assert!(err.lines().all(|l| l.contains(": done in ")), "{err}");
    let objects: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(objects.len(), 2);
    assert_eq!(objects[0]["name"], "two");
    assert_eq!(objects[0]["solutions"], serde_json::json!(["U' R'"]));
    assert_eq!(objects[1]["solutions"], serde_json::json!(["F'"]));
}
