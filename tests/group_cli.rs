//! `ksolve check` and the group: reachable counts (exact, or labelled upper bounds),
//! `--orbits`, and unsolvable scrambles refused with the reason in words and exit 1.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

/// Runs `ksolve check ARGS --json` from the repository root; returns exit code, the
/// text output and the JSON summary (the last line).
fn check(args: &[&str]) -> (i32, String, serde_json::Value) {
    let out = crate::common::ksolve()
        .current_dir(root())
        .arg("check")
        .args(args)
        .arg("--json")
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let json = serde_json::from_str(stdout.lines().last().unwrap_or("null")).unwrap();
    (out.status.code().unwrap_or(-1), stdout, json)
}

#[test]
fn cube3_counts_and_orbits() {
    let (code, out, json) = check(&["puzzles/3x3x3.def", "--orbits"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("Reachable positions: 43,252,003,274,489,856,000\n"),
        "{out}"
    );
    assert!(
        out.contains(
            "Arrangements: 519,024,039,293,878,272,000, in 12 classes of \
             43,252,003,274,489,856,000 positions"
        ),
        "{out}"
    );
    // Beyond u64 the counts are decimal strings; small ones stay numbers.
    assert_eq!(json["reachable_states"], "43252003274489856000");
    assert_eq!(json["reachable_exact"], true);
    assert_eq!(json["orbits"]["arrangements"], "519024039293878272000");
    assert_eq!(json["orbits"]["classes"], 12);
}

#[test]
fn small_counts_are_json_numbers_and_orbits_are_optional() {
    let (code, _, json) = check(&["puzzles/2x2x2.def"]);
    assert_eq!(code, 0);
    assert_eq!(json["reachable_states"], 3_674_160);
    assert!(json.get("orbits").is_none());
    let (_, out, json) = check(&["puzzles/4x4x4_centres.def", "--orbits"]);
    assert_eq!(json["reachable_states"], 3_246_670_537_110_000u64);
    assert_eq!(json["orbits"]["classes"], serde_json::Value::Null);
    assert!(out.contains("classes not counted"), "{out}");
}

#[test]
fn blocks_make_the_count_an_upper_bound() {
    let (code, out, json) = check(&["puzzles/3x3x3_bandaged.def"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("Reachable positions: at most 43,252,003,274,489,856,000 (upper bound)"),
        "{out}"
    );
    assert_eq!(json["reachable_exact"], false);
}

#[test]
fn megaminx_count_passes_u128() {
    let (_, _, json) = check(&["puzzles/megaminx.def"]);
    assert_eq!(
        json["reachable_states"],
        "100669616553523347122516032313645505168688116411019768627200000000000"
    );
}

/// Five pieces turned by two overlapping 3-cycles: only even arrangements are reachable.
const CYCLES: &str = "\
Name Two 3-cycles
Set PIECES 5 1
Solved
PIECES
1 2 3 4 5
End
Move A
PIECES
3 1 2 4 5
End
Move B
PIECES
1 2 5 3 4
End
";

#[test]
fn odd_arrangement_of_two_three_cycles_is_refused_quickly() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("c.def"), CYCLES).unwrap();
    let scr = "Scramble odd\nPIECES\n2 1 3 4 5\nEnd\nScramble even\nPIECES\n2 3 1 4 5\nEnd\n";
    std::fs::write(dir.path().join("s.txt"), scr).unwrap();
    let start = std::time::Instant::now();
    let out = crate::common::ksolve()
        .current_dir(dir.path())
        .args(["check", "c.def", "s.txt", "--json"])
        .output()
        .unwrap();
    let elapsed = start.elapsed();
    crate::common::assert_quick(elapsed, std::time::Duration::from_secs(1), "");
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("Reachable positions: 60\n"), "{stdout}");
    assert!(
        stdout.contains(
            "odd (line 1): position; htm, max depth 999, slack 0; cannot be solved: the PIECES \
             permutation is odd; in a reachable position it is even"
        ),
        "{stdout}"
    );
    let json: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    assert_eq!(json["scrambles"][0]["status"], "unreachable");
    assert_eq!(json["scrambles"][1]["status"], "reachable");
    assert_eq!(json["scrambles"][1]["reason"], serde_json::Value::Null);
}

