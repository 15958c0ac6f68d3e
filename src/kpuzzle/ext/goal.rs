//! The extension's word on the goal: positions it leaves free (`free`, ksolve+'s `?N` in
//! `Solved`), the rules a well-formed position keeps (`require`), and what scrambles
//! may leave unsolved (`ignore`).
//!
//! As ksolve+'s reader does, a free position may be left unsolved by any scramble, and
//! a goal the rules leave without a position is refused, so that no search, count or
//! random draw starts from nothing.

use super::{cond, find_orbit, object_of, positions, Ext};
use crate::kpuzzle::json::{get, props, unique, Doc};
use crate::located::DefError;
use crate::puzzle::{Cond, Puzzle, Rule};

/// Reads `free`, `require` and `ignore` into the assembled puzzle.
pub(super) fn read(doc: &Doc<'_>, ext: &Ext<'_, '_>, puzzle: &mut Puzzle) -> Result<(), DefError> {
    if let Some(v) = ext.get("ignore") {
        let o = doc.object(v, "what scrambles may leave unsolved, by orbit")?;
        unique(doc, o, "orbit")?;
        for (name, at, masks) in props(o) {
            let k = find_orbit(doc, name, at, &puzzle.sets)?;
            let size = puzzle.sets[k].size;
            let owner = format!("orbit `{name}` of `ignore`");
            let m = object_of(doc, masks, &owner, &["pieces", "orientation"])?;
            let pieces = doc.numbers(doc.field(m, "pieces", &owner)?, "`pieces`", size, 1)?;
            let ori = doc.numbers(
                doc.field(m, "orientation", &owner)?,
                "`orientation`",
                size,
                1,
            )?;
            let mask = &mut puzzle.ignore[k];
            for (b, &x) in mask.perm.iter_mut().zip(&pieces) {
                *b |= x == 1;
            }
            for (b, &x) in mask.ori.iter_mut().zip(&ori) {
                *b |= x == 1;
            }
        }
    }
    let free_v = ext.get("free");
    if let Some(v) = free_v {
        let o = doc.object(v, "the goal's free positions, by orbit")?;
        unique(doc, o, "orbit")?;
        let mut free: Vec<Vec<bool>> = puzzle.sets.iter().map(|s| vec![false; s.size]).collect();
        for (name, at, list) in props(o) {
            let k = find_orbit(doc, name, at, &puzzle.sets)?;
            for p in positions(doc, list, &puzzle.sets[k])? {
                free[k][p] = true;
            }
        }
        if free.iter().flatten().any(|&f| f) {
            // A free position of the goal may be left unsolved by any scramble, too.
            for (mask, f) in puzzle.ignore.iter_mut().zip(&free) {
                for (m, &x) in mask.perm.iter_mut().zip(f) {
                    *m |= x;
                }
            }
            puzzle.free = free;
        }
    }
    let Some(v) = ext.get("require") else {
        return Ok(());
    };
    let list = doc.array(v, "the rules a well-formed position keeps")?;
    for e in &list.elements {
        puzzle.rules.push(rule(doc, e, puzzle)?);
    }
    check_goal(doc, puzzle, &list.elements, doc.at(free_v.unwrap_or(v)))
}

/// One rule: `{ "when": COND, "then": COND }`, or `{ "when": COND, "never": true }`.
fn rule(
    doc: &Doc<'_>,
    v: &jsonc_parser::ast::Value<'_>,
    puzzle: &Puzzle,
) -> Result<Rule, DefError> {
    const FORM: &str = "a rule (`when` and `then`, or `when` and `\"never\": true`)";
    let o = object_of(doc, v, FORM, &["when", "then", "never"])?;
    let when = cond(doc, doc.field(o, "when", FORM)?, &puzzle.sets)?;
    let then = match (get(o, "then"), get(o, "never")) {
        (Some(t), None) => Some(cond(doc, t, &puzzle.sets)?),
        (None, Some(jsonc_parser::ast::Value::BooleanLit(b))) if b.value => None,
        _ => {
            return Err(doc.err(
                doc.at(v),
                format!("{FORM}: expected exactly one of `then` and `\"never\": true`"),
            ))
        }
    };
    // ksolve+'s `Require` line names one set, and the goal's enumeration fills one
    // set's free positions against the rules of that set.
    if then.as_ref().is_some_and(|t| t.set != when.set) {
        return Err(doc.err(
            doc.at(v),
            "a rule over two orbits: expected `when` and `then` on one orbit",
        ));
    }
    Ok(Rule { when, then })
}

/// Refuses a goal the rules leave without a position: a rule broken by positions the
/// goal fixes, at the rule (`rules` are the rules' values); else, when no filling of
/// the free positions keeps every rule, at `free_at`.
fn check_goal(
    doc: &Doc<'_>,
    puzzle: &Puzzle,
    rules: &[jsonc_parser::ast::Value<'_>],
    free_at: usize,
) -> Result<(), DefError> {
    let fixed = |c: &Cond| !puzzle.free.get(c.set).is_some_and(|f| f[c.pos]);
    for (rule, v) in puzzle.rules.iter().zip(rules) {
        if fixed(&rule.when) && rule.then.as_ref().is_none_or(fixed) && !rule.holds(&puzzle.solved)
        {
            return Err(doc.err(
                doc.at(v),
                "the solved pattern's positions that are not free break this rule, so no goal position keeps it: expected a solved pattern that keeps every rule",
            ));
        }
    }
    if puzzle.goal_is_set() && puzzle.goal_positions(1).is_some_and(|g| g.is_empty()) {
        return Err(doc.err(
            free_at,
            "no filling of the free positions keeps the rules of `require`: expected rules that leave the goal at least one position",
        ));
    }
    Ok(())
}
