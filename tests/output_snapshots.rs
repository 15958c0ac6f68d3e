//! Snapshots of the outputs other programs read: `check`, `god`, `solve` and `merge`, as
//! text and as JSON. A change to any of them shows as a diff to review (`cargo insta
//! review`), not as a hand-written string to edit. Times (`seconds`) are set to 0
//! before the snapshot; everything else is deterministic (one thread).

use crate::common::{ksolve, output, CUBE2};
use std::path::{Path, PathBuf};

/// A floppy puzzle of 4 corners and 4 flipping edges, small enough that `god` takes
/// milliseconds in a debug build.
const FLOPPY: &str = "Name Floppy (tests)
Set CORNERS 4 1
Set EDGES 4 2
Solved
CORNERS
1 2 3 4
EDGES
1 2 3 4
0 0 0 0
End
Move R
CORNERS
1 3 2 4
EDGES
1 2 3 4
0 1 0 0
End
Move L
CORNERS
4 2 3 1
EDGES
1 2 3 4
0 0 0 1
End
Move U
CORNERS
2 1 3 4
EDGES
1 2 3 4
1 0 0 0
End
Move D
CORNERS
1 2 4 3
EDGES
1 2 3 4
0 0 1 0
End
";

const SCRAMBLES: &str = "ScrambleAlg two
R U
End
ScrambleAlg four
R U R2 F
End
Scramble twisted
CORNERS
1 2 3 4 5 6 7
1 0 0 0 0 0 0
End
";

/// A folder holding the test 2x2x2, the floppy puzzle and the scramble file.
fn folder() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().to_path_buf();
    std::fs::write(p.join("cube2.def"), CUBE2).unwrap();
    std::fs::write(p.join("floppy.def"), FLOPPY).unwrap();
    std::fs::write(p.join("s.txt"), SCRAMBLES).unwrap();
    (dir, p)
}

/// Runs ksolve in `dir` (so that the files are named as given) and returns its exit
/// code and standard output.
fn run(dir: &Path, args: &[&str]) -> (i32, String) {
    let (code, out, _) = output(ksolve().current_dir(dir).args(args));
    (code, out)
}

/// Each line of JSON output with its times (`seconds`, `table_seconds`,
/// `search_seconds`) set to 0, pretty-printed.
fn json_lines(out: &str) -> String {
    out.lines()
        .map(|line| {
            let mut v: serde_json::Value = serde_json::from_str(line).unwrap();
            zero_seconds(&mut v);
            serde_json::to_string_pretty(&v).unwrap()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn zero_seconds(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                if k.ends_with("seconds") {
                    *x = serde_json::json!(0);
                } else {
                    zero_seconds(x);
                }
            }
        }
        serde_json::Value::Array(a) => a.iter_mut().for_each(zero_seconds),
        _ => {}
    }
}

#[test]
fn check_text_and_json() {
    let (_d, dir) = folder();
    // The twisted corner cannot be solved: exit 1, with the reason.
    let (code, text) = run(&dir, &["check", "cube2.def", "s.txt"]);
    assert_eq!(code, 1);
    insta::assert_snapshot!("check_text", text);
    // `--json` adds the summary as one object on the last line.
    let (code, json) = run(&dir, &["check", "cube2.def", "s.txt", "--json"]);
    assert_eq!(code, 1);
    let last = json.lines().last().unwrap_or("");
    insta::assert_snapshot!("check_json", json_lines(last));
}

#[test]
fn god_text_and_json() {
    let (_d, dir) = folder();
    let (code, text) = run(&dir, &["god", "floppy.def", "--quiet"]);
    assert_eq!(code, 0);
    // Line by line, quoted: the antipodes end in blank lines, which a plain text
    // snapshot would trim.
    insta::assert_debug_snapshot!("god_text", text.split('\n').collect::<Vec<_>>());
    // `--json` adds the table as one object on the last line.
    let (code, json) = run(&dir, &["god", "floppy.def", "--qtm", "--json", "--quiet"]);
    assert_eq!(code, 0);
    let last = json.lines().last().unwrap_or("");
    insta::assert_snapshot!("god_json", json_lines(last));
}

#[test]
fn solve_json() {
    let (_d, dir) = folder();
    let (code, json) = run(
        &dir,
        &[
            "solve",
            "cube2.def",
            "s.txt",
            "--json",
            "--threads",
            "1",
            "--no-cache",
            "--quiet",
        ],
    );
    // The twisted corner cannot be solved.
    assert_eq!(code, 1);
    insta::assert_snapshot!("solve_json", json_lines(&json));
}

#[test]
fn merge_text_and_json() {
    let (_d, dir) = folder();
    for shard in ["0/2", "1/2"] {
        let (code, _) = run(
            &dir,
            &[
                "solve",
                "cube2.def",
                "s.txt",
                "--shard",
                shard,
                "--out",
                "out",
                "--threads",
                "1",
                "--no-cache",
                "--quiet",
            ],
        );
        assert!(code == 0 || code == 1, "shard {shard}: exit {code}");
    }
    let (code, text) = run(&dir, &["merge", "out"]);
    assert_eq!(code, 1);
    insta::assert_debug_snapshot!("merge_text", text.split('\n').collect::<Vec<_>>());
    let (code, json) = run(&dir, &["merge", "out", "--json"]);
    assert_eq!(code, 1);
    insta::assert_snapshot!("merge_json", json_lines(&json));
}
