//! `ksolve check PUZZLE.def [SCRAMBLES.txt] [--json]`: validates a definition (and a
//! scramble file against it) and prints what was understood, so that a user can see how
//! ksolve reads their files before solving anything.

use super::input;
use super::output;
use super::{EXIT_NO_SOLUTION, EXIT_OK};
use ksolve::def::load_puzzle;
use ksolve::group::{move_order, BigUint, Group};
use ksolve::puzzle::{LimitKey, Puzzle, Scramble, ScrambleSource};
use ksolve::solve::{Origin, Reach, ReachStatus, Reachability};
use ksolve::symmetry::SymmetryGroup;
use serde::Serialize;
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `ksolve check`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  ksolve check puzzles/3x3x3.def                       sets, moves, exact group size
  ksolve check puzzles/3x3x3.def scrambles/3x3x3.txt   and whether each scramble can be solved
  cat s.txt | ksolve check puzzles/3x3x3.def -         scrambles from standard input
  ksolve check puzzles/2x2x2.def --json | tail -1      the summary as JSON")]
pub struct CheckArgs {
    /// The puzzle definition file (ksolve+ `.def` format).
    pub def: PathBuf,
    /// A scramble file to validate against the puzzle; `-` reads standard input.
    pub scrambles: Option<PathBuf>,
    /// Also print the summary as one JSON object on the last line.
    #[arg(long)]
    pub json: bool,
    /// Also count every arrangement of the pieces (every permutation and orientation)
    /// and the classes that no sequence of moves connects.
    #[arg(long)]
    pub orbits: bool,
    /// Do not use symmetry (reduction of pruning tables); the symmetry group is then
    /// reported as off, of size 1.
    #[arg(long)]
    pub no_symmetry: bool,
}

#[derive(Serialize)]
struct SetSummary {
    name: String,
    size: usize,
    orientations: u8,
    /// Arrangements ignoring every constraint; an upper bound on reachable states.
    upper_bound: u128,
    interchangeable: bool,
}

#[derive(Serialize)]
struct MoveSummary {
    name: String,
    /// The exact order: a number, or a decimal string beyond `u64`.
    order: serde_json::Value,
    directed: bool,
    /// Whether searches use the move unless `--moves` or `MoveLimits` says otherwise
    /// (false for a move the definition's `SearchMoves` leaves out).
    searched: bool,
    moves: Vec<String>,
    /// The `MoveCosts` weight of each of `moves`, when the definition weighs any move.
    #[serde(skip_serializing_if = "Option::is_none")]
    weights: Option<Vec<u32>>,
}

#[derive(Serialize)]
struct IgnoreSummary {
    set: String,
    /// 1-based positions whose permutation scrambles may ignore.
    perm: Vec<usize>,
    /// 1-based positions whose orientation scrambles may ignore.
    ori: Vec<usize>,
}

#[derive(Serialize)]
struct LimitSummary {
    /// The names as written, blank-separated: a move name, or a base name followed by
    /// `*` for the move and all its powers.
    moves: String,
    /// The same names one by one; with more than one, `max` is shared between them.
    names: Vec<String>,
    max: u32,
}

#[derive(Serialize)]
struct ScrambleSummary {
    name: String,
    line: usize,
    kind: &'static str,
    /// The number of moves of a `ScrambleAlg`.
    alg_moves: Option<usize>,
    ignores: bool,
    metric: &'static str,
    max_depth: u32,
    slack: u32,
    limits: Vec<LimitSummary>,
    /// `reachable`, `unreachable` or `unknown` (positions that ignore parts of the
    /// puzzle, puzzles with blocks, searches out of budget).
    status: ReachStatus,
    /// Why an unreachable position cannot be reached.
    reason: Option<String>,
    /// The names of the positions of the goal in force (`Goal` / `GoalAlg` blocks);
    /// absent for the definition's `Solved`.
    #[serde(skip_serializing_if = "Option::is_none")]
    goal: Option<Vec<String>>,
    /// The goal position the scramble was found to reach, when it was checked.
    #[serde(skip_serializing_if = "Option::is_none")]
    reaches: Option<String>,
}

#[derive(Serialize)]
struct OrbitsSummary {
    /// Every permutation (as a multiset where pieces are interchangeable) times every
    /// orientation vector; a number, or a decimal string beyond `u64`.
    arrangements: serde_json::Value,
    /// How many classes the arrangements fall into; null with interchangeable pieces or
    /// blocks, whose classes differ in size.
    classes: Option<serde_json::Value>,
}

