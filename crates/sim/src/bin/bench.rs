//! `make bench`: the issue's reference dumbbell (10 NewReno flows, 1 Gbps, 20 ms RTT, 1 BDP buffer,
//! 1500-byte packets, 20 s simulated, 10 ms sampling) and its variants (1000 flows, a 10 Gbps bottleneck,
//! FAST instead of NewReno, 10x longer runs at 10 ms and 1 ms sampling), one line each: delivered data
//! packets per wall-second, events per wall-second, events per delivered packet and peak memory, and
//! delivered packets per second on the CPU with the machine's steal while it ran: on a virtual machine the
//! hypervisor gives our CPU to other guests at times, which wall time counts and on-CPU time does not.
//!
//! Each line runs in a child process of its own, so its peak RSS is its own and not the maximum of every
//! line before it. The 20 s lines run in rounds (`ROUNDS`), each round running every line once, and print
//! their fastest run; the ratios the targets are stated in are medians over rounds of the ratios within
//! a round, because on a shared virtual machine the speed drifts from minute to minute.
//!
//! ```text
//! delaycc-bench                      every line
//! delaycc-bench --seconds S          every line, S simulated seconds (10x S for the long run)
//! delaycc-bench --only NAME [--seconds S]    (NAME also fattree-k8-permutation, the fabric line)
//!                                    one line, in this process (for callgrind / perf)
//! delaycc-bench --only NAME [--flows N] [--bandwidth RATE] [--counts]
//!                                    the line with N flows or another bottleneck rate (buffer and, where
//!                                    the line sets one, initial ssthresh follow); --counts adds a line
//!                                    `counts events=E delivered=P dropped=D` (benches/scaling.py)
//! delaycc-bench FILE.toml            any scenario; prints its summary
//! delaycc-bench --digest FILE...     one hash per scenario over its summary (without wall time), series
//!                                    and event count, and the same for every bench line: optimisations
//!                                    must leave these unchanged
//! ```

use delaycc_sim::scenario;
use delaycc_sim::sim::Simulation;
use std::process::Command;
use std::time::Instant;

/// One bench line: a dumbbell and how long it runs relative to the base duration.
struct Config {
    name: &'static str,
    label: &'static str,
    flows: usize,
    bandwidth: &'static str,
    algorithm: &'static str,
    params: &'static str,
    sample_interval: &'static str,
    duration_factor: f64,
    /// Lines of the scenario's `[transport]` table (empty: the default ns2 profile).
    transport: &'static str,
    /// Give every flow an initial ssthresh of its share of the bandwidth-delay product (at least 2
    /// packets), so that slow start ends with the link full and the buffer empty instead of overflowing it.
    ssthresh_share: bool,
}

/// The reference's transport: the TCP of htsim's `TcpSrc`, so that instructions per packet compare equal
/// work (delivered packets within 0.1 % of htsim's): an initial window of one packet, NewReno as RFC 6582
/// writes it (the timer restarts on every partial ACK; after a timeout only an ACK covering everything
/// sent may start fast retransmit) and no limited transmit. ns-2's variants of these rules (the default
/// profile) deliver 7 % more packets on this dumbbell.
macro_rules! htsim_transport {
    () => {
        "initial_window = 1\nlimited_transmit = false\nnewreno_timer = \"every_partial\"\nrecover_guard = \"rfc6582\""
    };
}

const REFERENCE: &str = "newreno-10";

/// What every bench line is unless it says otherwise: the reference dumbbell (10 NewReno flows, 1 Gbps, 10 ms
/// sampling, the base duration, htsim's transport).
const REFERENCE_LINE: Config = Config {
    name: REFERENCE,
    label: "newreno x10, 1 Gbps",
    flows: 10,
    bandwidth: "1Gbps",
    algorithm: "newreno",
    params: "",
    sample_interval: "10ms",
    duration_factor: 1.0,
    transport: htsim_transport!(),
    ssthresh_share: false,
};

