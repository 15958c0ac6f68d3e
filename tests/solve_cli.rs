//! The `solve` command's output forms and exit codes.

use std::path::PathBuf;

fn files(scrambles: &str) -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let def = dir.path().join("cube2.def");
    let scr = dir.path().join("s.txt");
    std::fs::write(&def, crate::common::CUBE2).unwrap();
    std::fs::write(&scr, scrambles).unwrap();
    (dir, def, scr)
}

fn ksolve(args: &[&std::ffi::OsStr]) -> std::process::Output {
    crate::common::ksolve()
        .args(args)
        .arg("--no-cache")
        .output()
        .unwrap()
}

#[test]
fn text_output_is_ksolves() {
    let (_d, def, scr) =
        files("ScrambleAlg two\nR U\nEnd\nScramble done\nCORNERS\n1 2 3 4 5 6 7\nEnd\n");
    let out = ksolve(&["solve".as_ref(), def.as_os_str(), scr.as_os_str()]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    // Line by line, quoted: the output ends in ksolve+'s " " line and a blank one, which a
    // plain text snapshot would trim.
    insta::assert_debug_snapshot!("solve_text_output", text.split('\n').collect::<Vec<_>>());
}

#[test]
fn max_depth_and_unsolvable_exit_1() {
    let (_d, def, scr) = files(
        "MaxDepth 3\nScrambleAlg far\nR U F R\nEnd\nScramble twisted\nCORNERS\n1 2 3 4 5 6 7\n1 0 0 0 0 0 0\nEnd\n",
    );
    let out = ksolve(&[def.as_os_str(), scr.as_os_str()]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Solving far\n"), "{text}");
    assert!(text.contains("Max depth reached, aborting.\n"), "{text}");
    assert!(text.contains("Solving twisted\nNo solution"), "{text}");
}

#[test]
fn json_and_count() {
    let (_d, def, scr) = files("Slack 2\nScrambleAlg sune\nR U R' U R U2 R'\nEnd\n");
    let out = ksolve(&[
        def.as_os_str(),
        scr.as_os_str(),
        "--json".as_ref(),
        "--count".as_ref(),
        "3".as_ref(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let v: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
    assert_eq!(v["name"], "sune");
    assert_eq!(v["status"], "solved");
    assert_eq!(v["metric"], "htm");
    assert_eq!(v["solutions"].as_array().unwrap().len(), 3);
    let len = v["length"].as_u64().unwrap();
    assert!(len <= 7);
    let seconds = v["seconds"].as_f64().unwrap();
    // The first scramble's time is split into tables and search, which add up to it.
    let (tables, search) = (
        v["table_seconds"].as_f64().unwrap(),
        v["search_seconds"].as_f64().unwrap(),
    );
    assert!(seconds >= 0.0 && tables >= 0.0 && search >= 0.0);
    assert!((tables + search - seconds).abs() < 1e-6, "{text}");
    assert!(v["nodes"].as_u64().unwrap() > 0);
}

#[test]
fn bad_input_exits_2() {
    let (_d, def, scr) = files("Scramble x\nCORNERS\n1 2 3\nEnd\n");
    let out = ksolve(&[def.as_os_str(), scr.as_os_str()]);
    assert_eq!(out.status.code(), Some(2));
    let missing = ksolve(&[
        "solve".as_ref(),
        "/nonexistent.def".as_ref(),
        scr.as_os_str(),
    ]);
    assert_eq!(missing.status.code(), Some(2));
}

/// `solve -v` says which tables the planner weighed and chose, with their entries and
/// bytes, and per scramble the nodes and the extra lookups per node, on stderr; the
/// solutions on stdout are unchanged.
#[test]
fn verbose_explains_the_tables_and_the_probes() {
    let (_d, def, scr) = files("ScrambleAlg two\nR U\nEnd\n");
    let out = ksolve(&[
        "solve".as_ref(),
        def.as_os_str(),
        scr.as_os_str(),
        "-v".as_ref(),
    ]);
    assert_eq!(out.status.code(), Some(0));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("plan(s) weighed"), "{err}");
    assert!(err.contains("  * components up to "), "{err}");
    assert!(err.contains("table CORNERS.po: 3674160 entries"), "{err}");
    assert!(err.contains("two: ") && err.contains(" nodes, "), "{err}");
    assert!(
        err.contains("two: bound checks in use: CORNERS.po"),
        "{err}"
    );
    // The build predicted before, and the time it took after.
    assert!(
        err.contains("  ordinary tables: ")
            && err.contains(" entries to build (move tables included), predicted "),
        "{err}"
    );
    assert!(
        err.contains("two: tables ")
            && err.contains(" (built or loaded for this scramble), search "),
        "{err}"
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("  U' R'\n"));
    // Every check on every node: the same output.
    let all = ksolve(&[
        "solve".as_ref(),
        def.as_os_str(),
        scr.as_os_str(),
        "--all-checks".as_ref(),
    ]);
    assert_eq!(all.status.code(), Some(0));
    assert_eq!(String::from_utf8(all.stdout).unwrap(), stdout);
}

/// Move limits above 0 that leave no solution: exit 1 with "no solution within the
/// limits" at once (the search ran to MaxDepth 999 before, for ever in effect; the
/// timeout makes that a failure rather than a hung test).
#[test]
fn limits_that_leave_no_solution_exit_1() {
    let dir = tempfile::tempdir().unwrap();
    let def = dir.path().join("swap.def");
    let scr = dir.path().join("s.txt");
    std::fs::write(
        &def,
        "Name swap\nSet P 3 1\nSolved\nP\n1 2 3\nEnd\n\
         Move A\nP\n2 3 1\nEnd\nMove B\nP\n2 1 3\nEnd\n",
    )
    .unwrap();
    std::fs::write(
        &scr,
        "MoveLimits\nA* B* 1\nEnd\nScramble two moves\nP\n3 2 1\nEnd\n",
    )
    .unwrap();
    let out = assert_cmd::Command::cargo_bin("ksolve")
        .unwrap()
        .args([
            "solve".as_ref(),
            def.as_os_str(),
            scr.as_os_str(),
            "--no-cache".as_ref(),
        ])
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("No solution within the limits"), "{stdout}");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("two moves: no solution within the limits"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
