//! `make bench`: the reference dumbbell (10 NewReno flows, 1 Gbps, 20 ms RTT, 1 BDP buffer,
//! 1500-byte packets, 20 s simulated), printed as delivered data packets per wall-second, events per
//! wall-second, events per delivered packet and peak memory.
//!
//! `delaycc-bench FILE.toml` runs any scenario and prints its summary instead.

use delaycc_sim::scenario;
use delaycc_sim::sim::Simulation;
use std::time::Instant;

fn dumbbell(flows: usize, bandwidth: &str, seconds: f64, algorithm: &str) -> String {
    // BDP of the bottleneck at 20 ms RTT, in 1500-byte packets.
    let bps: f64 = delaycc_sim::units::rate_from_str(bandwidth).expect("rate");
    let bdp = (bps * 0.020 / (1500.0 * 8.0)).round() as u64;
    let mut s = format!(
        "name = \"bench-{algorithm}-{flows}\"\nduration = {seconds}\npacket_size = 1500\nsample_interval = \"10ms\"\n\
         [[links]]\nid = \"bottleneck\"\na = \"left\"\nb = \"right\"\nbandwidth = \"{bandwidth}\"\ndelay = \"10ms\"\nbuffer = {bdp}\n"
    );
    for i in 0..flows {
        s += &format!(
            "[[flows]]\nid = \"f{i}\"\nalgorithm = \"{algorithm}\"\nsrc = \"left\"\ndst = \"right\"\n"
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

fn bench(label: &str, text: &str) {
    let sc = scenario::from_toml_str(text, label).unwrap_or_else(|e| panic!("{}", e.join("\n")));
    let t0 = Instant::now();
    let mut sim = Simulation::new(sc);
    sim.run(|_| true);
    let wall = t0.elapsed().as_secs_f64();
    let delivered: u64 = sim.flows.iter().map(|f| f.receiver.data_pkts).sum();
    println!(
        "{label:<34} {:>8.2} M delivered pkts/s  {:>8.2} M events/s  {:>5.2} events/pkt  {:>7.2} s wall  {:>11} pkts  peak RSS {:.1} MiB",
        delivered as f64 / wall / 1e6,
        sim.events_processed as f64 / wall / 1e6,
        sim.events_processed as f64 / delivered.max(1) as f64,
        wall,
        delivered,
        peak_rss_mib()
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(file) = args.first() {
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
    println!("delaycc benchmark: dumbbell, one 1 Gbps bottleneck link, 20 ms RTT, 1 BDP DropTail buffer, 1500 B packets");
    bench("newreno x10, 1 Gbps, 20 s", &dumbbell(10, "1Gbps", 20.0, "newreno"));
}
