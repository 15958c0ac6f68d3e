//! The words ksolve+'s languages give meaning to, and the names a set or move may have
//! there: every reader that builds a model (`def`, `kpuzzle`) holds names to these rules,
//! so that any puzzle read prints as a definition that reads back the same.

/// Commands of a definition file.
pub const DEF_COMMANDS: &[&str] = &[
    "Name",
    "Set",
    "Solved",
    "Move",
    "Ignore",
    "Block",
    "ForbiddenPairs",
    "ForbiddenGroups",
    // ksolve's addition: a weight per move for the search (see `costs`).
    "MoveCosts",
    "Multiplicators",
    "ParallelMoves",
    "MoveLimits",
    // twsearch's additions (see `twsearch`): `StartState` and `MoveTransformation`
    // are `Solved` and `Move` numbered from 0; `Illegal` is read only to be refused.
    "StartState",
    "MoveTransformation",
    "MoveAlias",
    "MoveSequence",
    "Illegal",
    // Our extension: the sticker map (see `stickers`).
    "Stickers",
    // Our extension: the moves searches use by default (see `Puzzle::searched`).
    "SearchMoves",
];

/// Commands of a scramble file.
pub const SCRAMBLE_COMMANDS: &[&str] = &[
    "Scramble",
    // twsearch's positions numbered from 0.
    "ScrambleState",
    "StartState",
    "ScrambleAlg",
    "RandomScramble",
    "MaxDepth",
    "Slack",
    "QTM",
    "HTM",
    "MoveLimits",
    // Our extension: a position by its colours (see `crate::sticker::read`).
    "ScrambleFacelets",
    // Our extension: the goal for the scrambles after it (ksolve+ has no such command).
    "Goal",
    "GoalAlg",
];

/// Whether a word is a command of either language, or `End`. Such words cannot name a
/// set or a move, since they would be read as the start or end of a command.
pub fn is_reserved(word: &str) -> bool {
    word == "End" || DEF_COMMANDS.contains(&word) || SCRAMBLE_COMMANDS.contains(&word)
}

/// Whether a word starts a vector line rather than naming something: ksolve+ decides
/// the same way, by the first character. A sign counts, so that `-1` is reported as a
/// bad number rather than as an unknown set.
pub fn looks_numeric(word: &str) -> bool {
    word.starts_with(|c: char| c.is_ascii_digit() || c == '?' || c == '-' || c == '+')
}

/// Why `name` cannot name a set (or, with `is_move`, a move) in ksolve+'s languages, if
/// it cannot: a command word, a word read as a vector (twsearch's digit-led move names,
/// `2F`, `3Rw`, are allowed: a move name never stands alone on a line, but a set name
/// can, and a bare number would be ambiguous in `MoveLimits`), or a move name ending
/// with `*`, which means "all powers" in `MoveLimits`.
pub fn name_problem(name: &str, is_move: bool) -> Option<String> {
    let what = if is_move { "move" } else { "set" };
    if is_reserved(name) {
        return Some(format!(
            "`{name}` cannot name a {what}: it is a command word; expected another name"
        ));
    }
    let digit_led =
        name.starts_with(|c: char| c.is_ascii_digit()) && !name.chars().all(|c| c.is_ascii_digit());
    if looks_numeric(name) && !(is_move && digit_led) {
        return Some(format!(
            "`{name}` cannot name a {what}: names starting with a digit, sign or `?` read as vectors; expected a name starting with a letter"
        ));
    }
    if is_move && name.ends_with('*') {
        return Some(format!(
            "`{name}` cannot name a move: a final `*` means \"all powers\" in MoveLimits; expected a name without it"
        ));
    }
    None
}