#[test]
fn twisted_corner_scramble_names_the_orientation_sum() {
    let dir = tempfile::tempdir().unwrap();
    let scr = "Scramble twisted\nCORNERS\n1 2 3 4 5 6 7 8\n1 0 0 0 0 0 0 0\nEnd\n\
               ScrambleAlg fine\nR U R' U'\nEnd\n";
    std::fs::write(dir.path().join("s.txt"), scr).unwrap();
    let def = root().join("puzzles/3x3x3.def");
    let out = crate::common::ksolve()
        .current_dir(dir.path())
        .arg("check")
        .arg(&def)
        .args(["s.txt", "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let json: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    assert_eq!(
        json["scrambles"][0]["reason"],
        "CORNERS orientation sums to 1 (mod 3); a reachable position sums to 0"
    );
    assert_eq!(json["scrambles"][1]["status"], "reachable");
}

#[test]
fn shipped_scrambles_are_all_solvable() {
    for entry in std::fs::read_dir(root().join("puzzles")).unwrap() {
        let def = entry.unwrap().path();
        // Goal folders (`PUZZLE.goals/`) sit beside the definitions.
        if def.extension().is_none_or(|x| x != "def") {
            continue;
        }
        let stem = def.file_stem().unwrap().to_str().unwrap().to_string();
        let scr = root().join(format!("scrambles/{stem}.txt"));
        if !scr.exists() {
            continue;
        }
        let (code, out, json) = check(&[def.to_str().unwrap(), scr.to_str().unwrap()]);
        assert_eq!(code, 0, "{stem}: {out}");
        for s in json["scrambles"].as_array().unwrap() {
            assert_ne!(s["status"], "unreachable", "{stem}: {s}");
        }
    }
}

/// Runs `ksolve solve c.def s.txt --json --no-cache` on the two-3-cycles puzzle.
fn solve_cycles(scrambles: &str) -> (i32, Vec<serde_json::Value>, std::time::Duration) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("c.def"), CYCLES).unwrap();
    std::fs::write(dir.path().join("s.txt"), scrambles).unwrap();
    let start = std::time::Instant::now();
    let out = crate::common::ksolve()
        .current_dir(dir.path())
        .args(["solve", "c.def", "s.txt", "--json", "--no-cache"])
        .output()
        .unwrap();
    let elapsed = start.elapsed();
    let lines = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (out.status.code().unwrap_or(-1), lines, elapsed)
}

#[test]
fn solve_refuses_an_odd_arrangement_and_solves_the_rest() {
    let scr = "Scramble odd\nPIECES\n2 1 3 4 5\nEnd\nScramble even\nPIECES\n2 3 1 4 5\nEnd\n";
    let (code, lines, elapsed) = solve_cycles(scr);
    crate::common::assert_quick(elapsed, std::time::Duration::from_secs(1), "");
    assert_eq!(code, 1);
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["status"], "unreachable");
    assert_eq!(
        lines[0]["reason"],
        "the PIECES permutation is odd; in a reachable position it is even"
    );
    assert_eq!(lines[0]["length"], serde_json::Value::Null);
    assert_eq!(lines[1]["status"], "solved");
    // (1 2 3) moved to 2 3 1 is undone by one A turn (or its inverse) alone.
    assert_eq!(lines[1]["length"], 1);
    assert!(lines[1].get("reason").is_none());
}

#[test]
fn solve_prints_why_a_position_cannot_be_reached() {
    let dir = tempfile::tempdir().unwrap();
    let scr = "Scramble twisted\nCORNERS\n1 2 3 4 5 6 7 8\n1 0 0 0 0 0 0 0\nEnd\n";
    std::fs::write(dir.path().join("s.txt"), scr).unwrap();
    let out = crate::common::ksolve()
        .current_dir(dir.path())
        .arg(root().join("puzzles/3x3x3.def"))
        .arg("s.txt")
        .arg("--no-cache")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "Solving twisted\nNo solution: the position cannot be reached: CORNERS orientation \
         sums to 1 (mod 3); a reachable position sums to 0.\n\n"
    );
}

#[test]
fn random_scrambles_are_reachable_and_repeatable() {
    // Uniform draws come from the stabiliser chain; on this puzzle every even
    // arrangement is reachable, so 40 draws cover many of the 60 and all solve.
    let scr: String = (0..40)
        .map(|i| format!("RandomScramble r{i}\nEnd\n"))
        .collect();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("c.def"), CYCLES).unwrap();
    std::fs::write(dir.path().join("s.txt"), &scr).unwrap();
    let run = || {
        crate::common::ksolve()
            .current_dir(dir.path())
            .args(["c.def", "s.txt", "--seed", "7", "--no-cache"])
            .output()
            .unwrap()
    };
    let (a, b) = (run(), run());
    assert_eq!(a.status.code(), Some(0));
    assert_eq!(a.stdout, b.stdout, "a seed makes the draws repeat");
    let text = String::from_utf8(a.stdout).unwrap();
    let positions: std::collections::HashSet<&str> = text
        .split("Scramble position:\nPIECES\n")
        .skip(1)
        .map(|rest| rest.lines().next().unwrap())
        .collect();
    assert!(positions.len() > 15, "{positions:?}");
}
