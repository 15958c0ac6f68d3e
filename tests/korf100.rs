//! Korf's 100 instances of the 15-puzzle (`scrambles/15puzzle.korf100.txt`, named
//! after its puzzle as every further scramble file is), the standard benchmark of
//! optimal solvers, with the optimal lengths Korf published in 1985. The default test
//! checks the file itself: a hundred positions of `puzzles/15puzzle.def` that can reach
//! the goal, each Korf's instance (as its comment gives it) turned by 180 degrees and
//! relabelled, with a published length that fits its Manhattan distance. With
//! `KSOLVE_SLOW_TESTS=1` the `ksolve` binary solves all hundred (tables of 57.7 M
//! entries are built in a fresh folder, then minutes of search) and every solution must
//! reach the goal in exactly the published number of moves.

use ksolve::puzzle::{Puzzle, ScrambleSource, State};

/// Korf's first instance as his table prints it, cell by cell in reading order with 0
/// for the blank, and its optimal length: typed here apart from the file so that the
/// file's first comment and scramble are checked against a second copy.
const KORF_1: [u16; 16] = [14, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3];
const KORF_1_LENGTH: u32 = 57;

/// One instance of the file: its comment and its scramble.
struct Instance {
    /// Korf's number, 1 to 100.
    number: usize,
    /// Korf's cells in reading order, 0 for the blank (his goal has it top left).
    korf: Vec<u16>,
    /// The published optimal length.
    length: u32,
    /// The Manhattan distance the comment gives.
    manhattan: u32,
    /// The scramble's name.
    name: String,
    /// The scramble's position: the 0-based label at each cell, 15 for the blank.
    cells: Vec<u16>,
}

fn root() -> &'static str {
    env!("CARGO_MANIFEST_DIR")
}

fn fifteen() -> Puzzle {
    ksolve::def::load_puzzle(format!("{}/puzzles/15puzzle.def", root()))
        .unwrap()
        .0
}

/// Reads a comment line `# Korf N: CELLS; optimal L, Manhattan M`.
fn comment(line: &str) -> Option<(usize, Vec<u16>, u32, u32)> {
    let rest = line.strip_prefix("# Korf ")?;
    let (number, rest) = rest.split_once(": ")?;
    let (cells, rest) = rest.split_once("; optimal ")?;
    let (length, manhattan) = rest.split_once(", Manhattan ")?;
    Some((
        number.parse().ok()?,
        cells.split(' ').map(|c| c.parse().unwrap()).collect(),
        length.parse().ok()?,
        manhattan.parse().ok()?,
    ))
}

/// The file's instances, comments paired with scrambles in order.
fn instances(p: &Puzzle) -> Vec<Instance> {
    let path = format!("{}/scrambles/15puzzle.korf100.txt", root());
    let text = std::fs::read_to_string(&path).unwrap();
    let comments: Vec<_> = text.lines().filter_map(comment).collect();
    let scrambles = ksolve::def::load_scrambles(&path, p).unwrap();
    assert_eq!(comments.len(), scrambles.len(), "one comment per scramble");
    comments
        .into_iter()
        .zip(scrambles)
        .map(|((number, korf, length, manhattan), s)| {
            let ScrambleSource::Position(t) = &s.source else {
                panic!("{}: expected a position", s.name);
            };
            assert!(!t.has_ignores(), "{}", s.name);
            Instance {
                number,
                korf,
                length,
                manhattan,
                name: s.name.clone(),
                cells: t.state.sets[0].perm.clone(),
            }
        })
        .collect()
}

/// Korf's position on our board: his cell c (0-based) is our cell 15 - c, and his tile
/// t is our label 16 - t, 0-based 15 - t (his blank, 0, becomes our blank, 15).
fn mapped(korf: &[u16]) -> Vec<u16> {
    (0..16).map(|c| 15 - korf[15 - c]).collect()
}

/// Whether `cells` (0-based labels) can reach our goal: the permutation's parity equals
/// that of the blank's distance from its home, the bottom-right cell, since each move
/// is a transposition that moves the blank one cell.
fn solvable(cells: &[u16]) -> bool {
    let mut seen = [false; 16];
    let mut cycles = 0;
    for start in 0..16 {
        if !seen[start] {
            cycles += 1;
            let mut i = start;
            while !seen[i] {
                seen[i] = true;
                i = cells[i] as usize;
            }
        }
    }
    let blank = cells.iter().position(|&l| l == 15).unwrap();
    (16 - cycles) % 2 == (3 - blank / 4 + 3 - blank % 4) % 2
}

