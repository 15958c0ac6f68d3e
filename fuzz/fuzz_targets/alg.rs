//! Fuzz target for the algorithm parser (`ksolve alg`, `ScrambleAlg`): the first byte
//! picks a puzzle (Blocks, `When` guards, directed moves, order-5 moves, and move names
//! that look like the notation, with twsearch aliases), the rest is read as the lines of
//! one algorithm, as `ksolve alg` reads its argument. No bytes may panic; a refusal must
//! point at one of the lines read; an algorithm read must stay within `MAX_ALG_MOVES`
//! both ways, expand to exactly as many moves as it says, each at a place in the text;
//! inverting it twice (written `((A)')'`) must give its moves again, once (`(A)'`) its
//! inverse, which undoes it; and what `ksolve alg` does with it next (the Block and
//! guard check, simplify, the order) must not panic, and simplify must keep the
//! position.
#![no_main]

#[path = "shipped.rs"]
mod shipped;

use ksolve::alg::{self, inverse_sequence, AlgLine, MoveNames, MAX_ALG_MOVES};
use ksolve::def::DefError;
use ksolve::puzzle::{MoveId, Puzzle, Transform};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

const DEFS: [&str; 7] = [
    include_str!("../../puzzles/3x3x3_ll.def"),
    include_str!("../../puzzles/3x3x3_bandaged.def"),
    include_str!("../../puzzles/2x2x2_directed.def"),
    include_str!("../../puzzles/pyraminx.def"),
    include_str!("../../puzzles/megaminx.def"),
    include_str!("../../puzzles/8puzzle.def"),
    include_str!("../defs/lookalikes.def"),
];

/// Expanding costs time and memory in proportion to the moves, and a few bytes can ask
/// for `MAX_ALG_MOVES` (half a billion); beyond this only the counts are checked. Kept
/// small: the checks replay the moves several times, and under the sanitizer a replayed
/// move costs tens of microseconds, so `[U, R]70510` took 80 s with a bound of 2^20.
const EXPAND_AT_MOST: u64 = 1 << 12;

/// The puzzles of `DEFS`, parsed at the first input.
static PUZZLES: OnceLock<Vec<Puzzle>> = OnceLock::new();

fn read(lines: &[AlgLine<'_>], names: &MoveNames<'_>) -> Result<alg::Alg, DefError> {
    alg::parse("fuzz.alg", lines, names)
}

/// The lines of `text` wrapped in `open` and `close`, each on a line of its own so that a
/// comment on the algorithm's last line cannot swallow `close`.
fn wrapped<'a>(open: &'a str, lines: &[AlgLine<'a>], close: &'a str) -> Vec<AlgLine<'a>> {
    let mut out = vec![AlgLine { no: 0, text: open }];
    out.extend_from_slice(lines);
    out.push(AlgLine {
        no: lines.len() + 1,
        text: close,
    });
    out
}

