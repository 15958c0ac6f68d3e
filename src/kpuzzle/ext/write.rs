//! Writing the extension object: each property only when the puzzle needs it, and
//! nothing at all for a puzzle KPuzzle says whole, so that cubing.js users get a plain
//! file. What the KPuzzle part already says (the positions a move moves or twists) is
//! not repeated.

use super::PROPERTY;
use crate::kpuzzle::json::{list, quote};
use crate::puzzle::{Cond, Puzzle, Transform};
use std::fmt::Write;

/// The extension property of `puzzle`'s KPuzzle definition (indented as a top-level
/// property, without a trailing comma), or `None` when KPuzzle says it all.
pub fn write_extension(puzzle: &Puzzle) -> Option<String> {
    let mut props: Vec<String> = Vec::new();
    let mut add = |name: &str, value: String| props.push(format!("    {}: {value}", quote(name)));
    let base_name = |b: usize| quote(&puzzle.base_moves[b].name);
    let set_name = |k: usize| quote(&puzzle.sets[k].name);
    // A guarded move is directed already, as `When` makes it.
    let noinverse: Vec<String> = (0..puzzle.base_moves.len())
        .filter(|&b| puzzle.base_moves[b].directed && puzzle.guards[b].is_none())
        .map(base_name)
        .collect();
    if !noinverse.is_empty() {
        add("noinverse", format!("[{}]", noinverse.join(", ")));
    }
    let touched: Vec<String> = (0..puzzle.base_moves.len())
        .filter_map(|b| {
            let orbits = extra_touched(puzzle, b);
            (!orbits.is_empty()).then(|| {
                let orbits: Vec<String> = orbits
                    .iter()
                    .map(|(k, ps)| format!("{}: {}", set_name(*k), list(ps)))
                    .collect();
                format!("      {}: {{ {} }}", base_name(b), orbits.join(", "))
            })
        })
        .collect();
    if !touched.is_empty() {
        add("touched", block('{', &touched, '}'));
    }
    let guards: Vec<String> = (0..puzzle.base_moves.len())
        .filter_map(|b| {
            let g = puzzle.guards[b].as_ref()?;
            let conds: Vec<String> = g.conds.iter().map(|c| cond(puzzle, c)).collect();
            Some(format!("      {}: [{}]", base_name(b), conds.join(", ")))
        })
        .collect();
    if !guards.is_empty() {
        add("guards", block('{', &guards, '}'));
    }
    if puzzle.has_free() {
        let free: Vec<String> = (0..puzzle.sets.len())
            .filter_map(|k| {
                let ps: Vec<usize> = (0..puzzle.sets[k].size)
                    .filter(|&p| puzzle.free[k][p])
                    .collect();
                (!ps.is_empty()).then(|| format!("      {}: {}", set_name(k), list(&ps)))
            })
            .collect();
        add("free", block('{', &free, '}'));
    }
    // An orbit whose pieces share one modulus would read as that many orientations.
    let shared: Vec<String> = (0..puzzle.sets.len())
        .filter(|&k| {
            let n = puzzle.sets[k].orientations.max(1);
            let m = puzzle.ori_modulus(k, 0);
            m < n && (0..puzzle.sets[k].size).all(|i| puzzle.ori_modulus(k, i) == m)
        })
        .map(set_name)
        .collect();
    if !shared.is_empty() {
        add("moduloGoal", format!("[{}]", shared.join(", ")));
    }
    if !puzzle.rules.is_empty() {
        let rules: Vec<String> = puzzle
            .rules
            .iter()
            .map(|r| match &r.then {
                Some(t) => format!(
                    "      {{ \"when\": {}, \"then\": {} }}",
                    cond(puzzle, &r.when),
                    cond(puzzle, t)
                ),
                None => format!(
                    "      {{ \"when\": {}, \"never\": true }}",
                    cond(puzzle, &r.when)
                ),
            })
            .collect();
        add("require", block('[', &rules, ']'));
    }
    let ignore: Vec<String> = (0..puzzle.sets.len())
        .filter(|&k| {
            // What the KPuzzle part (an `orientationMod` of 1) and `free` say already.
            let mask = &puzzle.ignore[k];
            let free = |p: usize| puzzle.free.get(k).is_some_and(|f| f[p]);
            (0..puzzle.sets[k].size)
                .any(|p| mask.perm[p] != free(p) || mask.ori[p] != puzzle.ori_free(k, p))
        })
        .map(|k| {
            let bits = |v: &[bool]| list(&v.iter().map(|&b| u8::from(b)).collect::<Vec<_>>());
            let mask = &puzzle.ignore[k];
            format!(
                "      {}: {{ \"pieces\": {}, \"orientation\": {} }}",
                set_name(k),
                bits(&mask.perm),
                bits(&mask.ori)
            )
        })
        .collect();
    if !ignore.is_empty() {
        add("ignore", block('{', &ignore, '}'));
    }
    if !puzzle.blocks.is_empty() {
        let blocks: Vec<String> = puzzle
            .blocks
            .iter()
            .map(|b| block_object(puzzle, b))
            .collect();
        add("blocks", block('[', &blocks, ']'));
    }
    let n = puzzle.moves.len();
    let name = |m: usize| quote(&puzzle.moves[m].name);
    let pairs: Vec<String> = (0..n * n)
        .filter(|&i| puzzle.forbidden[i])
        .map(|i| format!("      [{}, {}]", name(i / n), name(i % n)))
        .collect();
    if !pairs.is_empty() {
        add("forbiddenPairs", block('[', &pairs, ']'));
    }
    let costs: Vec<String> = (0..n)
        .filter(|&m| puzzle.moves[m].weight != 1)
        .map(|m| format!("      {}: {}", name(m), puzzle.moves[m].weight))
        .collect();
    if !costs.is_empty() {
        add("moveCosts", block('{', &costs, '}'));
    }
    if !puzzle.searched.is_empty() {
        let searched: Vec<String> = (0..puzzle.base_moves.len())
            .filter(|&b| puzzle.searched[b])
            .map(base_name)
            .collect();
        add("searchMoves", format!("[{}]", searched.join(", ")));
    }
    if let Some(map) = &puzzle.stickers {
        let stickers: Vec<String> = map
            .stickers
            .iter()
            .map(|st| {
                let mut s = format!(
                    "      {{ \"face\": {}, \"row\": {}, \"col\": {}",
                    quote(&st.face.to_string()),
                    st.row,
                    st.col
                );
                if let Some(slot) = st.piece {
                    let _ = write!(
                        s,
                        ", \"orbit\": {}, \"position\": {}, \"slot\": {}",
                        set_name(slot.set),
                        slot.pos,
                        slot.slot
                    );
                }
                s.push_str(" }");
                s
            })
            .collect();
        add("stickers", block('[', &stickers, ']'));
        if !map.face_colours.is_empty() {
            let colours: Vec<String> = map
                .face_colours
                .iter()
                .map(|(face, [r, g, b])| {
                    format!("{}: \"#{r:02x}{g:02x}{b:02x}\"", quote(&face.to_string()))
                })
                .collect();
            add("colours", format!("{{ {} }}", colours.join(", ")));
        }
    }
    if let Some(board) = &puzzle.board {
        add("board", super::board::write(puzzle, board));
    }
    (!props.is_empty()).then(|| format!("  {}: {{\n{}\n  }}", quote(PROPERTY), props.join(",\n")))
}

