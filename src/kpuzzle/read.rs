//! Reading a KPuzzle definition into the model.
//!
//! cubing.js and ksolve share their conventions: a transformation's `permutation[i]`
//! is the position whose piece comes to position `i`, and `orientationDelta[i]` is the
//! twist added at destination `i`, which is exactly how [`Transform`] holds a move, so
//! moves are read as they stand. Orbits become sets, `defaultPattern` the solved state
//! (repeated piece numbers are interchangeable pieces, as in ksolve+'s `Solved`),
//! `moves` the base moves in file order (the order ksolve searches them in), and
//! `derivedMoves`, algorithms in cubing.js notation over the other moves: an alias
//! where the algorithm equals a move or one of its powers (`Rw` for `r`), else a move of
//! its own, as twsearch's `MoveSequence` (`z` as `[x: y]`). An orbit's
//! `orientationMod`, the modulus its orientations are known by, is one per orbit: a
//! divisor `m` reads the orbit with `m` orientations (every twist reduced modulo `m`,
//! which is well defined because `m` divides the orbit's count), so 1 drops the orbit's
//! twists altogether, as cubing.js's goal does (the 3x3x3's centres). The `"ksolve"` extension object (see `ext`)
//! adds what KPuzzle cannot say: directed and guarded moves are read with the moves,
//! the rest once the puzzle is assembled.

use super::ext::{Ext, PROPERTY};
use super::json::{get, props, unique, Doc};
use crate::alg::{parse as parse_alg, AlgLine, MoveNames};
use crate::located::{DefError, Warning};
use crate::puzzle::limits::{
    MAX_MOVES, MAX_MOVE_ENTRIES, MAX_ORIENTATIONS, MAX_POSITIONS, MAX_SET_SIZE,
};
use crate::puzzle::modulo::MAX_MODULO_GOALS;
use crate::puzzle::{order, IgnoreMask, MoveId, Puzzle, SetDef, SetState, Transform};
use jsonc_parser::ast::Value;
use std::collections::HashMap;

/// The top-level properties of a KPuzzle definition, ksolve's extension included.
const KNOWN: [&str; 6] = [
    "name",
    "orbits",
    "defaultPattern",
    "moves",
    "derivedMoves",
    PROPERTY,
];

/// The most derived moves a definition may give: they are read in rounds, each trying
/// every derived move not yet read, so the work grows with the square of their number
/// (cubing.js's definitions have a few dozen).
const MAX_DERIVED: usize = 1024;

/// One orbit as read, with what the reader needs beyond its [`SetDef`].
struct Orbit {
    def: SetDef,
    /// The orientations the file gives (`numOrientations`): twists are checked against
    /// it before they are reduced to `def.orientations`.
    given: u8,
    /// Per position, the modulus the solved pattern knows its orientation by, where the
    /// orbit's `orientationMod` differs between its pieces (see
    /// [`crate::puzzle::modulo`]); empty otherwise.
    mods: Vec<u8>,
}