const CONFIGS: &[Config] = &[
    REFERENCE_LINE,
    // The reference with SACK (receiver blocks, scoreboard, ns-2's Sack1 recovery): what SACK costs per
    // packet. htsim's TCP has no SACK, so the htsim comparison uses the line above.
    Config {
        name: "newreno-10-sack",
        label: "newreno x10 with SACK, 1 Gbps",
        transport: concat!(htsim_transport!(), "\nsack = true"),
        ..REFERENCE_LINE
    },
    Config { name: "newreno-1000", label: "newreno x1000, 1 Gbps", flows: 1000, ..REFERENCE_LINE },
    // The same 1000 flows with 1 s sampling: what the engine does per packet at 1000 flows, apart from the
    // 10 ms time series of 9000 series (144 MB over 20 s) that the line above records. No target.
    Config {
        name: "newreno-1000-1s",
        label: "newreno x1000, 1 Gbps, 1 s sampling",
        flows: 1000,
        sample_interval: "1s",
        ..REFERENCE_LINE
    },
    // The default (ns-2) transport: with htsim's RFC 6582 rules these flows stall after their first timeouts
    // at 10 Gbps (2.1 M events in 20 s instead of 32 M), which measures nothing; equal work with htsim is the
    // next line's.
    Config {
        name: "newreno-10-10g",
        label: "newreno x10, 10 Gbps",
        bandwidth: "10Gbps",
        transport: "",
        ..REFERENCE_LINE
    },
    // 10 Gbps with htsim's transport and an initial ssthresh of each flow's share of the BDP (1667 packets;
    // `dumbbell_htsim -mbps 10000 -ssthresh_pkts 1667`): slow start ends with the link full, nothing is
    // dropped in 20 s, and both simulators deliver the same packets (benches/instructions.py checks).
    Config {
        name: "newreno-10-10g-ss",
        label: "newreno x10, 10 Gbps, ssthresh BDP/10",
        bandwidth: "10Gbps",
        ssthresh_share: true,
        ..REFERENCE_LINE
    },
    Config {
        name: "fast-10",
        label: "fast x10 (alpha 200), 1 Gbps",
        algorithm: "fast",
        params: "alpha = 200",
        ..REFERENCE_LINE
    },
    Config {
        name: "newreno-10-ss",
        label: "newreno x10, 1 Gbps, ssthresh BDP/10",
        ssthresh_share: true,
        ..REFERENCE_LINE
    },
    // The loss-free pair with SACK on: SACK's own cost with equal work (the reference and its SACK line
    // above recover differently, so they do not deliver the same packets), and the NewReno that carries
    // the same SACK machinery as the FAST module, which always runs Sack1-style recovery.
    Config {
        name: "newreno-10-ss-sack",
        label: "newreno x10 with SACK, 1 Gbps, ssthresh BDP/10",
        ssthresh_share: true,
        transport: concat!(htsim_transport!(), "\nsack = true"),
        ..REFERENCE_LINE
    },
    Config {
        name: "fast-10-fit",
        label: "fast x10 (alpha 50), 1 Gbps, backlog within the buffer",
        algorithm: "fast",
        params: "alpha = 50",
        ..REFERENCE_LINE
    },
    Config {
        name: "newreno-10-long",
        label: "newreno x10, 1 Gbps, 10x longer",
        duration_factor: 10.0,
        ..REFERENCE_LINE
    },
    // At 1 ms sampling even the 20 s run passes the recorder's default bound of 4000 samples per series, so
    // these two show that memory no longer grows with the duration once the bound is reached.
    Config {
        name: "newreno-10-1ms",
        label: "newreno x10, 1 Gbps, 1 ms sampling",
        sample_interval: "1ms",
        ..REFERENCE_LINE
    },
    Config {
        name: "newreno-10-1ms-long",
        label: "newreno x10, 1 Gbps, 1 ms sampling, 10x longer",
        sample_interval: "1ms",
        duration_factor: 10.0,
        ..REFERENCE_LINE
    },
];

const BASE_SECONDS: f64 = 20.0;

fn dumbbell(c: &Config, seconds: f64) -> String {
    dumbbell_with(c, c.flows, c.bandwidth, seconds)
}

