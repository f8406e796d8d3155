//! The scan benchmark: urlint's scanner and linter against the physical floor
//! (one `memchr2` pass over the bytes) and a peer (`linkify`), in the same
//! run on the same generated text, then a linearity check over growing sizes.
//!
//! ```text
//! cargo bench --bench scan                       # defaults, about a minute
//! cargo bench --bench scan -- --size 256M --reps 5
//! cargo bench --bench scan -- --only linear --linear 1M,4M,16M,64M,256M,1G
//! ```
//!
//! Every option also reads an environment variable (see `OPTIONS`); a command
//! line value wins. Figures are the minimum of `--reps` runs, single thread.
//! See docs/benchmarks.md for what each column means and the targets.

// `cargo bench` sets cfg(test) without a test harness, so the generator's
// unit tests compile here but cannot run (`cargo test` runs them through
// the corpus example); their helpers would only warn.
#[cfg_attr(test, allow(unused_imports, dead_code))]
mod corpus;

use std::hint::black_box;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use corpus::{format_size, generate, parse_size, Kind, DEFAULT_SEED};
use urlint::{lint, scan, LintOptions, ScanOptions};

/// Options: flag, environment variable, default, meaning.
const OPTIONS: &[(&str, &str, &str, &str)] = &[
    (
        "--size",
        "URLINT_BENCH_SIZE",
        "32M",
        "bytes per corpus in the throughput table",
    ),
    (
        "--reps",
        "URLINT_BENCH_REPS",
        "3",
        "runs per figure; the minimum is kept",
    ),
    (
        "--kinds",
        "URLINT_BENCH_KINDS",
        "all",
        "corpora for the throughput table, comma-separated",
    ),
    (
        "--files",
        "URLINT_BENCH_FILES",
        "none",
        "text files to add to the throughput table, comma-separated",
    ),
    (
        "--linear",
        "URLINT_BENCH_LINEAR",
        "1M,4M,16M,64M",
        "sizes for the linearity check",
    ),
    (
        "--budget",
        "URLINT_BENCH_BUDGET",
        "60",
        "seconds a linearity row may take before larger sizes are skipped",
    ),
    ("--seed", "URLINT_BENCH_SEED", "built-in", "corpus seed"),
    (
        "--only",
        "URLINT_BENCH_ONLY",
        "both",
        "throughput, linear or both",
    ),
    (
        "--passes",
        "URLINT_BENCH_PASSES",
        "all",
        "passes to run (scan, lint, floor, linkify), e.g. one to profile",
    ),
];

/// Growth in time per MB from one size to the next (4x larger) beyond which
/// a row is flagged as non-linear: a quadratic pass grows 4x per step, while
/// falling out of a cache costs a linear one at most about 2x, once.
const NONLINEAR_STEP: f64 = 3.0;

/// Milliseconds per MB below which a pass is too fast (over 100 GB/s, i.e. a
/// stub) for its growth to mean anything.
const NOISE_MS_PER_MB: f64 = 0.01;

/// Milliseconds per MB a pass must reach (5 GB/s) before it can be flagged:
/// passes as fast as memchr are bound by memory, whose speed drops by more
/// than 3x between cache-sized and RAM-sized inputs on a busy machine.
const FLAG_MS_PER_MB: f64 = 0.2;

/// Everything the run was asked to do.
#[derive(Debug)]
struct Config {
    size: usize,
    reps: usize,
    kinds: Vec<Kind>,
    files: Vec<String>,
    linear: Vec<usize>,
    budget: Duration,
    seed: u64,
    throughput: bool,
    linearity: bool,
    /// Which of `PASSES` run; the others print `-`.
    enabled: [bool; 4],
}

/// Largest input a debug build times: unoptimised passes are ~50x slower.
const SMOKE_SIZE: usize = 1_000_000;

impl Config {
    /// Cap sizes and runs so that a debug build finishes in seconds.
    fn shrink_for_smoke_run(&mut self) {
        self.size = self.size.min(SMOKE_SIZE);
        self.linear.retain(|&size| size <= SMOKE_SIZE);
        self.files.clear();
        self.reps = 1;
    }
}

/// One competitor: a pass over the text returning how many items it found.
type Pass = fn(&str) -> usize;

/// The four passes measured on every input: scan, lint, floor, linkify.
const PASSES: [Pass; 4] = [scan_pass, lint_pass, floor_pass, linkify_pass];