/// Reads a KPuzzle definition (`*.kpuzzle.json`) held in memory; `file` names it in
/// messages. Properties the format does not define are warned about and skipped.
pub fn read_definition(bytes: &[u8], file: &str) -> Result<(Puzzle, Vec<Warning>), DefError> {
    let (doc, root) = Doc::parse(bytes, file)?;
    let root = doc.object(&root, "a KPuzzle definition")?;
    unique(&doc, root, "property")?;
    let mut warnings = Vec::new();
    for (name, at, _) in props(root) {
        if !KNOWN.contains(&name) {
            warnings.push(Warning {
                file: file.to_string(),
                line: doc.place(at).0,
                message: format!(
                    "`{name}` is not a property of a KPuzzle definition ({}): skipped",
                    KNOWN.join(", ")
                ),
            });
        }
    }
    // The name as ksolve+'s `Name` line holds it: one line of text, blanks around it
    // dropped, none when empty.
    let name = match get(root, "name") {
        Some(v) => {
            let text = doc.string(v, "the puzzle's name")?.trim();
            if text.chars().any(char::is_control) {
                return Err(doc.err(
                    doc.at(v),
                    "the puzzle's name holds a control character or a line break: expected one line of text",
                ));
            }
            (!text.is_empty()).then(|| text.to_string())
        }
        None => None,
    };
    let orbits_value = doc.field(root, "orbits", "the definition")?;
    let mut orbits = read_orbits(&doc, orbits_value)?;
    let ext = Ext::open(&doc, root)?;
    let modulo_goal = ext.modulo_goal(&doc)?;
    for (name, at) in &modulo_goal {
        if !orbits.iter().any(|o| &o.def.name == name) {
            return Err(unknown_orbit(&doc, name, *at, &orbits));
        }
    }
    let pattern = doc.field(root, "defaultPattern", "the definition")?;
    let solved = read_default_pattern(&doc, pattern, &mut orbits, &modulo_goal)?;
    let sets: Vec<SetDef> = orbits.iter().map(|o| o.def.clone()).collect();
    let ignore: Vec<IgnoreMask> = orbits
        .iter()
        .map(|o| IgnoreMask {
            perm: vec![false; o.def.size],
            ori: vec![false; o.def.size],
        })
        .collect();
    let positions: usize = sets.iter().map(|s| s.size).sum();
    let mut moves = Moves {
        sets: &sets,
        positions,
        total: 0,
        base: Vec::new(),
        at: Vec::new(),
    };
    let moves_value = doc.field(root, "moves", "the definition")?;
    let moves_obj = doc.object(moves_value, "the moves, by name")?;
    unique(&doc, moves_obj, "move")?;
    let extras = ext.moves(&doc, &sets, moves_obj)?;
    for (mname, at, v) in props(moves_obj) {
        check_name(&doc, mname, at, true)?;
        let effect = read_transformation(&doc, v, mname, &orbits)?;
        if effect.is_identity() {
            return Err(doc.err(
                at,
                format!("move `{mname}` changes nothing: expected a move that moves or twists some piece"),
            ));
        }
        moves.push(&doc, mname, effect, at, extras.directed(mname))?;
    }
    if moves.base.is_empty() {
        return Err(doc.err(
            doc.at(moves_value),
            "the definition has no move: expected at least one entry in `moves`",
        ));
    }
    let build = |moves: &Moves<'_>, aliases: &[(String, MoveId)]| {
        let mut p = Puzzle::new(
            name.clone(),
            sets.clone(),
            solved.clone(),
            moves.base.clone(),
            ignore.clone(),
            Vec::new(),
        );
        p.aliases = aliases.to_vec();
        p
    };
    let mut aliases: Vec<(String, MoveId)> = Vec::new();
    // Where each alias's derived move stands, for messages.
    let mut alias_at: Vec<usize> = Vec::new();
    if let Some(derived) = get(root, "derivedMoves") {
        let derived = doc.object(derived, "the derived moves, by name")?;
        unique(&doc, derived, "derived move")?;
        if derived.properties.len() > MAX_DERIVED {
            return Err(doc.err(
                derived.range.start,
                format!(
                    "{} derived moves: expected at most {MAX_DERIVED}",
                    derived.properties.len()
                ),
            ));
        }
        let mut pending = Vec::new();
        for (dname, at, v) in props(derived) {
            check_name(&doc, dname, at, true)?;
            pending.push((dname, at, doc.string(v, "an algorithm")?, doc.at(v)));
        }
        // Each round reads every derived move whose algorithm names only moves known so
        // far; a round that reads nothing leaves algorithms that name unknown moves or
        // derived moves that (perhaps through others) use each other.
        let mut puzzle = build(&moves, &aliases);
        while !pending.is_empty() {
            let names = MoveNames::new(&puzzle);
            let mut left = Vec::new();
            let mut first_error = None;
            let before = pending.len();
            for (dname, at, text, text_at) in pending {
                let (line, col, _) = doc.place(text_at);
                let lines = [AlgLine { no: line, text }];
                let alg = match parse_alg(file, &lines, &names) {
                    Ok(a) => a,
                    Err(e) => {
                        first_error.get_or_insert_with(|| in_place(&doc, e, text_at, col));
                        left.push((dname, at, text, text_at));
                        continue;
                    }
                };
                // Each move of the algorithm is composed over every piece: bound the
                // work as the size of a move table is bounded.
                if alg.len(false).saturating_mul(positions as u64) > MAX_MOVE_ENTRIES as u64 {
                    return Err(doc.err(
                        text_at,
                        format!(
                            "derived move `{dname}` expands to {} moves over {positions} pieces: expected at most {MAX_MOVE_ENTRIES} entries in all",
                            alg.len(false)
                        ),
                    ));
                }
                let mut effect = Transform::identity(&sets);
                for m in alg.moves(&puzzle, false) {
                    effect = effect.then(&puzzle.mv(m).effect, &sets);
                }
                if effect.is_identity() {
                    return Err(doc.err(
                        at,
                        format!("derived move `{dname}` changes nothing: expected an algorithm that moves or twists some piece"),
                    ));
                }
                match puzzle.moves.iter().position(|m| m.effect == effect) {
                    Some(i) => {
                        for named in puzzle.alias_names(dname, MoveId(i as u16)) {
                            aliases.push(named);
                            alias_at.push(at);
                        }
                    }
                    // A move made of guarded moves would need the guards of every
                    // step, in the positions between them: not a guard of one position.
                    None if extras.has_guards() => {
                        return Err(doc.err(
                            at,
                            format!("derived move `{dname}` is a move of its own in a definition with guarded moves: expected each move written out in `moves` with its own guard"),
                        ))
                    }
                    None => moves.push(&doc, dname, effect, at, false)?,
                }
            }
            if left.len() == before {
                // Every derived move left failed, so the first failure was kept.
                return Err(first_error.unwrap_or_else(|| {
                    doc.err(derived.range.start, "a derived move could not be read")
                }));
            }
            pending = left;
            drop(names);
            // The next round reads names made in this one; the model is rebuilt only
            // when a derived move became a move of its own.
            if puzzle.base_moves.len() == moves.base.len() {
                puzzle.aliases = aliases.clone();
            } else {
                puzzle = build(&moves, &aliases);
            }
        }
    }
    let mut puzzle = build(&moves, &aliases);
    check_distinct(&doc, &puzzle, &moves.at, &alias_at)?;
    ext.finish(&doc, &mut puzzle, extras, &mut warnings)?;
    if orbits.iter().any(|o| !o.mods.is_empty()) {
        let mods = orbits
            .iter()
            .map(|o| match o.mods.is_empty() {
                true => vec![0; o.def.size],
                false => o.mods.clone(),
            })
            .collect();
        puzzle.set_known_mod(mods);
        if puzzle.modulo_count().is_none_or(|c| c > MAX_MODULO_GOALS) {
            return Err(doc.err(
                doc.at(pattern),
                format!("the pattern's `orientationMod` values make more than {MAX_MODULO_GOALS} goal positions: expected fewer pieces known modulo a divisor other than 1"),
            ));
        }
    }
    Ok((puzzle, warnings))
}

