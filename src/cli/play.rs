//! `ksolve play PUZZLE.def [SCRAMBLES.txt]`: the front ends of a play session
//! (`ksolve::play`). On a terminal, a line editor (rustyline: history, Tab completion
//! of move, macro and command names) and the net in colour; otherwise commands are read
//! from standard input, one per line, each echoed after `> ` with no prompt and no
//! colour, so a session is a script and its output a transcript. Everything a session
//! says goes to standard output, errors included (`error: ...`), in the order it
//! happens; a script with an error ends with status 2 once it has run to its end.

use super::output;
use super::progress::Bars;
use super::show::ColorWhen;
use super::table_args::TableArgs;
use super::{input, EXIT_ERROR, EXIT_OK};
use ksolve::picture::{self, Look};
use ksolve::play::{PlayError, Reply, Session, Setup};
use ksolve::progress::Progress;
use ksolve::puzzle::Puzzle;
use ksolve::sticker::draw;
use ksolve::table::Tables;
use rustyline::completion::Completer;
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::history::DefaultHistory;
use rustyline::validate::Validator;
use rustyline::{CompletionType, Config, Context, Editor, Helper};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

/// Play with a puzzle: moves, undo, scrambles, optimal solutions step by step, hints,
/// reachability checks and macros.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  ksolve play puzzles/3x3x3.def                                   play on a terminal
  ksolve play puzzles/rotate.def scrambles/rotate.txt             Rotate, one swap per game
  ksolve play puzzles/3x3x3_slices.def scrambles/3x3x3_slices.checkers.txt   `solve CHECKERS`
  printf 'scramble 5\\nsolve\\ngo\\n' | ksolve play puzzles/2x2x2.def --seed 1 --no-clock

Type `help` in a session for its commands. Off a terminal, commands are read from
standard input and echoed after `> `, so the output is a transcript.")]
pub struct PlayArgs {
    /// The puzzle definition (ksolve+ .def format).
    pub def: PathBuf,
    /// A scramble file: its scrambles for `load`, its settings (move limits, goal) and
    /// its named goals for `solve PATTERN`.
    pub scrambles: Option<PathBuf>,
    /// Seed for `scramble`, so that sessions repeat.
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// Do not print the elapsed time (for transcripts that must not change).
    #[arg(long)]
    pub no_clock: bool,
    /// When to draw the net in colour (ANSI).
    #[arg(long, value_enum, default_value_t, value_name = "WHEN")]
    pub color: ColorWhen,
    /// The macro file, read at the start and written by `save` (default: the
    /// definition's path with `.macros` added, e.g. `puzzles/3x3x3.def.macros`).
    #[arg(long, value_name = "FILE")]
    pub macros: Option<PathBuf>,
    /// Where tables are kept and how much memory they may take.
    #[command(flatten)]
    pub table: TableArgs,
    /// Show no progress on stderr while tables are built and searches run.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Tab completion of the names a session knows: moves, macros and command words.
struct Names(Vec<String>);

impl Completer for Names {
    type Candidate = String;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<String>)> {
        let start = line[..pos]
            .rfind(|c: char| c.is_whitespace() || "()[],:".contains(c))
            .map_or(0, |i| i + 1);
        let word = &line[start..pos];
        let mut found: Vec<String> = self
            .0
            .iter()
            .filter(|n| n.starts_with(word))
            .cloned()
            .collect();
        found.sort();
        found.dedup();
        Ok((start, found))
    }
}

impl Hinter for Names {
    type Hint = String;
}
impl Highlighter for Names {}
impl Validator for Names {}
impl Helper for Names {}

/// How a session is drawn.
struct View {
    color: bool,
    clock: bool,
}

impl View {
    /// The messages of `reply`, then (when it asks) the position and the status.
    fn write(&self, puzzle: &Puzzle, session: &Session, reply: &Reply) -> std::io::Result<()> {
        let mut out = output::stdout();
        for w in &reply.warnings {
            writeln!(out, "warning: {w}")?;
        }
        for line in &reply.lines {
            writeln!(out, "{line}")?;
        }
        if reply.show {
            self.position(&mut out, puzzle, session)?;
        }
        out.flush()
    }

    fn position(
        &self,
        out: &mut impl Write,
        puzzle: &Puzzle,
        session: &Session,
    ) -> std::io::Result<()> {
        let look = Look {
            ansi: self.color,
            lettering: session.lettering().cloned(),
        };
        let picture = match (&puzzle.stickers, session.entered_letters()) {
            // A colouring that is no position is drawn as it was typed.
            (Some(map), Some(letters)) => draw::text(map, letters, letters, self.color),
            _ => picture::text(puzzle, session.state(), &look),
        };
        write!(out, "{picture}")?;
        let mut status = session.status();
        if self.clock {
            status.push(format!("Time: {:.1} s", session.elapsed().as_secs_f64()));
        }
        for s in status {
            writeln!(out, "{s}")?;
        }
        Ok(())
    }
}

