//! The extension's word on moves: which are used only as given (`noinverse`), the
//! conditions a guarded move is made under (`guards`), and the positions a move counts
//! as moving though it leaves their pieces as they were (`touched`).
//!
//! `noinverse` and `guards` are read before the moves are, since a directed move has no
//! powers (which the caps on the number of moves count); `touched` is applied once the
//! puzzle is assembled.

use super::{base_move, cond, find_orbit, positions, Ext};
use crate::kpuzzle::json::{props, unique, Doc};
use crate::located::DefError;
use crate::puzzle::{Guard, Puzzle, SetDef};
use jsonc_parser::ast::Object;
use std::collections::{HashMap, HashSet};

/// What the extension says about the moves of `moves`, by name.
#[derive(Default)]
pub struct MoveExtras {
    /// Moves used only as given: listed in `noinverse`, or guarded.
    directed: HashSet<String>,
    /// Per guarded move, its conditions.
    guards: HashMap<String, Guard>,
}

impl MoveExtras {
    /// Whether move `name` is used only as given.
    pub fn directed(&self, name: &str) -> bool {
        self.directed.contains(name) || self.guards.contains_key(name)
    }

    /// Whether any move is guarded.
    pub fn has_guards(&self) -> bool {
        !self.guards.is_empty()
    }

    /// Gives the assembled puzzle's moves their guards.
    pub(super) fn apply(self, puzzle: &mut Puzzle) {
        for (name, guard) in self.guards {
            if let Some(b) = puzzle.base_by_name(&name) {
                puzzle.guards[b] = Some(guard);
            }
        }
    }
}

impl Ext<'_, '_> {
    /// Reads `noinverse` and `guards`, whose move names must be those of `moves` (the
    /// definition's `moves` object).
    pub fn moves(
        &self,
        doc: &Doc<'_>,
        sets: &[SetDef],
        moves: &Object<'_>,
    ) -> Result<MoveExtras, DefError> {
        let mut extras = MoveExtras::default();
        let defined = |name: &str, at: usize| {
            if props(moves).any(|(n, _, _)| n == name) {
                Ok(())
            } else {
                Err(doc.err(
                    at,
                    format!(
                        "`{name}` is not a move of `moves`: expected the name of a move as defined"
                    ),
                ))
            }
        };
        if let Some(v) = self.get("noinverse") {
            let list = doc.array(v, "the moves used only as given, by name")?;
            for e in &list.elements {
                let name = doc.string(e, "a move's name")?;
                defined(name, doc.at(e))?;
                if !extras.directed.insert(name.to_string()) {
                    return Err(doc.err(
                        doc.at(e),
                        format!("move `{name}` is listed twice: expected each move once"),
                    ));
                }
            }
        }
        if let Some(v) = self.get("guards") {
            let o = doc.object(v, "the guarded moves' conditions, by move")?;
            unique(doc, o, "move")?;
            for (name, at, conds_v) in props(o) {
                defined(name, at)?;
                let list = doc.array(conds_v, "the move's conditions, all of which must hold")?;
                if list.elements.is_empty() {
                    return Err(doc.err(
                        doc.at(conds_v),
                        "a guard without conditions: expected at least one condition",
                    ));
                }
                let mut conds = Vec::with_capacity(list.elements.len());
                for e in &list.elements {
                    let c = cond(doc, e, sets)?;
                    if conds
                        .iter()
                        .any(|d: &crate::puzzle::Cond| d.set == c.set && d.pos == c.pos)
                    {
                        return Err(doc.err(
                            doc.at(e),
                            format!(
                                "position {} of orbit `{}` is already in this move's conditions: expected each position once (list every allowed label there)",
                                c.pos, sets[c.set].name
                            ),
                        ));
                    }
                    conds.push(c);
                }
                extras.guards.insert(name.to_string(), Guard { conds });
            }
        }
        Ok(extras)
    }
}

/// Reads `touched` into the assembled puzzle's touched masks.
pub(super) fn touched(
    doc: &Doc<'_>,
    ext: &Ext<'_, '_>,
    puzzle: &mut Puzzle,
) -> Result<(), DefError> {
    let Some(v) = ext.get("touched") else {
        return Ok(());
    };
    let o = doc.object(v, "the positions each move counts as moving, by move")?;
    unique(doc, o, "move")?;
    for (name, at, by_orbit) in props(o) {
        let b = base_move(doc, puzzle, name, at)?;
        let by_orbit = doc.object(
            by_orbit,
            "the positions the move counts as moving, by orbit",
        )?;
        unique(doc, by_orbit, "orbit")?;
        for (oname, oat, list) in props(by_orbit) {
            let k = find_orbit(doc, oname, oat, &puzzle.sets)?;
            for p in positions(doc, list, &puzzle.sets[k])? {
                puzzle.base_moves[b].touched[k][p] = true;
            }
        }
    }
    Ok(())
}