/// The base moves read so far, with their limits counted as they come.
struct Moves<'s> {
    sets: &'s [SetDef],
    positions: usize,
    /// Moves with their powers, against [`MAX_MOVES`].
    total: usize,
    /// In the file form [`Puzzle::new`] takes.
    base: Vec<(String, Transform, bool)>,
    /// Where each base move's name stands.
    at: Vec<usize>,
}

impl Moves<'_> {
    fn push(
        &mut self,
        doc: &Doc<'_>,
        name: &str,
        effect: Transform,
        at: usize,
        directed: bool,
    ) -> Result<(), DefError> {
        let powers = match directed {
            true => 1,
            false => order(&effect, self.sets).saturating_sub(1).max(1) as usize,
        };
        let total = self.total + powers;
        if total > MAX_MOVES || total.saturating_mul(self.positions) > MAX_MOVE_ENTRIES {
            return Err(doc.err(
                at,
                format!(
                    "move `{name}` takes the number of moves with their powers to {total} over {} pieces: expected at most {MAX_MOVES} moves and {MAX_MOVE_ENTRIES} entries",
                    self.positions
                ),
            ));
        }
        self.total = total;
        self.base
            .push((name.to_string(), effect.to_ksolve(), directed));
        self.at.push(at);
        Ok(())
    }
}

/// A move or orbit name must be a word: ksolve's algorithms, limits and output
/// separate names by blanks.
fn check_name(doc: &Doc<'_>, name: &str, at: usize, is_move: bool) -> Result<(), DefError> {
    if name.is_empty() || name.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(doc.err(
            at,
            format!("the name {name:?} is empty or holds blanks: expected a name without blanks"),
        ));
    }
    // The names ksolve+'s language can hold, so that the puzzle prints as a definition.
    match crate::puzzle::names::name_problem(name, is_move) {
        Some(why) => Err(doc.err(at, why)),
        None => Ok(()),
    }
}

