//! Breadth-first throughput of the God's-algorithm searches, in positions per second:
//! the indexed search on the 2x2x2 (HTM and QTM) and the tipless Pyraminx, the hash-set
//! search on a bandaged 2x2x2 and, when ksolve+'s samples are beside the checkout, on
//! the Bicube. `KSOLVE_BENCH_LARGE=1` adds the 88,179,840-position all-faces 2x2x2.

use ksolve_benches::gods_fixtures;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use ksolve::gods::{compute, GodOptions, Method};
use ksolve::progress::Silent;
use ksolve::puzzle::{Metric, Puzzle};
use std::time::Duration;

fn bench_table(c: &mut Criterion, name: &str, p: &Puzzle, metric: Metric, method: Method) {
    let opts = GodOptions {
        metric,
        method,
        antipodes: 5,
        ..GodOptions::default()
    };
    let total = compute(p, &opts, &Silent, &|_, _| {}).unwrap().total();
    let mut group = c.benchmark_group("gods");
    group.throughput(Throughput::Elements(total));
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    group.bench_function(name, |b| {
        b.iter(|| compute(p, &opts, &Silent, &|_, _| {}).unwrap().total())
    });
    group.finish();
}

fn searches(c: &mut Criterion) {
    let cube2 = gods_fixtures::cube2();
    bench_table(c, "2x2x2 htm indexed", &cube2, Metric::Htm, Method::Indexed);
    bench_table(c, "2x2x2 qtm indexed", &cube2, Metric::Qtm, Method::Indexed);
    bench_table(c, "2x2x2 htm hashed", &cube2, Metric::Htm, Method::Hashed);
    let pyra = gods_fixtures::pyraminx();
    bench_table(
        c,
        "pyraminx htm indexed",
        &pyra,
        Metric::Htm,
        Method::Indexed,
    );
    let bandaged = gods_fixtures::bandaged_cube2();
    bench_table(
        c,
        "bandaged 2x2x2 htm hashed",
        &bandaged,
        Metric::Htm,
        Method::Auto,
    );
    let bicube = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/ksolve-samples/Bicube.def");
    if bicube.exists() {
        let (p, _) = ksolve::def::load_puzzle(&bicube).unwrap();
        bench_table(c, "bicube htm hashed", &p, Metric::Htm, Method::Auto);
    }
    if std::env::var_os("KSOLVE_BENCH_LARGE").is_some_and(|v| v == "1") {
        let all = gods_fixtures::cube2_all_faces();
        bench_table(
            c,
            "2x2x2 all faces htm indexed",
            &all,
            Metric::Htm,
            Method::Indexed,
        );
    }
}

/// The database method: 1,000 random 2x2x2 positions solved from a saved table.
fn database(c: &mut Criterion) {
    use ksolve::gods::database::{self, Database};
    let p = gods_fixtures::cube2();
    let opts = GodOptions {
        keep_distances: true,
        ..GodOptions::default()
    };
    let table = compute(&p, &opts, &Silent, &|_, _| {}).unwrap();
    let dir = std::env::temp_dir().join(format!("ksolve-bench-{}", std::process::id()));
    let path = dir.join("cube2.dist");
    database::write(&path, &p, &table).unwrap();
    let db = Database::open(&path, &p).unwrap();
    // Random positions: random move sequences long enough to mix the cube.
    let mut rng = ksolve::rng::Rng::new(1);
    let scrambles: Vec<_> = (0..1000)
        .map(|_| {
            let seq: Vec<_> = (0..40)
                .map(|_| ksolve::puzzle::MoveId(rng.below(p.moves.len() as u64) as u16))
                .collect();
            p.apply_sequence(&p.solved, &seq)
        })
        .collect();
    let mut group = c.benchmark_group("gods");
    group.throughput(Throughput::Elements(scrambles.len() as u64));
    group.sample_size(10);
    group.bench_function("database solve 1000 2x2x2", |b| {
        b.iter(|| {
            scrambles
                .iter()
                .map(|s| database::solve(&db, &p, s, Metric::Htm).unwrap().len())
                .sum::<usize>()
        })
    });
    group.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, searches, database);
criterion_main!(benches);
