//! The `"ksolve"` extension object of a KPuzzle definition: everything a ksolve puzzle
//! holds that KPuzzle has no word for, so that every puzzle ksolve reads is written as
//! a KPuzzle that reads back to the same puzzle.
//!
//! KPuzzle says orbits, a default pattern, moves and derived moves. It has no guards
//! (`When`), no well-formedness rules (`Require`), no goal that is a set (`?` in
//! `Solved`), no moves without inverse (`noinverse`), no bandaging (`Block`), no partial
//! ignore masks, no forbidden pairs, costs, searched moves, sticker map or board.
//! Dropping any of them would write another puzzle, and refusing them left most shipped
//! puzzles without a KPuzzle form. They go into one top-level property, `"ksolve"`, because
//! cubing.js ignores properties it does not know: its `KPuzzle` keeps the definition
//! object and reads only `name`, `orbits`, `defaultPattern`, `moves` and
//! `derivedMoves` from it, and its JSON schema for a definition
//! (`experimental-json-schema/kpuzzle/KPuzzleDefinition.schema.json`) does not forbid
//! other properties. A cubing.js user thus gets the puzzle's moves and solved pattern,
//! and ksolve gets the whole puzzle. A puzzle that needs none of it is written without
//! the object.
//!
//! The object is structured JSON rather than ksolve+ text, so that other tools can read
//! it without ksolve's parser, and it counts as the rest of a KPuzzle does: positions and
//! pieces from 0, orbits and moves by name. Its properties, each optional:
//!
//! ```text
//! "noinverse":      ["A", ...]                          moves used only as given
//! "touched":        { MOVE: { ORBIT: [POS, ...] } }     positions a move counts as moving
//! "guards":         { MOVE: [COND, ...] }               conditions the move is made under
//! "free":           { ORBIT: [POS, ...] }               goal positions left free
//! "moduloGoal":     [ORBIT, ...]                        orbits whose `orientationMod` is the goal's
//! "require":        [{ "when": COND, "then": COND }]    or `"never": true` for `then`
//! "ignore":         { ORBIT: { "pieces": [0|1, ...], "orientation": [0|1, ...] } }
//! "blocks":         [{ ORBIT: [PIECE, ...], ... }]      pieces bandaged together
//! "forbiddenPairs": [["R", "U"], ...]                   the second may not follow the first
//! "moveCosts":      { MOVE: COST }                      per move or power, 0 to 100
//! "searchMoves":    ["U", ...]                          the moves searches use
//! "stickers":       [{ "face": "U", "row": 0, "col": 3, "orbit": O, "position": P, "slot": S }]
//! "colours":        { FACE: "#RRGGBB", ... }          the sticker map's face colours
//! "board":          { "orbit": O, "columns": C, "rows": R, "tiles": [...], "joins": [...] }
//! COND:             { "orbit": O, "position": P, "pieces": [LABEL, ...] }
//! ```
//!
//! An `orientationMod` that one orbit's pieces share is read as that many orientations
//! (cubing.js's 3x3x3 centres, known modulo 1, then have none), which solves alike;
//! `moduloGoal` names the orbits whose shared modulus is instead the goal's, known
//! modulo it, as a `Solved` row of only `?` or `O%M` says (see
//! [`crate::puzzle::modulo`]).
//!
//! A guarded move is used only as given, as in ksolve+, so `noinverse` lists the other
//! directed moves. `touched` keeps, for `Block`, the positions a ksolve+ move "twists" in
//! a one-orientation set, which KPuzzle's transformations cannot show. Every property is
//! checked as strictly as its ksolve+ command, and an unknown one is refused rather than
//! skipped, since a property dropped would read another puzzle.

mod board;
mod goal;
mod moves;
mod search;
mod stickers;
mod write;

#[cfg(test)]
mod tests;

pub use moves::MoveExtras;
pub use write::write_extension;

use super::json::{get, props, unique, Doc};
use crate::located::{DefError, Warning};
use crate::puzzle::{Cond, Puzzle, SetDef};
use jsonc_parser::ast::{Object, Value};

/// The top-level property that holds the extension.
pub const PROPERTY: &str = "ksolve";

/// The extension's properties, in the order they are written.
const KNOWN: [&str; 14] = [
    "noinverse",
    "touched",
    "guards",
    "free",
    "moduloGoal",
    "require",
    "ignore",
    "blocks",
    "forbiddenPairs",
    "moveCosts",
    "searchMoves",
    "stickers",
    "colours",
    "board",
];

/// A definition's extension object, checked for its shape; empty when the definition
/// has none.
pub struct Ext<'v, 'a> {
    obj: Option<&'v Object<'a>>,
}

impl<'v, 'a> Ext<'v, 'a> {
    /// The extension of the definition `root`, if any: an object whose properties are
    /// known and given once each.
    pub fn open(doc: &Doc<'a>, root: &'v Object<'a>) -> Result<Ext<'v, 'a>, DefError> {
        let Some(v) = get(root, PROPERTY) else {
            return Ok(Ext { obj: None });
        };
        let what = "ksolve's extension (the puzzle's features KPuzzle cannot say)";
        let obj = object_of(doc, v, what, &KNOWN)?;
        Ok(Ext { obj: Some(obj) })
    }

    /// The orbits `moduloGoal` names, each with where it stands: their shared
    /// `orientationMod` is the goal's rather than the orbit's count.
    pub fn modulo_goal(&self, doc: &Doc<'a>) -> Result<Vec<(String, usize)>, DefError> {
        let Some(v) = self.get("moduloGoal") else {
            return Ok(Vec::new());
        };
        let list = doc.array(v, "the orbits whose `orientationMod` is the goal's")?;
        let mut out: Vec<(String, usize)> = Vec::new();
        for e in &list.elements {
            let name = doc.string(e, "an orbit's name")?;
            if out.iter().any(|(n, _)| n == name) {
                return Err(doc.err(
                    doc.at(e),
                    format!(
                        "orbit `{name}` is named twice in `moduloGoal`: expected each orbit once"
                    ),
                ));
            }
            out.push((name.to_string(), doc.at(e)));
        }
        Ok(out)
    }