/// The line's dumbbell with `flows` flows and a bottleneck of `bandwidth` (`--flows`, `--bandwidth`).
fn dumbbell_with(c: &Config, flows: usize, bandwidth: &str, seconds: f64) -> String {
    // BDP of the bottleneck at 20 ms RTT, in 1500-byte packets.
    let bps: f64 = delaycc_sim::units::rate_from_str(bandwidth).expect("rate");
    let bdp = (bps * 0.020 / (1500.0 * 8.0)).round() as u64;
    let mut s = format!(
        "name = \"bench-{}\"\nduration = {seconds}\npacket_size = 1500\nsample_interval = \"{}\"\n\
         [[links]]\nid = \"bottleneck\"\na = \"left\"\nb = \"right\"\nbandwidth = \"{}\"\ndelay = \"10ms\"\nbuffer = {bdp}\n",
        c.name, c.sample_interval, bandwidth
    );
    if !c.transport.is_empty() {
        s += &format!("[transport]\n{}\n", c.transport);
    }
    let params = if c.ssthresh_share {
        let share = (bdp as f64 / flows.max(1) as f64).round().max(2.0);
        let sep = if c.params.is_empty() { "" } else { ", " };
        format!("{}{sep}initial_ssthresh = {share}", c.params)
    } else {
        c.params.to_string()
    };
    for i in 0..flows {
        s += &format!(
            "[[flows]]\nid = \"f{i}\"\nalgorithm = \"{}\"\nsrc = \"left\"\ndst = \"right\"\nparams = {{ {params} }}\n",
            c.algorithm
        );
    }
    s
}

fn peak_rss_mib() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|k| k.parse::<f64>().ok()))
        })
        .map_or(f64::NAN, |kib| kib / 1024.0)
}

/// Nanoseconds this thread has run on a CPU (`/proc/thread-self/schedstat`). With paravirtual steal
/// accounting (this VM's kernel) time the hypervisor gave to another guest is not counted, unlike wall time.
fn thread_cpu_ns() -> Option<u64> {
    std::fs::read_to_string("/proc/thread-self/schedstat").ok()?.split_whitespace().next()?.parse().ok()
}

/// The machine's CPU time (total, stolen) in clock ticks, from `/proc/stat`.
fn machine_ticks() -> Option<(u64, u64)> {
    let text = std::fs::read_to_string("/proc/stat").ok()?;
    let ticks: Vec<u64> =
        text.lines().next()?.split_whitespace().skip(1).take(8).filter_map(|v| v.parse().ok()).collect();
    (ticks.len() == 8).then(|| (ticks.iter().sum(), ticks[7]))
}

/// The fabric line: a k = 8 fat tree (128 hosts, 80 switches, 384 links of 10 Gbps and 1 us, 100-packet
/// buffers, ECMP), host i sending to host i + 64 (mod 128), four pods away, so every flow crosses the core;
/// unlimited NewReno flows (linux profile, 1 ms minimum RTO), 1500-byte packets, 1 ms sampling.
const FABRIC: &str = "fattree-k8-permutation";

/// The fabric line's duration for a base of `base_seconds`: 1/4000 of it (5 ms for the 20 s lines), about
/// half a million delivered packets.
fn fabric_seconds(base_seconds: f64) -> f64 {
    base_seconds / 4000.0
}

fn fat_tree_k8(seconds: f64) -> String {
    let (k, half) = (8usize, 4usize);
    let mut s = format!(
        "name = \"bench-{FABRIC}\"\nduration = {seconds}\npacket_size = 1500\nsample_interval = \"1ms\"\n\
         routing = \"ecmp\"\nprofile = \"linux\"\n[transport]\nmin_rto = \"1ms\"\n"
    );
    let mut link = |a: String, b: String| {
        s += &format!(
            "[[links]]\na = \"{a}\"\nb = \"{b}\"\nbandwidth = \"10Gbps\"\ndelay = \"1us\"\nbuffer = 100\n"
        );
    };
    let mut host = 0;
    for p in 0..k {
        for i in 0..half {
            for _ in 0..half {
                link(format!("h{host}"), format!("e{p}_{i}"));
                host += 1;
            }
            for j in 0..half {
                link(format!("e{p}_{i}"), format!("a{p}_{j}"));
            }
        }
        for j in 0..half {
            for m in 0..half {
                link(format!("a{p}_{j}"), format!("c{j}_{m}"));
            }
        }
    }
    for i in 0..host {
        let dst = (i + host / 2) % host;
        s +=
            &format!("[[flows]]\nid = \"f{i}\"\nalgorithm = \"newreno\"\nsrc = \"h{i}\"\ndst = \"h{dst}\"\n");
    }
    s
}

