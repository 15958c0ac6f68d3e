//! The rooms of the library (the top-level modules of `src/`) import each other in one
//! direction only: no two of them import each other, directly or through others, and
//! `storage` imports nothing of the solver. The imports are read from the source text
//! (every `crate::ROOM` path, grouped `crate::{...}` imports included), leaving out
//! comments and the items under `#[cfg(test)]`: a unit test may parse a definition with
//! `def` to get its fixture, as a dev-dependency would.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The source without comments and without the items marked `#[cfg(test)]`.
fn library_code(text: &str) -> String {
    let mut code = String::new();
    for line in text.lines() {
        let line = line.split("//").next().unwrap_or("");
        code.push_str(line);
        code.push('\n');
    }
    let mut out = String::new();
    let mut rest = code.as_str();
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let item = &rest[at + "#[cfg(test)]".len()..];
        let semi = item.find(';');
        let brace = item.find('{');
        rest = match (semi, brace) {
            (Some(s), Some(b)) if s < b => &item[s + 1..],
            (Some(s), None) => &item[s + 1..],
            (_, Some(b)) => {
                let mut depth = 0usize;
                let mut end = item.len();
                for (i, c) in item[b..].char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                end = b + i + 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                &item[end..]
            }
            (None, None) => "",
        };
    }
    out.push_str(rest);
    out
}

/// The rooms a piece of code names through `crate::`.
fn rooms_named(code: &str) -> BTreeSet<String> {
    let mut named = BTreeSet::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        rest = &rest[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            // Only the first segment of each item at depth 0 names a room.
            let mut depth = 0usize;
            let mut item_start = true;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => item_start = true,
                    c if item_start && (c.is_alphanumeric() || c == '_') => {
                        let word: String = group[i..]
                            .chars()
                            .take_while(|c| c.is_alphanumeric() || *c == '_')
                            .collect();
                        named.insert(word);
                        item_start = false;
                    }
                    _ => {}
                }
            }
        } else {
            let word: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            named.insert(word);
        }
    }
    named
}

/// Every `.rs` file under `dir`, with the room it belongs to.
fn files(dir: &Path, room: &str, out: &mut Vec<(String, std::path::PathBuf)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, room, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push((room.to_string(), path));
        }
    }
}

/// Room → the rooms its library code imports.
fn import_graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut all = Vec::new();
    for entry in std::fs::read_dir(&src).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_str().unwrap().to_string();
        // The binary's `cli` and the crate roots are not rooms of the library.
        if matches!(name.as_str(), "lib" | "main" | "cli") {
            continue;
        }
        if path.is_dir() {
            files(&path, &name, &mut all);
        } else {
            all.push((name, path));
        }
    }
    let rooms: BTreeSet<String> = all.iter().map(|(r, _)| r.clone()).collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> =
        rooms.iter().map(|r| (r.clone(), BTreeSet::new())).collect();
    for (room, path) in &all {
        let stem = path.file_stem().unwrap().to_str().unwrap();
        // Files that hold only unit tests or their fixtures.
        if stem == "tests" || stem.ends_with("_tests") || stem == "testing" {
            continue;
        }
        let code = library_code(&std::fs::read_to_string(path).unwrap());
        for other in rooms_named(&code) {
            if other != *room && rooms.contains(&other) {
                graph.get_mut(room).unwrap().insert(other);
            }
        }
    }
    graph
}

/// A path of imports from `from` back to itself, if there is one.
fn cycle_through(graph: &BTreeMap<String, BTreeSet<String>>, from: &str) -> Option<Vec<String>> {
    fn walk(
        graph: &BTreeMap<String, BTreeSet<String>>,
        goal: &str,
        at: &str,
        path: &mut Vec<String>,
        seen: &mut BTreeSet<String>,
    ) -> bool {
        for next in &graph[at] {
            if next == goal {
                path.push(next.clone());
                return true;
            }
            if seen.insert(next.clone()) {
                path.push(next.clone());
                if walk(graph, goal, next, path, seen) {
                    return true;
                }
                path.pop();
            }
        }
        false
    }
    let mut path = vec![from.to_string()];
    walk(graph, from, from, &mut path, &mut BTreeSet::new()).then_some(path)
}

#[test]
fn no_two_rooms_import_each_other() {
    let graph = import_graph();
    assert!(graph.len() > 10, "rooms found: {graph:?}");
    for room in graph.keys() {
        if let Some(path) = cycle_through(&graph, room) {
            panic!("a circle of imports: {}", path.join(" -> "));
        }
    }
}

#[test]
fn storage_knows_no_puzzles() {
    let graph = import_graph();
    let allowed: BTreeSet<String> = ["progress", "memory"].map(String::from).into();
    assert!(
        graph["storage"].is_subset(&allowed),
        "storage imports {:?}",
        graph["storage"]
    );
}

#[test]
fn the_reader_sees_grouped_imports_and_skips_test_items() {
    let code = library_code(
        "use crate::{alg::parse, puzzle::{Puzzle, State}};\n\
         // crate::gods in a comment\n\
         #[cfg(test)]\nmod tests {\n    use crate::def::parse_puzzle;\n}\n\
         #[cfg(test)]\nuse crate::table;\n\
         fn f() -> crate::keys::Packer {}\n",
    );
    let named: Vec<String> = rooms_named(&code).into_iter().collect();
    assert_eq!(named, ["alg", "keys", "puzzle"]);
}
