//! The database method: a saved distance table solves random positions optimally with
//! no search, and damaged, foreign or mismatched tables are refused, never trusted.

use crate::gods_fixtures::*;
use ksolve::gods::database::{self, Database, DatabaseError};
use ksolve::gods::{compute, GodOptions, GodTable, Method};
use ksolve::progress::Silent;
use ksolve::puzzle::{Metric, Puzzle, State};
use ksolve::rng::Rng;
use ksolve::storage::file::{write_table, TableFileError};
use std::path::Path;

fn table(p: &Puzzle, metric: Metric, method: Method, keep: bool) -> GodTable {
    let opts = GodOptions {
        metric,
        method,
        keep_distances: keep,
        ..GodOptions::default()
    };
    compute(p, &opts, &Silent, &|_, _| {}).unwrap()
}

/// A uniformly random 2x2x2 position (seven free corners, the eighth fixed).
fn random_cube2(p: &Puzzle, rng: &mut Rng) -> State {
    let mut s = p.solved.clone();
    let set = &mut s.sets[0];
    let free = [0usize, 1, 2, 3, 4, 5, 7];
    let mut labels: Vec<u16> = free.iter().map(|&i| i as u16).collect();
    for i in (1..labels.len()).rev() {
        labels.swap(i, rng.below(i as u64 + 1) as usize);
    }
    let mut sum = 0;
    for (k, &pos) in free.iter().enumerate() {
        set.perm[pos] = labels[k];
        let o = if k + 1 < free.len() {
            rng.below(3) as u8
        } else {
            (3 - sum % 3) % 3
        };
        sum += o;
        set.ori[pos] = o;
    }
    s
}

fn save(p: &Puzzle, metric: Metric, method: Method, path: &Path) {
    let t = table(p, metric, method, true);
    assert!(t.has_distances());
    database::write(path, p, &t).unwrap();
}

#[test]
fn solves_random_positions_optimally() {
    let dir = tempfile::tempdir().unwrap();
    let p = cube2();
    let metrics: &[Metric] = if crate::common::slow_tests() {
        &[Metric::Htm, Metric::Qtm]
    } else {
        &[Metric::Htm]
    };
    for &metric in metrics {
        let path = dir.path().join(format!("cube2-{metric:?}.dist"));
        save(&p, metric, Method::Indexed, &path);
        let db = Database::open(&path, &p).unwrap();
        assert_eq!(db.metric(), metric);
        assert_eq!(db.positions(), 3_674_160);
        // Distances from the independent hash-set search, saved as sorted keys, to
        // compare lengths with.
        let ref_path = dir.path().join(format!("cube2-{metric:?}.keys"));
        save(&p, metric, Method::Hashed, &ref_path);
        let reference = Database::open(&ref_path, &p).unwrap();
        let mut rng = Rng::new(7);
        let n = if metric == Metric::Htm { 1000 } else { 200 };
        for _ in 0..n {
            let s = random_cube2(&p, &mut rng);
            let sol = database::solve(&db, &p, &s, metric).unwrap();
            assert_eq!(p.apply_sequence(&s, &sol), p.solved);
            let cost: u32 = sol.iter().map(|&m| metric.cost(&p, m)).sum();
            assert_eq!(Some(cost), reference.distance(&s), "optimal length");
            assert_eq!(db.distance(&s), Some(cost));
        }
        assert_eq!(database::solve(&db, &p, &p.solved, metric).unwrap(), vec![]);
    }
}

#[test]
fn bandaged_and_directed_tables_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    for (name, p) in [
        ("bandaged", bandaged_cube2()),
        ("clockwise", cube2_clockwise()),
    ] {
        let path = dir.path().join(name);
        let t = table(&p, Metric::Htm, Method::Auto, true);
        database::write(&path, &p, &t).unwrap();
        let db = Database::open(&path, &p).unwrap();
        assert_eq!(db.max_depth() as usize, t.max_depth());
        for a in &t.antipodes {
            let sol = database::solve(&db, &p, &a.state, Metric::Htm).unwrap();
            assert_eq!(sol.len(), t.max_depth());
            assert_eq!(p.apply_sequence(&a.state, &sol), p.solved);
        }
    }
}

#[test]
fn unreachable_and_foreign_positions_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    let p = cube2();
    let path = dir.path().join("t");
    save(&p, Metric::Htm, Method::Auto, &path);
    let db = Database::open(&path, &p).unwrap();
    // Twisting one corner alone breaks the orientation sum: no move sequence does it.
    let mut twisted = p.solved.clone();
    twisted.sets[0].ori[0] = 1;
    assert_eq!(db.distance(&twisted), None);
    assert!(matches!(
        database::solve(&db, &p, &twisted, Metric::Htm),
        Err(DatabaseError::Unreachable)
    ));
    // Moving the fixed corner is outside the index altogether.
    let mut moved = p.solved.clone();
    moved.sets[0].perm.swap(5, 6);
    assert_eq!(db.distance(&moved), None);
    // Labels out of range must not panic.
    let mut bad = p.solved.clone();
    bad.sets[0].perm[0] = 40;
    assert_eq!(db.distance(&bad), None);
    assert!(matches!(
        database::solve(&db, &p, &p.solved, Metric::Qtm),
        Err(DatabaseError::Metric { .. })
    ));
}

#[test]
fn damaged_and_foreign_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let p = cube2();
    let path = dir.path().join("t");
    save(&p, Metric::Htm, Method::Auto, &path);
    let bytes = std::fs::read(&path).unwrap();

    let other = cube2_all_faces();
    assert!(matches!(
        Database::open(&path, &other),
        Err(DatabaseError::File(TableFileError::Foreign(_)))
    ));

    std::fs::write(&path, &bytes[..bytes.len() - 3]).unwrap();
    assert!(matches!(
        Database::open(&path, &p),
        Err(DatabaseError::File(TableFileError::Truncated(_)))
    ));

    let mut flipped = bytes.clone();
    let mid = bytes.len() / 2;
    flipped[mid] ^= 0x40;
    std::fs::write(&path, &flipped).unwrap();
    assert!(matches!(
        Database::open(&path, &p),
        Err(DatabaseError::File(TableFileError::Corrupt(..)))
    ));

    std::fs::remove_file(&path).unwrap();
    assert!(matches!(
        Database::open(&path, &p),
        Err(DatabaseError::File(TableFileError::Missing(_)))
    ));

    // A well-formed container of the right kind and key whose payload is not a
    // distance table (or is one of the wrong length) is refused by its own header.
    let key = database::puzzle_key(&p);
    write_table(&path, database::KIND, key, b"not a distance table at all").unwrap();
    assert!(matches!(
        Database::open(&path, &p),
        Err(DatabaseError::Layout(..))
    ));
    let mut short = bytes[64..].to_vec();
    short.truncate(short.len() - 1);
    write_table(&path, database::KIND, key, &short).unwrap();
    assert!(matches!(
        Database::open(&path, &p),
        Err(DatabaseError::Layout(..))
    ));
}

#[test]
fn writing_needs_kept_distances() {
    let dir = tempfile::tempdir().unwrap();
    let p = pyraminx();
    let t = table(&p, Metric::Htm, Method::Auto, false);
    assert!(matches!(
        database::write(&dir.path().join("t"), &p, &t),
        Err(DatabaseError::NoDistances)
    ));
}
