//! The commands of a play session, read from one line of input.
//!
//! A line whose first word is a command word is that command; any other line is moves
//! in the definition's notation (several per line, with the alg syntax), so a move
//! that happens to be called like a command must be written in parentheses (`(list)`).
//! Command words are lowercase, as are none of the shipped puzzles' moves.

/// One command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// An empty line: the next step of a solution being shown, else nothing.
    Empty,
    /// Moves (and macros) in the alg notation; the text is the whole line.
    Moves(String),
    Undo,
    Reset,
    /// `scramble`: a uniform random position; `scramble N`: N moves from the goal.
    Scramble(Option<usize>),
    /// `solve` (to the session's goal) or `solve PATTERN` (to a named goal).
    Solve(Option<String>),
    /// The rest of the solution being shown.
    Go,
    Hint,
    Check,
    Answer,
    /// `load NAME`: a scramble of the scramble file, by name or 1-based number.
    Load(String),
    /// `enter COLOURS` / `facelets COLOURS`: a position by its stickers.
    Enter(String),
    /// `def NAME MOVES`: the name and the column (1-based) where the moves start.
    Def {
        name: String,
        moves_at: usize,
    },
    List,
    Forget(String),
    Save,
    Help,
    Quit,
}

/// The command words, for completion and help.
pub const WORDS: &[&str] = &[
    "undo", "reset", "scramble", "solve", "go", "hint", "check", "answer", "load", "enter",
    "facelets", "def", "list", "forget", "save", "help", "quit",
];

/// What is wrong with a command line (the command line's own words; moves are judged
/// by the algorithm parser).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    #[error("`{command}` needs {what}")]
    Missing {
        command: &'static str,
        what: &'static str,
    },
    #[error("`{command}` takes {what}; found `{found}`")]
    Extra {
        command: &'static str,
        what: &'static str,
        found: String,
    },
    #[error("`{found}` is not a number of moves: expected `scramble` or `scramble N` with N from 0 to {max}")]
    BadCount { found: String, max: usize },
}

/// The most moves `scramble N` makes.
pub const MAX_SCRAMBLE_MOVES: usize = 100_000;

/// The words of `line` with the 1-based column where each starts.
fn words(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (col, (i, c)) in line.char_indices().enumerate() {
        match (c.is_whitespace(), start) {
            (false, None) => start = Some((col + 1, i)),
            (true, Some((col0, i0))) => {
                out.push((col0, &line[i0..i]));
                start = None;
            }
            _ => {}
        }
    }
    if let Some((col0, i0)) = start {
        out.push((col0, &line[i0..]));
    }
    out
}

/// Reads one line of input.
pub fn parse(line: &str) -> Result<Command, CommandError> {
    let w = words(line);
    let Some(&(_, first)) = w.first() else {
        return Ok(Command::Empty);
    };
    let rest = &w[1..];
    // Commands that take nothing refuse anything after them, rather than ignore it.
    let bare = |cmd: &'static str, c: Command| match rest.first() {
        None => Ok(c),
        Some((_, found)) => Err(CommandError::Extra {
            command: cmd,
            what: "nothing after it",
            found: found.to_string(),
        }),
    };
    let one = |cmd: &'static str, what: &'static str| match rest {
        [] => Err(CommandError::Missing { command: cmd, what }),
        [(_, a)] => Ok(a.to_string()),
        [_, (_, found), ..] => Err(CommandError::Extra {
            command: cmd,
            what,
            found: found.to_string(),
        }),
    };
    match first {
        "undo" => bare("undo", Command::Undo),
        "reset" => bare("reset", Command::Reset),
        "go" => bare("go", Command::Go),
        "hint" => bare("hint", Command::Hint),
        "check" => bare("check", Command::Check),
        "answer" => bare("answer", Command::Answer),
        "list" => bare("list", Command::List),
        "save" => bare("save", Command::Save),
        "help" => bare("help", Command::Help),
        "quit" | "exit" => bare("quit", Command::Quit),
        "scramble" => match rest {
            [] => Ok(Command::Scramble(None)),
            [(_, n)] => match n.parse::<usize>() {
                Ok(n) if n <= MAX_SCRAMBLE_MOVES => Ok(Command::Scramble(Some(n))),
                _ => Err(CommandError::BadCount {
                    found: n.to_string(),
                    max: MAX_SCRAMBLE_MOVES,
                }),
            },
            [_, (_, found), ..] => Err(CommandError::Extra {
                command: "scramble",
                what: "at most a number of moves",
                found: found.to_string(),
            }),
        },
        "solve" => match rest {
            [] => Ok(Command::Solve(None)),
            _ => one("solve", "at most a goal's name").map(|p| Command::Solve(Some(p))),
        },
        "load" => one("load", "a scramble's name or number").map(Command::Load),
        "forget" => one("forget", "a macro's name").map(Command::Forget),
        "enter" | "facelets" => match rest {
            [] => Err(CommandError::Missing {
                command: "enter",
                what: "the colours, one letter per sticker",
            }),
            // Blanks may group the letters (a face per word); they are not colours.
            _ => Ok(Command::Enter(
                rest.iter().map(|(_, s)| *s).collect::<Vec<_>>().concat(),
            )),
        },
        "def" => match rest {
            [] => Err(CommandError::Missing {
                command: "def",
                what: "a name and the moves it stands for",
            }),
            [(_, name), tail @ ..] => Ok(Command::Def {
                name: name.to_string(),
                moves_at: tail.first().map_or(line.chars().count() + 1, |(c, _)| *c),
            }),
        },
        _ => Ok(Command::Moves(line.to_string())),
    }
}

/// The help text: one line per command.
pub const HELP: &str = "\
Commands (anything else is moves, several per line: R U R' U', (R U)3, [R, U]):
  undo              take back the last move
  reset             back to the start of this game (the last scramble, load or enter)
  scramble          a uniform random position (a random walk where moves are guarded)
  scramble N        N random moves, made backwards: N moves always solve it
  solve [PATTERN]   an optimal solution to the goal (or to a named goal), shown move by
                    move: Enter for the next move, `go` for the rest
  hint              the first move of an optimal solution
  check             whether this position can be solved, and why not
  answer            the scrambler's own solution
  load NAME         a scramble of the scramble file, by name or number
  enter COLOURS     a position by its stickers (also `facelets COLOURS`)
  def NAME MOVES    a macro (it may use earlier macros); `list`, `forget NAME`, `save`
  help, quit";