/// Names of `PASSES` for `--passes`, in the same order.
const PASS_NAMES: [&str; 4] = ["scan", "lint", "floor", "linkify"];

// Each pass is `#[inline(never)]` so that a profile (perf, callgrind's
// `--toggle-collect='*scan_pass*'`) can attribute time to it by name.

/// urlint's scanner, every URL consumed.
#[inline(never)]
fn scan_pass(text: &str) -> usize {
    let options = ScanOptions::default();
    scan(text, &options).map(black_box).count()
}

/// Scan plus validation plus span mapping, as `urlint check` without output.
#[inline(never)]
fn lint_pass(text: &str) -> usize {
    let options = LintOptions::default();
    lint(text, &options).map(black_box).count()
}

/// The physical floor: one memchr2 pass for the scanner's trigger bytes.
#[inline(never)]
fn floor_pass(text: &str) -> usize {
    memchr::memchr2_iter(b':', b'<', text.as_bytes()).count()
}

/// The peer: linkify with default settings, every link consumed.
#[inline(never)]
fn linkify_pass(text: &str) -> usize {
    linkify::LinkFinder::new()
        .links(text)
        .map(black_box)
        .count()
}

/// Best time and item count of each of `PASSES` on one input.
#[derive(Debug, Clone, Copy)]
struct Figures {
    best: [Duration; 4],
    found: [usize; 4],
}

/// Time the `enabled` ones of `passes` on `text`, interleaved so machine
/// noise hits all alike. A pass that does not run keeps a zero time, which
/// `measurable` rejects, so its cells print `-`.
fn measure(text: &str, passes: &[Pass], enabled: [bool; 4], reps: usize) -> Figures {
    let mut figures = Figures {
        best: enabled.map(|on| if on { Duration::MAX } else { Duration::ZERO }),
        found: [0; 4],
    };
    for _ in 0..reps.max(1) {
        for (index, pass) in passes.iter().enumerate() {
            if !enabled[index] {
                continue;
            }
            let start = Instant::now();
            let found = black_box(pass(black_box(text)));
            figures.best[index] = figures.best[index].min(start.elapsed());
            figures.found[index] = found;
        }
    }
    figures
}

/// Throughput table columns: heading and width.
const COLUMNS: [(&str, usize); 11] = [
    ("corpus", 12),
    ("scan MB/s", 10),
    ("lint MB/s", 10),
    ("floor MB/s", 11),
    ("linkify MB/s", 13),
    ("scan/floor", 11),
    ("linkify/scan", 13),
    ("linkify/floor", 14),
    ("URLs", 9),
    ("links", 9),
    ("hits", 10),
];

/// Print one table row, the first cell left-aligned, the rest right-aligned.
fn print_row(cells: &[String]) {
    let mut line = String::new();
    for (index, (cell, (_, width))) in cells.iter().zip(COLUMNS).enumerate() {
        if index == 0 {
            line.push_str(&format!("{cell:<width$}"));
        } else {
            line.push_str(&format!(" {cell:>width$}"));
        }
    }
    println!("{line}");
}

/// Whether a pass over `bytes` did measurable work: a stub "runs" at
/// hundreds of GB/s, and its rates and ratios would be noise.
fn measurable(bytes: usize, time: Duration) -> bool {
    time.as_secs_f64() * 1e3 / (bytes as f64 / 1e6) > NOISE_MS_PER_MB
}

fn rate(bytes: usize, time: Duration) -> String {
    if !measurable(bytes, time) {
        return "-".to_owned();
    }
    format!("{:.0}", bytes as f64 / 1e6 / time.as_secs_f64())
}

fn ratio(bytes: usize, numerator: Duration, denominator: Duration) -> String {
    if !measurable(bytes, numerator) || !measurable(bytes, denominator) {
        return "-".to_owned();
    }
    format!(
        "{:.2}x",
        numerator.as_secs_f64() / denominator.as_secs_f64()
    )
}