/// Runs one configuration in this process and prints its line (the figures the parent compares are the
/// last fields, tab-separated, so the parent need not parse the human-readable part).
fn run_one(c: &Config, base_seconds: f64, flows: Option<usize>, bandwidth: Option<&str>, counts: bool) {
    let seconds = base_seconds * c.duration_factor;
    let (n, bw) = (flows.unwrap_or(c.flows), bandwidth.unwrap_or(c.bandwidth));
    let text = dumbbell_with(c, n, bw, seconds);
    if flows.is_none() && bandwidth.is_none() {
        run_text(c.label, c.name, &text, seconds, counts);
    } else {
        run_text(&format!("{} [{n} flows, {bw}]", c.label), c.name, &text, seconds, counts);
    }
}

fn run_text(label: &str, name: &str, text: &str, seconds: f64, counts: bool) {
    let sc = scenario::from_toml_str(text, name).unwrap_or_else(|e| panic!("{}", e.join("\n")));
    let (cpu0, ticks0) = (thread_cpu_ns(), machine_ticks());
    let t0 = Instant::now();
    let mut sim = Simulation::new(sc);
    sim.run(|_| true);
    let wall = t0.elapsed().as_secs_f64();
    let (cpu1, ticks1) = (thread_cpu_ns(), machine_ticks());
    let cpu = match (cpu0, cpu1) {
        (Some(a), Some(b)) if b > a => (b - a) as f64 / 1e9,
        _ => f64::NAN,
    };
    let steal = match (ticks0, ticks1) {
        (Some(a), Some(b)) if b.0 > a.0 => (b.1 - a.1) as f64 / (b.0 - a.0) as f64,
        _ => f64::NAN,
    };
    let delivered: u64 = sim.flows().iter().map(|f| f.receiver.data_pkts).sum();
    let rate = delivered as f64 / wall;
    let cpu_rate = delivered as f64 / cpu;
    println!(
        "{:<48} {:>6.2} M pkts/s {:>6.2} M events/s {:>5.2} events/pkt {:>7.2} s wall {:>11} pkts  peak RSS {:>6.1} MiB  \
         ({:.2} M pkts per on-CPU s, machine steal {:.0} %)\t{rate}\t{}\t{cpu_rate}",
        format!("{label} ({seconds} s)"),
        rate / 1e6,
        sim.events_processed() as f64 / wall / 1e6,
        sim.events_processed() as f64 / delivered.max(1) as f64,
        wall,
        delivered,
        peak_rss_mib(),
        cpu_rate / 1e6,
        steal * 100.0,
        peak_rss_mib(),
    );
    if counts {
        let c = sim.counts();
        println!("counts events={} delivered={delivered} dropped={}", sim.events_processed(), c.dropped);
    }
}

/// Rounds of the 20 s lines. Every round runs each of them once, in order, so every line is measured over
/// the same stretch of time: on these virtual machines the speed of the same binary changes by a third
/// from one minute to the next, and a line measured only in a slow minute against a reference measured in
/// a fast one gave ratios off by half.
const ROUNDS: usize = 5;

/// One run of one line, as its child process reported it.
struct Run {
    line: String,
    rate: f64,
    rss: f64,
    cpu_rate: f64,
}

fn run_line(exe: &std::path::Path, name: &str, base_seconds: f64) -> Run {
    let out = Command::new(exe)
        .args(["--only", name, "--seconds", &base_seconds.to_string()])
        .output()
        .expect("run a bench line");
    if !out.status.success() {
        eprint!("{}", String::from_utf8_lossy(&out.stderr));
        panic!("bench line {name} failed");
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let mut parts = text.lines().last().unwrap_or_default().split('\t');
    let line = parts.next().unwrap_or_default().to_string();
    let mut next = || parts.next().and_then(|x| x.parse().ok()).unwrap_or(f64::NAN);
    let (rate, rss, cpu_rate) = (next(), next(), next());
    Run { line, rate, rss, cpu_rate }
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    match xs.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => xs[n / 2],
        n => 0.5 * (xs[n / 2 - 1] + xs[n / 2]),
    }
}

