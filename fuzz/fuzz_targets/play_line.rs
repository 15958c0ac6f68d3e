//! Fuzz target for what `ksolve play` does with a line of input: the first byte picks a
//! puzzle (stickers to enter, directed moves, `When` guards, Blocks and move names that
//! look like the notation; all small enough to search in milliseconds), the rest is a script of lines, split as the scripted session
//! splits standard input (a line that is not UTF-8 is refused there and skipped here).
//! Every line goes through the command parser, which may not panic and whose refusals
//! must be the session's; then through a session, command after command. No line may
//! panic; a refused line must leave the session as it was (position, status, macros);
//! a line of moves may make at most `MAX_LINE_MOVES`, a game hold at most
//! `MAX_GAME_MOVES` and a macro stand for at most `MAX_MACRO_MOVES`; and what the front
//! end draws after a line (the position, its stickers, the status) must not panic
//! either.
//!
//! Standard input's capped line reader is the command line's (`src/cli/input.rs`),
//! which this crate cannot reach; it is tested by `tests/hostile_cli.rs`.
#![no_main]

use ksolve::def::parse_puzzle;
use ksolve::picture::{self, Look};
use ksolve::play::command::{self, Command};
use ksolve::play::macros::MAX_MACRO_MOVES;
use ksolve::play::{PlayError, Session, Setup, MAX_GAME_MOVES, MAX_LINE_MOVES};
use ksolve::progress::Silent;
use ksolve::puzzle::Puzzle;
use ksolve::sticker::draw;
use ksolve::storage::cache::TableCache;
use ksolve::table::Tables;
use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;
use std::sync::OnceLock;

/// The puzzles, by the name their tables are cached under. Their searches are quick:
/// a session on the 2x2x2 took 0.2 s per `solve` under the sanitizer, building its
/// move tables.
const DEFS: [(&str, &str); 4] = [
    ("pyraminx", include_str!("../../puzzles/pyraminx.def")),
    (
        "2x2x2_directed",
        include_str!("../../puzzles/2x2x2_directed.def"),
    ),
    ("8puzzle", include_str!("../../puzzles/8puzzle.def")),
    ("lookalikes", include_str!("../defs/lookalikes.def")),
];

/// Lines per input: enough for a game (scramble, moves, macros, undo), few enough that
/// an input of many short lines stays quick.
const MAX_LINES: usize = 64;

/// The longest `scramble N` run (longer ones are only parsed): the level scramble
/// tries every move at every step, 80 µs a step under the sanitizer, so `scramble
/// 100000` took 8 s.
const MAX_RUN_SCRAMBLE: usize = 1000;

fn puzzles() -> &'static Vec<Puzzle> {
    static P: OnceLock<Vec<Puzzle>> = OnceLock::new();
    P.get_or_init(|| {
        DEFS.iter()
            .map(|(_, d)| {
                parse_puzzle(d.as_bytes(), "shipped.def")
                    .expect("shipped puzzle")
                    .0
            })
            .collect()
    })
}

/// The table cache of puzzle `pick`. A session builds its pruning tables at its first
/// search (`solve`, `hint`, or a line of moves that reaches the goal), which takes
/// seconds on the 2x2x2; kept on disk, they are built once per run and then loaded
/// (and verified) in milliseconds. The folder is shared by runs of this target.
fn cache(pick: usize) -> TableCache {
    let (name, text) = DEFS[pick];
    let dir = std::env::temp_dir().join("ksolve-fuzz-play_line");
    // A folder that cannot be made leaves the cache in memory: slower, as correct.
    let dir = std::fs::create_dir_all(&dir).ok().map(|()| dir);
    let path = PathBuf::from(format!("{name}.def"));
    TableCache::open(dir, &path, name, text.as_bytes(), &Silent)
}

/// What a refused line must leave as it was. Any command but the next step ends the
/// showing of a solution, refused or not, so its status line is left out.
fn snapshot(s: &Session) -> impl PartialEq + std::fmt::Debug {
    let mut status = s.status();
    status.retain(|l| !l.starts_with("Solution:"));
    (
        s.state().clone(),
        status,
        s.entered_letters().map(<[char]>::to_vec),
        s.macros().iter().cloned().collect::<Vec<_>>(),
    )
}

/// The moves of the game so far, as the status says.
fn moves_made(s: &Session) -> usize {
    let status = s.status();
    let n = status[0]
        .strip_prefix("Moves: ")
        .expect("the move count first");
    n.parse().expect("a count")
}

/// What the front end draws after a line that asks for it.
fn draw(puzzle: &Puzzle, s: &Session) {
    let look = Look {
        ansi: false,
        lettering: s.lettering().cloned(),
    };
    let picture = match (&puzzle.stickers, s.entered_letters()) {
        (Some(map), Some(letters)) => draw::text(map, letters, letters, false),
        _ => picture::text(puzzle, s.state(), &look),
    };
    drop(picture);
    drop(s.status());
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, script)) = data.split_first() else {
        return;
    };
    let which = pick as usize % DEFS.len();
    let puzzle = &puzzles()[which];
    let mut session = Session::new(Setup {
        puzzle,
        def_name: "fuzz.def".into(),
        scrambles: Vec::new(),
        tables: Tables::new(cache(which), 16 << 20),
        seed: Some(u64::from(pick)),
        macro_path: None,
    })
    .expect("a session without a macro file");
    for (i, line) in script.split(|&b| b == b'\n').take(MAX_LINES).enumerate() {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let Ok(line) = std::str::from_utf8(line) else {
            continue;
        };
        let parsed = command::parse(line);
        if let Err(e) = &parsed {
            drop(e.to_string());
        }
        if matches!(parsed, Ok(Command::Scramble(Some(n))) if n > MAX_RUN_SCRAMBLE) {
            continue;
        }
        let before = snapshot(&session);
        let made = moves_made(&session);
        match session.command(line, "<stdin>", i + 1, &Silent) {
            Ok(reply) => {
                assert!(parsed.is_ok(), "{parsed:?} refused, the session took it");
                let now = moves_made(&session);
                assert!(now <= MAX_GAME_MOVES, "a game of {now} moves");
                if let Ok(Command::Moves(_)) = parsed {
                    let n = now - made;
                    assert!(n as u64 <= MAX_LINE_MOVES, "a line made {n} moves");
                }
                for m in session.macros().iter() {
                    assert!(m.moves.len() <= MAX_MACRO_MOVES, "{} moves", m.moves.len());
                }
                drop(reply.lines.concat() + &reply.warnings.concat());
                if reply.show {
                    draw(puzzle, &session);
                }
                if reply.quit {
                    assert_eq!(parsed, Ok(Command::Quit));
                    break;
                }
            }
            Err(e) => {
                drop(e.to_string());
                match (&parsed, &e) {
                    (Err(p), PlayError::Command(c)) => assert_eq!(p, c),
                    (Err(p), other) => panic!("parse refused {p:?}, the session said {other}"),
                    (Ok(_), _) => {}
                }
                assert_eq!(
                    before,
                    snapshot(&session),
                    "refused `{line}` changed the session"
                );
            }
        }
    }
});