pub fn run(args: PlayArgs) -> anyhow::Result<u8> {
    let bars = Bars::new(args.quiet);
    let (puzzle, bytes, def_name) = super::input::definition(&args.def, &bars)?;
    let scrambles = match &args.scrambles {
        Some(path) => input::scrambles(path, &puzzle)?,
        None => Vec::new(),
    };
    let cache = args.table.cache(&args.def, &puzzle, &bytes, &bars);
    let tables = Tables::new(cache, args.table.budget());
    let macro_path = args.macros.clone().unwrap_or_else(|| {
        let mut p = args.def.clone().into_os_string();
        p.push(".macros");
        PathBuf::from(p)
    });
    let mut session = Session::new(Setup {
        puzzle: &puzzle,
        def_name: def_name.clone(),
        scrambles,
        tables,
        seed: args.seed,
        macro_path: Some(macro_path),
    })?;
    let terminal = std::io::stdin().is_terminal();
    let view = View {
        color: match args.color {
            ColorWhen::Auto => terminal && std::io::stdout().is_terminal(),
            c => c.on(),
        },
        clock: !args.no_clock,
    };
    let name = puzzle.name.as_deref().unwrap_or(&def_name);
    let intro = Reply {
        lines: vec![format!("Playing {name}. Type `help` for the commands.")],
        show: true,
        ..Reply::default()
    };
    view.write(&puzzle, &session, &intro)?;
    if terminal {
        interactive(&puzzle, &mut session, &view, &bars)
    } else {
        script(&puzzle, &mut session, &view, &bars)
    }
}

/// Runs one line and shows what it says; `Ok(true)` when the session is over.
fn one_line(
    puzzle: &Puzzle,
    session: &mut Session,
    view: &View,
    bars: &dyn Progress,
    line: &str,
    (file, no): (&str, usize),
) -> anyhow::Result<Result<bool, PlayError>> {
    match session.command(line, file, no, bars) {
        Ok(reply) => {
            view.write(puzzle, session, &reply)?;
            Ok(Ok(reply.quit))
        }
        Err(e) => {
            let mut out = output::stdout();
            writeln!(out, "error: {e}")?;
            out.flush()?;
            Ok(Err(e))
        }
    }
}

/// Commands from standard input, echoed, with no prompt.
fn script(
    puzzle: &Puzzle,
    session: &mut Session,
    view: &View,
    bars: &dyn Progress,
) -> anyhow::Result<u8> {
    let mut code = EXIT_OK;
    let stdin = std::io::stdin();
    let mut reader = stdin.lock();
    let mut buf = Vec::new();
    let mut no = 0;
    // Lines are capped, so that an endless one (`< /dev/zero`) ends the session with an
    // error rather than filling memory.
    while input::read_line(&mut reader, &mut buf, no + 1, "one command per line")? {
        no += 1;
        let mut out = output::stdout();
        let line = match std::str::from_utf8(&buf) {
            Ok(line) => line,
            Err(e) => {
                // A line that is not text is refused where its first bad byte lies,
                // like any refused command, and the session goes on.
                let good = std::str::from_utf8(&buf[..e.valid_up_to()]).unwrap_or_default();
                let shown = String::from_utf8_lossy(&buf);
                writeln!(out, "> {shown}")?;
                writeln!(
                    out,
                    "error: {}:{no}:{}: byte 0x{:02x} is not UTF-8 text: expected a command \
                     or moves in UTF-8; nothing on this line was done",
                    input::STDIN_NAME,
                    good.chars().count() + 1,
                    buf[e.valid_up_to()]
                )?;
                out.flush()?;
                code = EXIT_ERROR;
                continue;
            }
        };
        writeln!(out, "> {line}")?;
        drop(out);
        match one_line(puzzle, session, view, bars, line, (input::STDIN_NAME, no))? {
            Ok(true) => break,
            Ok(false) => {}
            Err(_) => code = EXIT_ERROR,
        }
    }
    Ok(code)
}

/// Commands from a terminal, through the line editor.
fn interactive(
    puzzle: &Puzzle,
    session: &mut Session,
    view: &View,
    bars: &dyn Progress,
) -> anyhow::Result<u8> {
    // Tab completes as far as the names agree and a second Tab lists them, as shells do.
    let config = Config::builder()
        .completion_type(CompletionType::List)
        .auto_add_history(false)
        .build();
    let mut editor: Editor<Names, DefaultHistory> = Editor::with_config(config)?;
    editor.set_helper(Some(Names(session.completions())));
    let mut no = 0;
    loop {
        if let Some(names) = editor.helper_mut() {
            names.0 = session.completions();
        }
        let line = match editor.readline("play> ") {
            Ok(line) => line,
            Err(ReadlineError::Eof | ReadlineError::Interrupted) => break,
            Err(e) => return Err(e.into()),
        };
        no += 1;
        if !line.trim().is_empty() {
            let _ = editor.add_history_entry(line.as_str());
        }
        // A refused command is said and the session goes on.
        if let Ok(true) = one_line(puzzle, session, view, bars, &line, ("<input>", no))? {
            break;
        }
    }
    Ok(EXIT_OK)
}