fn throughput_table(config: &Config) {
    println!(
        "\n== Throughput: {} per corpus, min of {} runs, single thread ==",
        format_size(config.size),
        config.reps
    );
    print_row(&COLUMNS.map(|(heading, _)| heading.to_owned()));
    for &kind in &config.kinds {
        throughput_row(
            kind.name(),
            &generate(kind, config.size, config.seed),
            config,
        );
    }
    for path in &config.files {
        match std::fs::read(path) {
            // Invalid UTF-8 is replaced, as urlint's own input layer must decide
            // it somehow; the same text goes to every pass either way.
            Ok(bytes) => {
                let name = std::path::Path::new(path)
                    .file_name()
                    .map_or(path.into(), |name| name.to_string_lossy());
                throughput_row(&name, &String::from_utf8_lossy(&bytes), config);
            }
            Err(error) => println!("{path}: {error}"),
        }
    }
}

/// Measure every pass on `text` and print its row of the throughput table.
fn throughput_row(name: &str, text: &str, config: &Config) {
    let figures = measure(text, &PASSES, config.enabled, config.reps);
    let [scan, lint, floor, linkify] = figures.best;
    let [urls, _, hits, links] = figures.found;
    print_row(&[
        name.to_owned(),
        rate(text.len(), scan),
        rate(text.len(), lint),
        rate(text.len(), floor),
        rate(text.len(), linkify),
        ratio(text.len(), scan, floor),
        ratio(text.len(), linkify, scan),
        ratio(text.len(), linkify, floor),
        urls.to_string(),
        links.to_string(),
        hits.to_string(),
    ]);
    if config.enabled[0] && urls == 0 && links > 0 {
        println!("  ! scan found no URL where linkify found {links}: scanner missing or broken, ratios meaningless");
    }
}

fn linearity_table(config: &Config) {
    println!(
        "\n== Linearity: time per MB as the input grows (min of {} runs) ==",
        config.reps
    );
    println!(
        "{:<12} {:>6} {:>10} {:>10} {:>7} {:>10} {:>10} {:>7}  note",
        "corpus", "size", "scan ms", "scan ms/MB", "growth", "lint ms", "lint ms/MB", "growth"
    );
    let kinds = std::iter::once(Kind::Prose).chain(Kind::pathological());
    for kind in kinds {
        linearity_rows(config, kind);
    }
}

/// Rows for one corpus; stops early when growth or the time budget says the
/// next size would prove nothing new or take too long.
fn linearity_rows(config: &Config, kind: Kind) {
    let mut first: Option<[f64; 2]> = None;
    let mut previous: Option<[f64; 2]> = None;
    for (step, &size) in config.linear.iter().enumerate() {
        let text = generate(kind, size, config.seed);
        let figures = measure(&text, &PASSES[..2], config.enabled, config.reps);
        let [scan, lint, ..] = figures.best;
        let per_mb = [scan, lint].map(|time| time.as_secs_f64() * 1e3 / (size as f64 / 1e6));
        let base = *first.get_or_insert(per_mb);
        let growth =
            [0, 1].map(|pass| (base[pass] > NOISE_MS_PER_MB).then(|| per_mb[pass] / base[pass]));
        let nonlinear = previous.is_some_and(|previous| {
            (0..2).any(|pass| {
                per_mb[pass] > FLAG_MS_PER_MB && per_mb[pass] > NONLINEAR_STEP * previous[pass]
            })
        });
        previous = Some(per_mb);
        let projected = config
            .linear
            .get(step + 1)
            .map(|&next| (scan + lint).mul_f64(config.reps as f64 * next as f64 / size as f64));
        let over_budget = projected.is_some_and(|projected| projected > config.budget);
        let note = match (nonlinear, over_budget) {
            (true, _) => "NON-LINEAR: larger sizes skipped",
            (false, true) => "next size over --budget: skipped",
            _ => "",
        };
        let shown =
            |growth: Option<f64>| growth.map_or_else(|| "-".to_owned(), |g| format!("{g:.2}x"));
        println!(
            "{:<12} {:>6} {:>10.1} {:>10.3} {:>7} {:>10.1} {:>10.3} {:>7}  {note}",
            kind.name(),
            format_size(size),
            scan.as_secs_f64() * 1e3,
            per_mb[0],
            shown(growth[0]),
            lint.as_secs_f64() * 1e3,
            per_mb[1],
            shown(growth[1]),
        );
        if nonlinear || over_budget {
            return;
        }
    }
}

/// The value of option `flag`: command line first, then environment, then default.
fn option_value(args: &[String], flag: &str) -> Result<String, String> {
    let (_, env, default, _) = OPTIONS
        .iter()
        .find(|(known, ..)| *known == flag)
        .ok_or_else(|| format!("unknown option {flag}"))?;
    let from_args = args.iter().position(|arg| arg == flag).map(|at| {
        args.get(at + 1)
            .cloned()
            .ok_or_else(|| format!("{flag} needs a value"))
    });
    match from_args {
        Some(value) => value,
        None => Ok(std::env::var(env).unwrap_or_else(|_| (*default).to_owned())),
    }
}