/// Runs every configuration in child processes (the 20 s lines in `ROUNDS` rounds, the long ones once)
/// and prints each line's fastest run, then the figures the issue's targets are stated in. A ratio to the
/// reference is the median over rounds of the ratio within a round, whose runs are seconds apart.
fn run_all(base_seconds: f64) {
    println!(
        "delaycc benchmark: dumbbell, one bottleneck link, 20 ms RTT, 1 BDP DropTail buffer, 1500 B packets, \
         10 ms sampling unless stated, single thread; the 20 s lines in {ROUNDS} rounds"
    );
    let exe = std::env::current_exe().expect("own path");
    let mut runs: Vec<Vec<Run>> = CONFIGS.iter().map(|_| Vec::new()).collect();
    for _ in 0..ROUNDS {
        for (i, c) in CONFIGS.iter().enumerate().filter(|(_, c)| c.duration_factor == 1.0) {
            runs[i].push(run_line(&exe, c.name, base_seconds));
        }
    }
    for (i, c) in CONFIGS.iter().enumerate().filter(|(_, c)| c.duration_factor != 1.0) {
        runs[i].push(run_line(&exe, c.name, base_seconds));
    }
    for r in &runs {
        let best = r.iter().max_by(|a, b| a.rate.total_cmp(&b.rate)).expect("at least one run");
        println!("{}  best of {}", best.line, r.len());
    }
    // The fabric line: no reference ratio (another network), one run.
    println!("{}  (fabric, ECMP)", run_line(&exe, FABRIC, base_seconds).line);
    let of = |name: &str| &runs[CONFIGS.iter().position(|c| c.name == name).expect("a bench line")];
    let reference = of(REFERENCE);
    let best_rate = reference.iter().map(|r| r.rate).fold(f64::NAN, f64::max);
    let median_rate = median(reference.iter().map(|r| r.rate).collect());
    println!(
        "reference rate: {:.2} M delivered pkts/s, best of {ROUNDS} (target >= 6); median {:.2}",
        best_rate / 1e6,
        median_rate / 1e6
    );
    // On a virtual machine the hypervisor may run other guests on our CPU ("steal"): wall-clock rates then
    // measure the neighbours as much as the code. Time on the CPU, which excludes steal, does not.
    let best_cpu = reference.iter().map(|r| r.cpu_rate).fold(f64::NAN, f64::max);
    println!(
        "reference rate per on-CPU second (steal excluded): {:.2} M delivered pkts/s, best",
        best_cpu / 1e6
    );
    for (name, target) in [
        ("newreno-10-sack", "SACK's cost; at most 10 % slower"),
        ("newreno-1000", "target >= 0.8"),
        ("newreno-1000-1s", "no target: 1000 flows without the 10 ms series"),
        ("newreno-10-10g", "target >= 0.8"),
        ("newreno-10-10g-ss", "no target: htsim's transport, initial ssthresh BDP/10"),
        ("fast-10", "target >= 0.75"),
        ("newreno-10-ss", "no target: loss-free, the pair of fast-10-fit"),
        ("newreno-10-ss-sack", "no target: loss-free with SACK, weighed in instructions"),
        ("fast-10-fit", "no target: FAST's own cost, weighed in instructions by benches/instructions.py"),
    ] {
        let rounds = of(name).iter().zip(reference);
        let (wall, cpu): (Vec<f64>, Vec<f64>) =
            rounds.map(|(x, r)| (x.rate / r.rate, x.cpu_rate / r.cpu_rate)).unzip();
        println!(
            "{name:<16} rate / reference: {:.2} ({target}); per on-CPU second: {:.2}; median of {ROUNDS} rounds",
            median(wall),
            median(cpu)
        );
    }
    let rss = |name: &str| median(of(name).iter().map(|r| r.rss).collect());
    println!(
        "peak RSS, 10x longer / 20 s: {:.2} at 10 ms sampling, {:.2} at 1 ms sampling (target < 1.2)",
        rss("newreno-10-long") / rss(REFERENCE),
        rss("newreno-10-1ms-long") / rss("newreno-10-1ms")
    );
}