#[derive(Serialize)]
struct Summary {
    file: String,
    name: Option<String>,
    sets: Vec<SetSummary>,
    base_moves: Vec<MoveSummary>,
    move_count: usize,
    commuting_pairs: Vec<[String; 2]>,
    forbidden_pairs: usize,
    /// Per block, its pieces as `SET:PIECE` (1-based).
    blocks: Vec<Vec<String>>,
    ignores: Vec<IgnoreSummary>,
    /// The positions reachable from the solved state: a number, or a decimal string
    /// when it exceeds `u64`; null when the group could not be built.
    reachable_states: Option<serde_json::Value>,
    /// Whether `reachable_states` is exact (false: an upper bound).
    reachable_exact: Option<bool>,
    /// How `reachable_states` was found, when not from the group (guarded moves).
    #[serde(skip_serializing_if = "Option::is_none")]
    reachable_note: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    orbits: Option<OrbitsSummary>,
    /// The number of symmetries of the definition (mirrors included); 1 with
    /// `--no-symmetry`; null when the search could not finish.
    symmetries: Option<usize>,
    /// How many of them are mirror images.
    mirror_symmetries: Option<usize>,
    /// `on`, or `off` with `--no-symmetry`.
    symmetry: &'static str,
    warnings: usize,
    scramble_file: Option<String>,
    scrambles: Vec<ScrambleSummary>,
}

fn positions(mask: &[bool]) -> Vec<usize> {
    mask.iter()
        .enumerate()
        .filter(|(_, &b)| b)
        .map(|(i, _)| i + 1)
        .collect()
}

fn list(v: &[usize]) -> String {
    v.iter().map(usize::to_string).collect::<Vec<_>>().join(" ")
}

fn summarize_puzzle(p: &Puzzle, file: String, warnings: usize) -> Summary {
    let sets = p
        .sets
        .iter()
        .enumerate()
        .map(|(k, s)| {
            let perm = &p.solved.sets[k].perm;
            let mut labels = perm.clone();
            labels.sort_unstable();
            labels.dedup();
            SetSummary {
                name: s.name.clone(),
                size: s.size,
                orientations: s.orientations,
                upper_bound: p.set_upper_bound(k),
                interchangeable: labels.len() < perm.len(),
            }
        })
        .collect();
    let base_moves = p
        .base_moves
        .iter()
        .enumerate()
        .map(|(i, b)| MoveSummary {
            name: b.name.clone(),
            // Not `b.order`, which saturates: the summary shows the true order.
            order: big_json(&move_order(p, i)),
            directed: b.directed,
            searched: p.searched.get(i).copied().unwrap_or(true),
            moves: b.powers.iter().map(|&id| p.mv(id).name.clone()).collect(),
            weights: p
                .has_weights()
                .then(|| b.powers.iter().map(|&id| p.mv(id).weight).collect()),
        })
        .collect();
    let commuting_pairs = p
        .commuting_pairs()
        .into_iter()
        .map(|(a, b)| [p.base_moves[a].name.clone(), p.base_moves[b].name.clone()])
        .collect();
    let blocks = p
        .blocks
        .iter()
        .map(|b| {
            b.pieces
                .iter()
                .map(|&(k, l)| format!("{}:{}", p.sets[k].name, l + 1))
                .collect()
        })
        .collect();
    let ignores = p
        .sets
        .iter()
        .zip(&p.ignore)
        .map(|(s, m)| IgnoreSummary {
            set: s.name.clone(),
            perm: positions(&m.perm),
            ori: positions(&m.ori),
        })
        .filter(|i| !i.perm.is_empty() || !i.ori.is_empty())
        .collect();
    Summary {
        file,
        name: p.name.clone(),
        sets,
        base_moves,
        move_count: p.moves.len(),
        commuting_pairs,
        forbidden_pairs: p.forbidden.iter().filter(|&&f| f).count(),
        blocks,
        ignores,
        reachable_states: None,
        reachable_note: None,
        reachable_exact: None,
        orbits: None,
        symmetries: None,
        mirror_symmetries: None,
        symmetry: "on",
        warnings,
        scramble_file: None,
        scrambles: Vec::new(),
    }
}

/// A count for JSON: a number while it fits `u64`, a decimal string beyond.
fn big_json(n: &BigUint) -> serde_json::Value {
    match n.to_u64() {
        Some(v) => v.into(),
        None => n.to_string().into(),
    }
}

/// Fills in the reachable count (and the orbits when asked); returns the group for the
/// scramble checks, or the reason it could not be built.
fn summarize_group(p: &Puzzle, orbits: bool, s: &mut Summary) -> Result<Group, String> {
    let g = Group::new(p).map_err(|e| e.to_string())?;
    let count = g.reachable();
    s.reachable_states = Some(big_json(count.value()));
    s.reachable_exact = Some(count.is_exact());
    if orbits {
        let o = g.orbits();
        s.orbits = Some(OrbitsSummary {
            arrangements: big_json(&o.arrangements),
            classes: o.classes.as_ref().map(big_json),
        });
    }
    Ok(g)
}

