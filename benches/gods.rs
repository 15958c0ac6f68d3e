//! Breadth-first throughput of the God's-algorithm searches, in positions per second:
//! the indexed search on the 2x2x2 (HTM and QTM) and the tipless Pyraminx, the hash-set
//! search on a bandaged 2x2x2 and, when ksolve+'s samples are beside the checkout, on
//! the Bicube. `KSOLVE_BENCH_LARGE=1` adds the 88,179,840-position all-faces 2x2x2.

#[path = "../tests/gods_fixtures/mod.rs"]
mod gods_fixtures;

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
    bench_table(c, "pyraminx htm indexed", &pyra, Metric::Htm, Method::Indexed);
    let bandaged = gods_fixtures::bandaged_cube2();
    bench_table(c, "bandaged 2x2x2 htm hashed", &bandaged, Metric::Htm, Method::Auto);
    let bicube = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/ksolve-samples/Bicube.def");
    if bicube.exists() {
        let (p, _) = ksolve::def::load_puzzle(&bicube).unwrap();
        bench_table(c, "bicube htm hashed", &p, Metric::Htm, Method::Auto);
    }
    if std::env::var_os("KSOLVE_BENCH_LARGE").is_some_and(|v| v == "1") {
        let all = gods_fixtures::cube2_all_faces();
        bench_table(c, "2x2x2 all faces htm indexed", &all, Metric::Htm, Method::Indexed);
    }
}

criterion_group!(benches, searches);
criterion_main!(benches);