/// Per set, the positions base move `b` counts as moving ([`crate::puzzle::BaseMove`]'s
/// `touched`) though its transformation leaves them as they were: a "twist" in a
/// one-orientation set, which a KPuzzle transformation cannot show.
fn extra_touched(puzzle: &Puzzle, b: usize) -> Vec<(usize, Vec<usize>)> {
    let base = &puzzle.base_moves[b];
    let file_form: Transform = base.effect.to_ksolve();
    (0..puzzle.sets.len())
        .filter_map(|k| {
            let s = &file_form.sets[k];
            let ps: Vec<usize> = (0..puzzle.sets[k].size)
                .filter(|&p| base.touched[k][p] && s.perm[p] as usize == p && s.ori[p] == 0)
                .collect();
            (!ps.is_empty()).then_some((k, ps))
        })
        .collect()
}

fn cond(puzzle: &Puzzle, c: &Cond) -> String {
    format!(
        "{{ \"orbit\": {}, \"position\": {}, \"pieces\": {} }}",
        quote(&puzzle.sets[c.set].name),
        c.pos,
        list(&c.labels)
    )
}

/// A block as an object of its pieces by orbit, in the order they were given.
fn block_object(puzzle: &Puzzle, block: &crate::puzzle::Block) -> String {
    let mut orbits: Vec<(usize, Vec<u16>)> = Vec::new();
    for &(k, label) in &block.pieces {
        match orbits.last_mut() {
            Some((last, labels)) if *last == k => labels.push(label),
            _ => orbits.push((k, vec![label])),
        }
    }
    let orbits: Vec<String> = orbits
        .iter()
        .map(|(k, labels)| format!("{}: {}", quote(&puzzle.sets[*k].name), list(labels)))
        .collect();
    format!("      {{ {} }}", orbits.join(", "))
}

/// Entries, one per line, inside `open` and `close`, closed at the property's indent.
fn block(open: char, entries: &[String], close: char) -> String {
    format!("{open}\n{}\n    {close}", entries.join(",\n"))
}