/// Fills in the symmetry group's size, or the reason it is unknown.
fn summarize_symmetry(p: &Puzzle, off: bool, s: &mut Summary) -> Result<(), String> {
    if off {
        let g = SymmetryGroup::trivial(p).map_err(|e| e.to_string())?;
        s.symmetry = "off";
        s.symmetries = Some(g.order());
        s.mirror_symmetries = Some(g.mirrors());
        return Ok(());
    }
    let g = SymmetryGroup::find(p).map_err(|e| e.to_string())?;
    s.symmetries = Some(g.order());
    s.mirror_symmetries = Some(g.mirrors());
    Ok(())
}

/// Whether a scramble's position can be reached (with a goal: whether it reaches one
/// of the goal's positions, and which), and why not: the verdict `solve` and `play`
/// make ([`Reachability`]).
fn scramble_status(
    p: &Puzzle,
    reach: &mut Reachability,
    s: &Scramble,
) -> (ReachStatus, Option<String>, Option<String>) {
    let (start, ignore, origin, impossible) = match &s.source {
        ScrambleSource::Position(t) => (t.state.clone(), t.ignore.clone(), Origin::Given, None),
        ScrambleSource::Alg(seq) => (
            p.apply_sequence(&p.solved, seq),
            Vec::new(),
            Origin::Made,
            None,
        ),
        // A random position is drawn from the reachable ones when it is solved; which one
        // reaches a goal, or stays within the moves limits leave, is not known before.
        ScrambleSource::Random => {
            return match (&s.settings.goal, s.settings.allowed_moves(p)) {
                (None, None) => (ReachStatus::Reachable, None, None),
                _ => (ReachStatus::Unknown, None, None),
            }
        }
        ScrambleSource::Impossible(why) => (
            p.solved.clone(),
            Vec::new(),
            Origin::Given,
            Some(why.as_str()),
        ),
    };
    let verdict = reach.verdict(&start, &ignore, origin, &s.settings, impossible);
    let reaches = match (&verdict, &s.settings.goal) {
        (Reach::Reachable { goal: Some(i) }, Some(goal)) => Some(goal.positions[*i].name.clone()),
        _ => None,
    };
    (
        verdict.status(),
        verdict.reason().map(str::to_string),
        reaches,
    )
}

fn summarize_scramble(p: &Puzzle, reach: &mut Reachability, s: &Scramble) -> ScrambleSummary {
    let (kind, alg_moves, ignores) = match &s.source {
        ScrambleSource::Position(t) => ("position", None, t.has_ignores()),
        ScrambleSource::Alg(seq) => ("alg", Some(seq.len()), false),
        ScrambleSource::Random => ("random", None, false),
        ScrambleSource::Impossible(_) => ("facelets", None, false),
    };
    let limits = s
        .settings
        .limits
        .iter()
        .map(|l| {
            let names: Vec<String> = l
                .keys
                .iter()
                .map(|k| match *k {
                    LimitKey::Move(id) => p.mv(id).name.clone(),
                    LimitKey::Family(b) => format!("{}*", p.base_moves[b].name),
                })
                .collect();
            LimitSummary {
                moves: names.join(" "),
                names,
                max: l.max,
            }
        })
        .collect();
    let (status, reason, reaches) = scramble_status(p, reach, s);
    let goal = s
        .settings
        .goal
        .as_ref()
        .map(|g| g.positions.iter().map(|x| x.name.clone()).collect());
    ScrambleSummary {
        status,
        reason,
        goal,
        reaches,
        name: s.name.clone(),
        line: s.line,
        kind,
        alg_moves,
        ignores,
        metric: s.settings.metric.name(),
        max_depth: s.settings.max_depth,
        slack: s.settings.slack,
        limits,
    }
}

/// Thousands separators, for the big state counts.
fn grouped(n: u128) -> String {
    group_digits(&n.to_string())
}

/// A JSON count (number or decimal string) with thousands separators.
fn json_digits(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::Number(n) => grouped(n.as_u64().unwrap_or(0) as u128),
        v => group_digits(v.as_str().unwrap_or("")),
    }
}