/// `wrapped` read, which may only fail where the extra brackets nest too deep.
fn read_wrapped(lines: &[AlgLine<'_>], names: &MoveNames<'_>) -> Option<alg::Alg> {
    match read(lines, names) {
        Ok(a) => Some(a),
        Err(e) => {
            let msg = e.to_string();
            assert!(msg.contains("nest more than"), "wrapped refused: {msg}");
            None
        }
    }
}

fn check_expansion(puzzle: &Puzzle, a: &alg::Alg, lines: &[AlgLine<'_>], inverse: bool) {
    let mut n = 0u64;
    let _ = a.expand::<()>(puzzle, inverse, &mut |_, at| {
        n += 1;
        let line = lines
            .get(at.line as usize)
            .unwrap_or_else(|| panic!("move placed on line index {}", at.line));
        let chars = line.text.chars().count() as u32;
        assert!(
            (1..=chars).contains(&at.col),
            "move placed at column {} of a line of {chars} characters",
            at.col
        );
        Ok(())
    });
    assert_eq!(n, a.len(inverse), "expansion length (inverse: {inverse})");
}

fn position(puzzle: &Puzzle, seq: &[MoveId]) -> Transform {
    puzzle.apply_sequence(&Transform::identity(&puzzle.sets), seq)
}

fuzz_target!(|data: &[u8]| {
    let Some((puzzle, text)) = shipped::pick(&PUZZLES, &DEFS, data) else {
        return;
    };
    let names = MoveNames::new(puzzle);
    let text = String::from_utf8_lossy(text);
    let lines: Vec<AlgLine> = text
        .split('\n')
        .enumerate()
        .map(|(i, t)| AlgLine { no: i + 1, text: t })
        .collect();
    let a = match read(&lines, &names) {
        Ok(a) => a,
        Err(e) => {
            // Rendering the message must not panic either (it quotes arbitrary lines).
            drop(e.to_string());
            assert!(
                (1..=lines.len()).contains(&e.line),
                "refusal at line {} of {}",
                e.line,
                lines.len()
            );
            let text = lines[e.line - 1].text;
            assert_eq!(e.text, text);
            let chars = text.chars().count();
            assert!(
                (1..=chars + 1).contains(&e.col),
                "refusal at column {} of a line of {chars} characters",
                e.col
            );
            return;
        }
    };
    assert!(a.len(false) <= MAX_ALG_MOVES, "{} moves", a.len(false));
    assert!(
        a.len(true) <= MAX_ALG_MOVES,
        "{} moves inverted",
        a.len(true)
    );
    let once = read_wrapped(&wrapped("(", &lines, ")'"), &names);
    let twice = read_wrapped(&wrapped("((", &lines, ")')'"), &names);
    for w in once.iter().chain(&twice) {
        // The wrappers are not moves, so they only swap the two lengths.
        assert!(w.len(false) <= MAX_ALG_MOVES && w.len(true) <= MAX_ALG_MOVES);
    }
    if let Some(once) = &once {
        assert_eq!(
            (once.len(false), once.len(true)),
            (a.len(true), a.len(false))
        );
    }
    if let Some(twice) = &twice {
        assert_eq!(
            (twice.len(false), twice.len(true)),
            (a.len(false), a.len(true))
        );
    }
    if a.len(false).max(a.len(true)) > EXPAND_AT_MOST {
        return;
    }

    check_expansion(puzzle, &a, &lines, false);
    check_expansion(puzzle, &a, &lines, true);
    let fwd = a.moves(puzzle, false);
    let inv = a.moves(puzzle, true);
    if let Some(once) = &once {
        assert_eq!(
            once.moves(puzzle, false),
            inv,
            "(A)' differs from A inverted"
        );
    }
    if let Some(twice) = &twice {
        assert_eq!(twice.moves(puzzle, false), fwd, "((A)')' differs from A");
    }
    assert!(
        position(puzzle, &[&fwd[..], &inv[..]].concat()).is_identity(),
        "the inverse does not undo the algorithm"
    );
    // The flat inverse agrees with the tree's, move for move where no move is directed
    // (a directed move's inverse is repeats of it, so there only the position agrees).
    let flat = inverse_sequence(puzzle, &fwd);
    if puzzle.base_moves.iter().all(|b| !b.directed) {
        assert_eq!(flat, inv);
        assert_eq!(inverse_sequence(puzzle, &inv), fwd);
    } else {
        assert_eq!(position(puzzle, &flat), position(puzzle, &inv));
    }

    // What `ksolve alg` does next.
    match a.legal_moves(puzzle, "fuzz.alg", &lines) {
        Ok(legal) => assert_eq!(legal, fwd),
        Err(e) => drop(e.to_string()),
    }
    let short = alg::simplify(puzzle, &fwd);
    assert!(short.len() <= fwd.len());
    assert_eq!(position(puzzle, &short), position(puzzle, &fwd));
    drop(alg::order(puzzle, &fwd));
});