fn read_orbits(doc: &Doc<'_>, v: &Value<'_>) -> Result<Vec<Orbit>, DefError> {
    let list = doc.array(v, "the list of orbits")?;
    if list.elements.is_empty() {
        return Err(doc.err(
            doc.at(v),
            "the list of orbits is empty: expected at least one orbit",
        ));
    }
    let mut orbits: Vec<Orbit> = Vec::new();
    let mut positions = 0usize;
    for e in &list.elements {
        let o = doc.object(e, "an orbit (`orbitName`, `numPieces`, `numOrientations`)")?;
        let owner = "this orbit (`orbitName`, `numPieces`, `numOrientations`)";
        let name_v = doc.field(o, "orbitName", owner)?;
        let name = doc.string(name_v, "the orbit's name")?;
        check_name(doc, name, doc.at(name_v), false)?;
        if orbits.iter().any(|o| o.def.name == name) {
            return Err(doc.err(
                doc.at(name_v),
                format!("orbit `{name}` is declared twice: expected distinct orbit names"),
            ));
        }
        let size_v = doc.field(o, "numPieces", owner)?;
        let size = doc.number(size_v, "the number of pieces", MAX_SET_SIZE as u64)? as usize;
        if size == 0 {
            return Err(doc.err(doc.at(size_v), "an orbit of 0 pieces: expected at least 1"));
        }
        positions += size;
        if positions > MAX_POSITIONS {
            return Err(doc.err(
                doc.at(size_v),
                format!("this orbit brings the puzzle to {positions} pieces: expected at most {MAX_POSITIONS} over all orbits"),
            ));
        }
        let n_v = doc.field(o, "numOrientations", owner)?;
        let n = doc.number(n_v, "the number of orientations", MAX_ORIENTATIONS as u64)?;
        if n == 0 {
            return Err(doc.err(doc.at(n_v), "0 orientations: expected at least 1"));
        }
        orbits.push(Orbit {
            def: SetDef {
                name: name.to_string(),
                size,
                orientations: n as u8,
            },
            given: n as u8,
            mods: Vec::new(),
        });
    }
    Ok(orbits)
}

/// Reads the solved pattern, and with it each orbit's orientation modulus.
fn read_default_pattern(
    doc: &Doc<'_>,
    v: &Value<'_>,
    orbits: &mut [Orbit],
    modulo_goal: &[(String, usize)],
) -> Result<Transform, DefError> {
    let pattern = doc.object(v, "the solved pattern, by orbit")?;
    unique(doc, pattern, "orbit")?;
    for (name, at, _) in props(pattern) {
        if !orbits.iter().any(|o| o.def.name == name) {
            return Err(unknown_orbit(doc, name, at, orbits));
        }
    }
    let mut sets = Vec::with_capacity(orbits.len());
    for orbit in orbits.iter_mut() {
        let name = orbit.def.name.clone();
        let Some(ov) = get(pattern, &name) else {
            return Err(doc.err(
                doc.at(v),
                format!("the solved pattern has no orbit `{name}`: expected every orbit"),
            ));
        };
        let owner = format!("orbit `{name}` of the pattern");
        let o = doc.object(ov, &owner)?;
        let size = orbit.def.size;
        let pieces_v = doc.field(o, "pieces", &owner)?;
        let pieces = doc.numbers(pieces_v, "`pieces`", size, size as u64 - 1)?;
        let ori_v = doc.field(o, "orientation", &owner)?;
        let ori = doc.numbers(ori_v, "`orientation`", size, orbit.given as u64 - 1)?;
        if let Some(mod_v) = get(o, "orientationMod") {
            let mods = doc.numbers(mod_v, "`orientationMod`", size, orbit.given as u64)?;
            let given = orbit.given as u64;
            let modulus = |m: u64| if m == 0 { given } else { m };
            let elements = &doc.array(mod_v, "")?.elements;
            for (&m, e) in mods.iter().zip(elements) {
                if !given.is_multiple_of(modulus(m)) {
                    return Err(doc.err(
                        doc.at(e),
                        format!("orientation modulus {m} does not divide the {given} orientations of orbit `{name}`: expected 0 (known), 1 (unknown) or a divisor of {given}"),
                    ));
                }
            }
            let m = modulus(mods[0]);
            let goal = modulo_goal.iter().any(|(n, _)| *n == name);
            if !goal && mods.iter().all(|&x| modulus(x) == m) {
                // One modulus for the whole orbit: the orbit has that many orientations,
                // which is exact and cheaper than a goal that is a set.
                orbit.def.orientations = m as u8;
            } else {
                // The modulus belongs to the piece (it travels with it in cubing.js), and
                // interchangeable pieces cannot say which copy ends where.
                for (t, (&p, e)) in pieces.iter().zip(elements).enumerate() {
                    if let Some(u) =
                        (0..t).find(|&u| pieces[u] == p && modulus(mods[u]) != modulus(mods[t]))
                    {
                        return Err(doc.err(
                            doc.at(e),
                            format!("piece {p} of orbit `{name}` is known modulo {} here and modulo {} at position {u}: expected interchangeable pieces to share one modulus, since the goal cannot tell which copy ends where", modulus(mods[t]), modulus(mods[u])),
                        ));
                    }
                }
                orbit.mods = mods.iter().map(|&x| modulus(x) as u8).collect();
            }
        }
        let n = orbit.def.orientations as u64;
        sets.push(SetState {
            perm: pieces.iter().map(|&p| p as u16).collect(),
            ori: ori.iter().map(|&o| (o % n) as u8).collect(),
        });
    }
    Ok(Transform { sets })
}