/// Thousands separators in a string of decimal digits.
fn group_digits(digits: &str) -> String {
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn print_summary(out: &mut impl Write, s: &Summary) -> std::io::Result<()> {
    writeln!(
        out,
        "puzzle: {} ({})",
        s.name.as_deref().unwrap_or("(no Name)"),
        s.file
    )?;
    writeln!(out, "sets: {}", s.sets.len())?;
    let width = s.sets.iter().map(|x| x.name.len()).max().unwrap_or(0);
    for set in &s.sets {
        let bound = if set.upper_bound == u128::MAX {
            "more than 10^38".to_string()
        } else {
            grouped(set.upper_bound)
        };
        writeln!(
            out,
            "  {:width$}  {} piece{}, {} orientation{}{}, at most {bound} states",
            set.name,
            set.size,
            if set.size == 1 { "" } else { "s" },
            set.orientations,
            if set.orientations == 1 { "" } else { "s" },
            if set.interchangeable {
                ", interchangeable pieces"
            } else {
                ""
            },
        )?;
    }
    match (&s.reachable_states, s.reachable_exact) {
        (Some(n), Some(exact)) => {
            let n = json_digits(n);
            if exact {
                writeln!(out, "Reachable positions: {n}")?;
            } else {
                writeln!(out, "Reachable positions: at most {n} (upper bound)")?;
            }
        }
        _ => writeln!(out, "Reachable positions: not computed")?,
    }
    if let Some(note) = &s.reachable_note {
        writeln!(out, "  ({note})")?;
    }
    if let Some(o) = &s.orbits {
        let arr = json_digits(&o.arrangements);
        match (&o.classes, &s.reachable_states) {
            (Some(c), Some(r)) => writeln!(
                out,
                "Arrangements: {arr}, in {} classes of {} positions",
                json_digits(c),
                json_digits(r)
            )?,
            _ => writeln!(
                out,
                "Arrangements: {arr} (classes not counted: with interchangeable pieces or \
                 blocks they differ in size)"
            )?,
        }
    }
    match (s.symmetry, s.symmetries, s.mirror_symmetries) {
        ("off", _, _) => writeln!(out, "Symmetries: off (--no-symmetry)")?,
        (_, Some(n), Some(0)) => writeln!(out, "Symmetries: {n} (rotations only)")?,
        (_, Some(n), Some(m)) => writeln!(
            out,
            "Symmetries: {n} ({} rotations, mirrors included)",
            n - m
        )?,
        _ => writeln!(out, "Symmetries: not computed")?,
    }
    writeln!(
        out,
        "moves: {} base, {} with powers",
        s.base_moves.len(),
        s.move_count
    )?;
    let width = s.base_moves.iter().map(|x| x.name.len()).max().unwrap_or(0);
    for m in &s.base_moves {
        let dir = format!(
            "{}{}",
            if m.directed { ", directed" } else { "" },
            if m.searched { "" } else { ", not searched" }
        );
        let weights = match &m.weights {
            Some(w) => {
                let w: Vec<String> = w.iter().map(u32::to_string).collect();
                format!(" (weights {})", w.join(" "))
            }
            None => String::new(),
        };
        writeln!(
            out,
            "  {:width$}  order {}{dir}: {}{weights}",
            m.name,
            match &m.order {
                serde_json::Value::String(big) => big.clone(),
                small => small.to_string(),
            },
            m.moves.join(" ")
        )?;
    }
    if s.base_moves.iter().any(|m| !m.searched) {
        let searched: Vec<&str> = s
            .base_moves
            .iter()
            .filter(|m| m.searched)
            .map(|m| m.name.as_str())
            .collect();
        writeln!(
            out,
            "searched: {} (SearchMoves; --moves or a MoveLimits block that names a move lets a search use it)",
            searched.join(" ")
        )?;
    }
    if s.commuting_pairs.is_empty() {
        writeln!(out, "commuting pairs: none")?;
    } else {
        let pairs: Vec<String> = s
            .commuting_pairs
            .iter()
            .map(|[a, b]| format!("{a}-{b}"))
            .collect();
        writeln!(
            out,
            "commuting pairs: {} ({})",
            pairs.len(),
            pairs.join(" ")
        )?;
    }
    writeln!(out, "forbidden pairs: {}", s.forbidden_pairs)?;
    writeln!(out, "blocks: {}", s.blocks.len())?;
    for b in &s.blocks {
        writeln!(out, "  {}", b.join(" "))?;
    }
    if s.ignores.is_empty() {
        writeln!(out, "ignores: none")?;
    } else {
        writeln!(out, "ignores:")?;
        for i in &s.ignores {
            writeln!(
                out,
                "  {}: permutation at [{}], orientation at [{}]",
                i.set,
                list(&i.perm),
                list(&i.ori)
            )?;
        }
    }
    if let Some(file) = &s.scramble_file {
        writeln!(out, "scrambles: {} ({file})", s.scrambles.len())?;
        for x in &s.scrambles {
            let what = match (x.kind, x.alg_moves) {
                ("alg", Some(n)) => format!("alg of {n} move{}", if n == 1 { "" } else { "s" }),
                ("position", _) if x.ignores => "position with ignored parts".to_string(),
                (k, _) => k.to_string(),
            };
            let limits = if x.limits.is_empty() {
                String::new()
            } else {
                let l: Vec<String> = x
                    .limits
                    .iter()
                    .map(|l| format!("{} {}", l.moves, l.max))
                    .collect();
                format!(", limits {}", l.join(", "))
            };
            let mut status = match &x.reason {
                Some(r) => format!("; cannot be solved: {r}"),
                None => String::new(),
            };
            if let Some(goal) = &x.goal {
                let n = goal.len();
                status = format!(
                    "; goal: {} ({n} position{}){}{status}",
                    goal.first().map_or("", |s| s.as_str()),
                    if n == 1 { "" } else { "s" },
                    x.reaches
                        .as_ref()
                        .map_or(String::new(), |r| format!(", reaches `{r}`"))
                );
            }
            writeln!(
                out,
                "  {} (line {}): {what}; {}, max depth {}, slack {}{limits}{status}",
                x.name, x.line, x.metric, x.max_depth, x.slack
            )?;
        }
    }
    Ok(())
}

/// What the note under "Reachable positions" says for a puzzle with guarded moves
/// (`When`) or a goal that is a set of positions: the group of the moves ignores the
/// guards and only bounds the answer, so the positions are counted by the breadth-first
/// search behind the reachability verdict ([`Reachability::exact`]), and scramble
/// positions are looked up in the distances it finds.
fn guarded_note(puzzle: &Puzzle) -> String {
    let why = match puzzle.has_guards() {
        true => "the moves are guarded",
        false => "the goal is a set of positions",
    };
    format!(
        "{why}, so which positions are reachable is not a group question: counted by \
         breadth-first search from the goal (the positions that can reach it)"
    )
}

/// Runs `ksolve check`.
pub fn run(args: CheckArgs) -> anyhow::Result<u8> {
    let (puzzle, warnings) = load_puzzle(&args.def)?;
    for w in &warnings {
        errln!("warning: {w}");
    }
    let mut summary = summarize_puzzle(&puzzle, args.def.display().to_string(), warnings.len());
    let guarded = puzzle.has_guards() || puzzle.goal_is_set();
    let mut reach = if guarded {
        // Too many positions to count is expected of a large board, not a problem
        // with the files: it is said in the summary, not warned about.
        let mut reach = Reachability::new(&puzzle);
        summary.reachable_note = Some(match reach.exact() {
            Ok(db) => {
                summary.reachable_states = Some(db.positions().into());
                summary.reachable_exact = Some(true);
                guarded_note(&puzzle)
            }
            Err(e) => format!("{}; not counted: {e}", guarded_note(&puzzle)),
        });
        reach
    } else {
        let group = match summarize_group(&puzzle, args.orbits, &mut summary) {
            Ok(g) => Some(g),
            Err(e) => {
                errln!("warning: reachable positions not computed: {e}");
                None
            }
        };
        Reachability::with_group(&puzzle, group)
    };
    // Symmetries conjugate moves as permutations and would drop the guards: with
    // guarded moves they are not looked for ("Symmetries: not computed").
    let symmetry = if guarded {
        Ok(())
    } else {
        summarize_symmetry(&puzzle, args.no_symmetry, &mut summary)
    };
    if let Err(e) = symmetry {
        errln!("warning: symmetries not computed: {e}");
    }
    if let Err(e) = ksolve::search::check_free_moves(&puzzle) {
        errln!("warning: `solve` cannot search this definition: {e}");
    }
    if let Some(path) = &args.scrambles {
        let scrambles = input::scrambles(path, &puzzle)?;
        summary.scramble_file = Some(input::display_name(path));
        summary.scrambles = scrambles
            .iter()
            .map(|s| summarize_scramble(&puzzle, &mut reach, s))
            .collect();
    }
    let mut out = output::stdout();
    print_summary(&mut out, &summary)?;
    if args.json {
        writeln!(out, "{}", serde_json::to_string(&summary)?)?;
    }
    out.flush()?;
    // An unsolvable scramble is the same outcome as for `solve`: exit 1.
    if summary
        .scrambles
        .iter()
        .any(|s| s.status == ReachStatus::Unreachable)
    {
        return Ok(EXIT_NO_SOLUTION);
    }
    Ok(EXIT_OK)
}