/// Reject anything that is neither a known flag, its value, nor cargo's `--bench`.
fn check_arguments(args: &[String]) -> Result<(), String> {
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        if OPTIONS.iter().any(|(flag, ..)| flag == arg) {
            rest.next();
        } else if arg != "--bench" {
            return Err(format!("unexpected argument {arg:?}"));
        }
    }
    Ok(())
}

fn parse_list<T>(text: &str, parse: impl Fn(&str) -> Result<T, String>) -> Result<Vec<T>, String> {
    text.split(',')
        .map(str::trim)
        .filter(|item| !item.is_empty())
        .map(parse)
        .collect()
}

fn config(args: &[String]) -> Result<Config, String> {
    check_arguments(args)?;
    let value = |flag| option_value(args, flag);
    let kinds = match value("--kinds")?.as_str() {
        "all" => Kind::all().collect(),
        list => parse_list(list, Kind::parse)?,
    };
    let seed = match value("--seed")?.as_str() {
        "built-in" => DEFAULT_SEED,
        number => number
            .parse()
            .map_err(|_| format!("--seed {number:?}: expected a number"))?,
    };
    let only = value("--only")?;
    if !["both", "throughput", "linear"].contains(&only.as_str()) {
        return Err(format!(
            "--only {only:?}: expected throughput, linear or both"
        ));
    }
    let number = |flag| {
        value(flag).and_then(|text| {
            text.parse::<u64>()
                .map_err(|_| format!("{flag} {text:?}: expected a number"))
        })
    };
    Ok(Config {
        size: parse_size(&value("--size")?)?,
        reps: number("--reps")?.max(1) as usize,
        kinds,
        files: match value("--files")?.as_str() {
            "none" => Vec::new(),
            list => parse_list(list, |path| Ok(path.to_owned()))?,
        },
        linear: parse_list(&value("--linear")?, parse_size)?,
        budget: Duration::from_secs(number("--budget")?),
        seed,
        throughput: only != "linear",
        linearity: only != "throughput",
        enabled: enabled_passes(&value("--passes")?)?,
    })
}

/// Which passes `--passes` asks for: `all`, or a comma-separated list of names.
fn enabled_passes(list: &str) -> Result<[bool; 4], String> {
    if list == "all" {
        return Ok([true; 4]);
    }
    let mut enabled = [false; 4];
    for name in parse_list(list, |name| Ok(name.to_owned()))? {
        let index = PASS_NAMES
            .iter()
            .position(|known| *known == name)
            .ok_or_else(|| format!("--passes: unknown pass {name:?}"))?;
        enabled[index] = true;
    }
    Ok(enabled)
}

fn usage() -> String {
    let mut text = String::from("usage: cargo bench --bench scan -- [OPTION VALUE]...\n");
    for (flag, env, default, meaning) in OPTIONS {
        text.push_str(&format!(
            "  {flag:<9} {meaning} (env {env}, default {default})\n"
        ));
    }
    text
}

/// The CPU model, so a pasted table says what it was measured on.
fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find(|line| line.starts_with("model name"))
                .and_then(|line| line.split(':').nth(1))
                .map(|model| model.trim().to_owned())
        })
        .unwrap_or_else(|| "unknown CPU".to_owned())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut config = match config(&args) {
        Ok(config) => config,
        Err(message) => {
            eprintln!("scan bench: {message}\n{}", usage());
            return ExitCode::from(2);
        }
    };
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    println!(
        "urlint scan benchmark: {} ({threads} hardware threads), seed {}",
        cpu_model(),
        config.seed
    );
    println!("MB = 10^6 bytes; ratios are of times (scan/floor: lower is better; linkify/scan: higher is better)");
    if cfg!(debug_assertions) {
        config.shrink_for_smoke_run();
        println!("! debug build (e.g. `cargo test --all-targets`): a smoke run at small sizes;");
        println!("  run through `cargo bench` for meaningful figures");
    }
    if config.throughput {
        throughput_table(&config);
    }
    if config.linearity {
        linearity_table(&config);
    }
    ExitCode::SUCCESS
}