/// The sum of the tiles' distances from their cells in our goal.
fn manhattan(cells: &[u16]) -> u32 {
    cells
        .iter()
        .enumerate()
        .filter(|(_, &l)| l != 15)
        .map(|(c, &l)| (c / 4).abs_diff(l as usize / 4) + (c % 4).abs_diff(l as usize % 4))
        .sum::<usize>() as u32
}

#[test]
fn korf100_file_holds_the_hundred_instances_mapped() {
    let list = instances(&fifteen());
    assert_eq!(list.len(), 100);
    for (i, x) in list.iter().enumerate() {
        assert_eq!(x.number, i + 1);
        assert_eq!(x.name, format!("korf{}", i + 1));
        let mut sorted = x.cells.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..16).collect::<Vec<u16>>(), "{}", x.name);
        assert!(solvable(&x.cells), "{}: cannot reach the goal", x.name);
        assert_eq!(x.cells, mapped(&x.korf), "{}: not Korf's instance", x.name);
        // The Manhattan distance is the same on Korf's board and ours, bounds the
        // optimal length from below and has its parity (every move changes it by one).
        assert_eq!(manhattan(&x.cells), x.manhattan, "{}", x.name);
        assert!(x.length >= x.manhattan, "{}", x.name);
        assert_eq!((x.length - x.manhattan) % 2, 0, "{}", x.name);
    }
    // Korf's instance 1 as typed above, and the published average of 53.05 moves.
    assert_eq!(list[0].korf, KORF_1);
    assert_eq!(list[0].length, KORF_1_LENGTH);
    assert_eq!(
        list[0].cells,
        [13, 6, 8, 12, 15, 14, 16, 10, 11, 7, 4, 5, 9, 1, 3, 2].map(|l: u16| l - 1)
    );
    assert_eq!(list.iter().map(|x| x.length).sum::<u32>(), 5305);
}

/// Whether `moves` (names) take `start` to the goal, each move allowed where it is made.
fn reaches_goal(p: &Puzzle, start: &State, moves: &str) -> Result<(), String> {
    let mut s = start.clone();
    for name in moves.split_whitespace() {
        let m = p
            .move_by_name(name)
            .ok_or_else(|| format!("unknown move {name}"))?;
        if !p.block_allows(&s, m) {
            return Err(format!("{name} is not allowed where it is made"));
        }
        s = s.then(&p.mv(m).effect, &p.sets);
    }
    if p.is_solved(&s, &[]) {
        Ok(())
    } else {
        Err("does not reach the goal".into())
    }
}

/// Slow (`KSOLVE_SLOW_TESTS=1`): the binary solves each instance in its published
/// optimal length, with a solution that reaches the goal.
#[test]
fn korf100_solved_in_the_published_lengths() {
    if !crate::common::slow_tests() {
        eprintln!("skipped: set KSOLVE_SLOW_TESTS=1");
        return;
    }
    let p = fifteen();
    let list = instances(&p);
    let tables = tempfile::tempdir().unwrap();
    let out = crate::common::ksolve()
        .current_dir(root())
        .args([
            "solve",
            "puzzles/15puzzle.def",
            "scrambles/15puzzle.korf100.txt",
            "--json",
            "--quiet",
            "--count",
            "1",
            "--memory",
            "8G",
            "--tables",
        ])
        .arg(tables.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), list.len());
    for (got, x) in lines.iter().zip(&list) {
        assert_eq!(got["name"], x.name.as_str());
        assert_eq!(got["status"], "solved", "{}", x.name);
        assert_eq!(got["length"], x.length, "{}", x.name);
        let solutions = got["solutions"].as_array().unwrap();
        assert_eq!(solutions.len(), 1, "{}", x.name);
        let moves = solutions[0].as_str().unwrap();
        assert_eq!(moves.split_whitespace().count() as u32, x.length);
        let mut start = p.solved.clone();
        start.sets[0].perm = x.cells.clone();
        if let Err(why) = reaches_goal(&p, &start, moves) {
            panic!("{}: {moves}: {why}", x.name);
        }
    }
}