/// Reads a move's transformation: per orbit a permutation and its twists (an orbit left
/// out is left alone).
fn read_transformation(
    doc: &Doc<'_>,
    v: &Value<'_>,
    mname: &str,
    orbits: &[Orbit],
) -> Result<Transform, DefError> {
    let t = doc.object(v, &format!("move `{mname}`'s transformation, by orbit"))?;
    unique(doc, t, "orbit")?;
    let mut sets: Vec<SetState> = orbits
        .iter()
        .map(|o| SetState::identity(o.def.size))
        .collect();
    for (oname, at, ov) in props(t) {
        let Some(i) = orbits.iter().position(|o| o.def.name == oname) else {
            return Err(unknown_orbit(doc, oname, at, orbits));
        };
        let orbit = &orbits[i];
        let size = orbit.def.size;
        let owner = format!("orbit `{oname}` of move `{mname}`");
        let o = doc.object(ov, &owner)?;
        let perm_v = doc.field(o, "permutation", &owner)?;
        let perm = doc.numbers(perm_v, "`permutation`", size, size as u64 - 1)?;
        let mut seen = vec![false; size];
        for (&p, e) in perm.iter().zip(&doc.array(perm_v, "")?.elements) {
            if std::mem::replace(&mut seen[p as usize], true) {
                return Err(doc.err(
                    doc.at(e),
                    format!("position {p} appears twice in the permutation: expected each of 0 to {} once", size - 1),
                ));
            }
        }
        let delta_v = doc.field(o, "orientationDelta", &owner)?;
        let delta = doc.numbers(delta_v, "`orientationDelta`", size, orbit.given as u64 - 1)?;
        let n = orbit.def.orientations as u64;
        sets[i] = SetState {
            perm: perm.iter().map(|&p| p as u16).collect(),
            ori: delta.iter().map(|&d| (d % n) as u8).collect(),
        };
    }
    Ok(Transform { sets })
}

fn unknown_orbit(doc: &Doc<'_>, name: &str, at: usize, orbits: &[Orbit]) -> DefError {
    let known: Vec<&str> = orbits.iter().map(|o| o.def.name.as_str()).collect();
    doc.err(
        at,
        format!(
            "unknown orbit `{name}`: expected one of the orbits declared in `orbits` ({})",
            known.join(", ")
        ),
    )
}

/// An algorithm's error, read from the string alone, moved to where the string stands
/// in the file: its column counted from the string's opening quote at `col`, and the
/// file's line quoted.
fn in_place(doc: &Doc<'_>, mut e: DefError, text_at: usize, col: usize) -> DefError {
    let (line, _, text) = doc.place(text_at);
    e.line = line;
    e.col += col;
    e.text = text.to_string();
    e
}

/// Two moves (powers and aliases included) with one name would make algorithms and
/// limits ambiguous. `at` says where each base move's name stands, `alias_at` each
/// alias's.
fn check_distinct(
    doc: &Doc<'_>,
    puzzle: &Puzzle,
    at: &[usize],
    alias_at: &[usize],
) -> Result<(), DefError> {
    let mut by_name: HashMap<&str, usize> = HashMap::new();
    let names = puzzle
        .moves
        .iter()
        .map(|m| (m.name.as_str(), at[m.base]))
        .chain(
            puzzle
                .aliases
                .iter()
                .zip(alias_at)
                .map(|((n, _), &a)| (n.as_str(), a)),
        );
    for (name, here) in names {
        if let Some(&first) = by_name.get(name) {
            let (line, _, _) = doc.place(first);
            return Err(doc.err(
                here,
                format!(
                    "this makes the name `{name}` (a move, a power or a derived move), which line {line} already makes: expected distinct names"
                ),
            ));
        }
        by_name.insert(name, here);
    }
    Ok(())
}