    /// The value of extension property `name`, if given.
    fn get(&self, name: &str) -> Option<&'v Value<'a>> {
        self.obj.and_then(|o| get(o, name))
    }

    /// Applies what the extension says about the assembled puzzle: guards, touched
    /// positions, the goal, the search's settings and the sticker map. `extras` is
    /// what [`Ext::moves`] read; warnings join `warnings`.
    pub fn finish(
        &self,
        doc: &Doc<'_>,
        puzzle: &mut Puzzle,
        extras: MoveExtras,
        warnings: &mut Vec<Warning>,
    ) -> Result<(), DefError> {
        if self.obj.is_none() {
            return Ok(());
        }
        extras.apply(puzzle);
        moves::touched(doc, self, puzzle)?;
        goal::read(doc, self, puzzle)?;
        search::read(doc, self, puzzle, warnings)?;
        stickers::read(doc, self, puzzle)?;
        board::read(doc, self, puzzle)
    }
}

/// `v` as an object (`what`, in words) whose properties are among `known`, each given
/// once: a property the extension does not know is refused, since skipping it would
/// read another puzzle.
fn object_of<'v, 'a>(
    doc: &Doc<'a>,
    v: &'v Value<'a>,
    what: &str,
    known: &[&str],
) -> Result<&'v Object<'a>, DefError> {
    let o = doc.object(v, what)?;
    unique(doc, o, "property")?;
    match props(o).find(|(name, _, _)| !known.contains(name)) {
        Some((name, at, _)) => Err(doc.err(
            at,
            format!(
                "`{name}` is not a property of {what}: expected {}",
                known
                    .iter()
                    .map(|k| format!("`{k}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )),
        None => Ok(o),
    }
}

/// The set named by the string `v`, as its index.
fn orbit(doc: &Doc<'_>, v: &Value<'_>, sets: &[SetDef]) -> Result<usize, DefError> {
    let name = doc.string(v, "an orbit's name")?;
    find_orbit(doc, name, doc.at(v), sets)
}

/// The set called `name`, whose name stands at `at`, as its index.
fn find_orbit(doc: &Doc<'_>, name: &str, at: usize, sets: &[SetDef]) -> Result<usize, DefError> {
    sets.iter().position(|s| s.name == name).ok_or_else(|| {
        let known: Vec<&str> = sets.iter().map(|s| s.name.as_str()).collect();
        doc.err(
            at,
            format!(
                "unknown orbit `{name}`: expected one of the orbits declared in `orbits` ({})",
                known.join(", ")
            ),
        )
    })
}

/// A position of set `set`: a whole number below its size.
fn position(doc: &Doc<'_>, v: &Value<'_>, set: &SetDef) -> Result<usize, DefError> {
    let what = format!("a position of orbit `{}`", set.name);
    Ok(doc.number(v, &what, set.size as u64 - 1)? as usize)
}

/// A list of distinct positions of set `set`.
fn positions(doc: &Doc<'_>, v: &Value<'_>, set: &SetDef) -> Result<Vec<usize>, DefError> {
    let list = doc.array(v, &format!("a list of positions of orbit `{}`", set.name))?;
    let mut seen = vec![false; set.size];
    let mut out = Vec::with_capacity(list.elements.len());
    for e in &list.elements {
        let p = position(doc, e, set)?;
        if std::mem::replace(&mut seen[p], true) {
            return Err(doc.err(
                doc.at(e),
                format!("position {p} is listed twice: expected each position once"),
            ));
        }
        out.push(p);
    }
    Ok(out)
}

/// A condition, `{ "orbit": O, "position": P, "pieces": [LABEL, ...] }`: position `P`
/// holds one of the labels. Labels are kept sorted and once each, as the model wants.
fn cond(doc: &Doc<'_>, v: &Value<'_>, sets: &[SetDef]) -> Result<Cond, DefError> {
    const FORM: &str = "a condition (`orbit`, `position`, `pieces`)";
    let o = object_of(doc, v, FORM, &["orbit", "position", "pieces"])?;
    let set = orbit(doc, doc.field(o, "orbit", FORM)?, sets)?;
    let def = &sets[set];
    let pos = position(doc, doc.field(o, "position", FORM)?, def)?;
    let labels_v = doc.field(o, "pieces", FORM)?;
    let list = doc.array(labels_v, "the labels the position may hold")?;
    if list.elements.is_empty() {
        return Err(doc.err(
            doc.at(labels_v),
            "a condition without labels: expected at least one label the position may hold",
        ));
    }
    let mut labels = list
        .elements
        .iter()
        .map(|e| {
            doc.number(
                e,
                &format!("a piece of orbit `{}`", def.name),
                def.size as u64 - 1,
            )
            .map(|l| l as u16)
        })
        .collect::<Result<Vec<u16>, DefError>>()?;
    labels.sort_unstable();
    labels.dedup();
    Ok(Cond { set, pos, labels })
}

/// The base move called `name`, whose name stands at `at`: a move of `moves`, not a
/// power or a derived move, since the property belongs to the move as defined.
fn base_move(doc: &Doc<'_>, puzzle: &Puzzle, name: &str, at: usize) -> Result<usize, DefError> {
    puzzle.base_by_name(name).ok_or_else(|| {
        doc.err(
            at,
            format!("`{name}` is not a move of `moves`: expected the name of a move as defined"),
        )
    })
}
