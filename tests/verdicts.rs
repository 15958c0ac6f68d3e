//! One reachability verdict: a corpus of positions (a twisted corner, moves limited to
//! 0, a goal reached or not, `?` marks, a guarded puzzle's odd position) gets the same
//! verdict from `check`, `solve` and `play`, which all ask the library's solve room
//! (`ksolve::solve::Reachability`); `stats` answers through the same entry point.

use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The 2x2x2's scrambles: each name says what it must get.
const CUBE: &str = "\
Scramble twisted_unreachable
CORNERS
1 2 3 4 5 6 7
1 0 0 0 0 0 0
End
ScrambleAlg near_reachable
R U
End
MoveLimits
U* 0
F* 0
End
ScrambleAlg upturn_unreachable
U
End
ScrambleAlg rturn_reachable
R2
End
";

/// The 2x2x2 with a goal: the position one U turn from solved. Positions are given
/// piece by piece (`play` applies a `ScrambleAlg` to the goal, `solve` to the solved
/// state, so an algorithm would be two positions).
const GOAL: &str = "\
Goal turned
CORNERS
4 1 2 3 5 6 7
End
Scramble solved_reachable
CORNERS
1 2 3 4 5 6 7
End
Scramble twisted_unreachable
CORNERS
1 2 3 4 5 6 7
0 0 0 0 0 0 1
End
MoveLimits
U* 0
End
Scramble fturn_unreachable
CORNERS
2 6 3 4 1 5 7
1 2 0 0 2 1 0
End
Scramble there_reachable
CORNERS
4 1 2 3 5 6 7
End
";

/// A definition whose `Ignore` allows `?` on two pieces: the twists still sum to 0
/// (mod 3) on every reachable position, so a position whose twists are all given and
/// sum to 1 is unreachable whatever the marked pieces are, while one whose twists sum
/// to 0 cannot be judged.
const MARKED_DEF: &str = "\
Name Marked
Set A 4 3
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
A
1 3 2 4
1 2 0 0
End
Ignore
A
1 1 0 0
0 0 0 0
End
";

const MARKED: &str = "\
Scramble twisted_unreachable
A
? ? 3 4
0 0 0 1
End
Scramble untwisted_unknown
A
? ? 4 3
0 0 0 0
End
";

/// The 8-puzzle (guarded moves): two tiles swapped is an odd permutation with the blank
/// home, which no sequence of slides makes.
const SLIDING: &str = "\
Scramble swapped_unreachable
Cells
2 1 3 4 5 6 7 8 9
End
Scramble three_reachable
Cells
1 2 3 4 5 6 7 9 8
End
";

/// Per scramble, whether each command calls it unreachable.
struct Verdicts {
    names: Vec<String>,
    check: Vec<bool>,
    solve: Vec<bool>,
    play: Vec<bool>,
}

fn verdicts(def: &str, scrambles: &str, play: bool) -> Verdicts {
    let dir = tempfile::tempdir().unwrap();
    let scr = dir.path().join("s.txt");
    std::fs::write(&scr, scrambles).unwrap();
    let tables = dir.path().join("tables");
    // A definition given as text is written beside the scrambles.
    let def = if def.contains('\n') {
        let path = dir.path().join("p.def");
        std::fs::write(&path, def).unwrap();
        path
    } else {
        root().join(def)
    };
    let run = |args: &[&str], stdin: &str| {
        let out = crate::common::ksolve()
            .args(args)
            .arg("--tables")
            .arg(&tables)
            .write_stdin(stdin)
            .output()
            .unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    let (def, scr) = (def.to_str().unwrap(), scr.to_str().unwrap());
    // `check` has no --tables: it builds none.
    let out = crate::common::ksolve()
        .args(["check", def, scr, "--json"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let json: serde_json::Value =
        serde_json::from_str(text.lines().last().unwrap()).expect("check's JSON");
    let rows = json["scrambles"].as_array().unwrap();
    let names: Vec<String> = rows
        .iter()
        .map(|r| r["name"].as_str().unwrap().to_string())
        .collect();
    let check = rows.iter().map(|r| r["status"] == "unreachable").collect();
    let solve = run(
        &["solve", def, scr, "--json", "--quiet", "--memory", "64M"],
        "",
    )
    .lines()
    .map(|l| {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        v["status"] == "unreachable"
    })
    .collect();
    let play = if play {
        // One `load` and `check` per scramble; each check's reply is one line.
        let script: String = (1..=names.len())
            .map(|i| format!("load {i}\ncheck\n"))
            .collect();
        let out = run(
            &["play", def, scr, "--quiet", "--no-clock", "--memory", "64M"],
            &script,
        );
        out.lines()
            .filter(|l| {
                [
                    "Unreachable",
                    "Reachable",
                    "Cannot tell",
                    "Impossible",
                    "The group",
                ]
                .iter()
                .any(|w| l.trim_start().starts_with(w))
            })
            .map(|l| {
                let l = l.trim_start();
                l.starts_with("Unreachable") || l.starts_with("Impossible")
            })
            .collect()
    } else {
        Vec::new()
    };
    Verdicts {
        names,
        check,
        solve,
        play,
    }
}

/// Every command agrees, and each scramble gets what its name says.
fn agree(v: &Verdicts, with_play: bool) {
    assert_eq!(v.check.len(), v.names.len());
    assert_eq!(
        v.solve, v.check,
        "solve and check disagree on {:?}",
        v.names
    );
    if with_play {
        assert_eq!(v.play, v.check, "play and check disagree on {:?}", v.names);
    }
    for (name, &unreachable) in v.names.iter().zip(&v.check) {
        assert_eq!(
            unreachable,
            name.ends_with("_unreachable"),
            "{name}: check says unreachable = {unreachable}"
        );
    }
}

#[test]
fn twisted_and_limited_positions_get_one_verdict() {
    let v = verdicts("puzzles/2x2x2.def", CUBE, true);
    agree(&v, true);
}

#[test]
fn marked_positions_get_one_verdict() {
    // Play fills `?` in and judges the whole position it then holds, so only `check`
    // and `solve` are asked here.
    let v = verdicts(MARKED_DEF, MARKED, false);
    agree(&v, false);
}

#[test]
fn a_goal_and_its_moves_get_one_verdict() {
    let v = verdicts("puzzles/2x2x2.def", GOAL, true);
    agree(&v, true);
}

#[test]
fn a_guarded_puzzles_odd_position_gets_one_verdict() {
    let v = verdicts("puzzles/8puzzle.def", SLIDING, true);
    agree(&v, true);
}