/// FNV-1a over bytes, folded into `h`.
fn fnv(h: &mut u64, bytes: &[u8]) {
    for b in bytes {
        *h ^= *b as u64;
        *h = h.wrapping_mul(0x0000_0100_0000_01B3);
    }
}

/// A hash of everything a run produces except its wall time (and fields added since the digest was
/// introduced, so digests stay comparable across versions).
fn digest(sc: delaycc_sim::Scenario) -> String {
    let mut r = delaycc_sim::run_scenario(sc, |_| true);
    if let Some(m) = r.summary.as_object_mut() {
        m.remove("wall_s");
        m.remove("sample_interval_s");
        // Derived from data-structure sizes, which a layout change alters without changing any result.
        m.remove("memory_estimate_bytes");
        // Added with the fabric work; derived from the flows' completion times, which the rows hold.
        m.remove("fct");
        // Added with packet traces; empty for every untraced run.
        if m.get("pcap").and_then(|v| v.as_array()).is_some_and(|a| a.is_empty()) {
            m.remove("pcap");
        }
    }
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    fnv(&mut h, r.summary.to_string().as_bytes());
    for t in &r.times {
        fnv(&mut h, &t.to_bits().to_le_bytes());
    }
    for (i, s) in r.series.iter().enumerate() {
        fnv(&mut h, s.id.as_bytes());
        fnv(&mut h, s.metric.as_bytes());
        for v in r.values.series(i) {
            fnv(&mut h, &v.to_bits().to_le_bytes());
        }
    }
    format!("{h:016x} events {}", r.events)
}

fn print_digests(files: &[String], seconds: f64) {
    for file in files {
        let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{file}: {e}"));
        let sc = scenario::from_toml_str(&text, file).unwrap_or_else(|e| panic!("{}", e.join("\n")));
        println!("{file}: {}", digest(sc));
    }
    for c in CONFIGS.iter().filter(|c| c.duration_factor == 1.0) {
        let sc = scenario::from_toml_str(&dumbbell(c, seconds), c.name).expect("valid");
        println!("bench {} ({seconds} s): {}", c.name, digest(sc));
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |name: &str| args.iter().position(|a| a == name).and_then(|i| args.get(i + 1));
    let seconds: f64 =
        flag("--seconds").map_or(BASE_SECONDS, |s| s.parse().expect("--seconds takes a number"));
    if flag("--only").is_some_and(|n| n == FABRIC) {
        let s = fabric_seconds(seconds);
        run_text(
            "fat tree k=8, 128 newreno, 10 Gbps, ECMP",
            FABRIC,
            &fat_tree_k8(s),
            s,
            args.iter().any(|a| a == "--counts"),
        );
        return;
    }
    if let Some(name) = flag("--only") {
        let c = CONFIGS.iter().find(|c| c.name == name).unwrap_or_else(|| {
            let names: Vec<_> = CONFIGS.iter().map(|c| c.name).collect();
            eprintln!("unknown bench line {name}; one of {}", names.join(", "));
            std::process::exit(2)
        });
        let flows = flag("--flows").map(|n| n.parse().expect("--flows takes a count"));
        let bandwidth = flag("--bandwidth").map(String::as_str);
        run_one(c, seconds, flows, bandwidth, args.iter().any(|a| a == "--counts"));
        return;
    }
    if args.first().is_some_and(|a| a == "--digest") {
        let files: Vec<String> = args[1..].iter().take_while(|a| !a.starts_with("--")).cloned().collect();
        print_digests(&files, seconds);
        return;
    }
    if let Some(file) = args.first().filter(|a| !a.starts_with("--")) {
        let text = std::fs::read_to_string(file).unwrap_or_else(|e| {
            eprintln!("{file}: {e}");
            std::process::exit(2)
        });
        let sc = scenario::from_toml_str(&text, file).unwrap_or_else(|errs| {
            for e in errs {
                eprintln!("{e}");
            }
            std::process::exit(2)
        });
        let r = delaycc_sim::run_scenario(sc, |_| true);
        println!("{}", serde_json::to_string_pretty(&r.summary).unwrap_or_default());
        return;
    }
    run_all(seconds);
}
