//! Packet traces (`trace = "pcap"`): the files a run writes, read back with a small pcap reader. Every
//! record is in time order; a flow's file holds exactly the data packets and retransmissions its sender
//! counted; a link's file every packet the link sent; the same run gives the same bytes; a run stopped
//! early keeps what it wrote; tracing does not change the run; a directory that cannot be written fails
//! the run with one line naming the file.

use delaycc_sim::measure::pcap::PcapOptions;
use delaycc_sim::{run_scenario, run_scenario_with, scenario, RunResult};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Two flows (SACK and not) and a CBR source over a traced bottleneck with deterministic drops; both
/// flows traced. Everything stops at 1.5 s, so the network is empty when the run ends at 2 s.
const SCENARIO: &str = include_str!("../../../tests/scenarios/pcap.toml");

fn tmp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("delaycc-pcap-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn run_into(dir: &Path, progress: impl FnMut(u64) -> bool) -> RunResult {
    run_text(SCENARIO, dir, progress)
}

fn run_text(text: &str, dir: &Path, progress: impl FnMut(u64) -> bool) -> RunResult {
    let sc = scenario::from_toml_str(text, "pcap.toml").expect("valid");
    let opts = PcapOptions { dir: dir.to_path_buf(), all_flows: false };
    run_scenario_with(sc, Some(&opts), progress).expect("traces written")
}

/// One record: time stamp (ns), captured bytes, original length.
struct Record {
    t: u64,
    data: Vec<u8>,
    orig: u32,
}

fn read_pcap(path: &Path) -> Vec<Record> {
    let b = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(&b[..4], &0xa1b2_3c4du32.to_le_bytes(), "nanosecond magic");
    assert_eq!(u32::from_le_bytes(b[20..24].try_into().unwrap()), 1, "Ethernet");
    let mut out = Vec::new();
    let mut i = 24;
    while i < b.len() {
        let w = |k: usize| u32::from_le_bytes(b[i + k..i + k + 4].try_into().unwrap());
        let (sec, ns, incl, orig) = (w(0), w(4), w(8) as usize, w(12));
        assert!(ns < 1_000_000_000);
        out.push(Record {
            t: sec as u64 * 1_000_000_000 + ns as u64,
            data: b[i + 16..i + 16 + incl].to_vec(),
            orig,
        });
        i += 16 + incl;
    }
    assert_eq!(i, b.len(), "no partial record");
    out
}

fn be16(d: &[u8], at: usize) -> u32 {
    u16::from_be_bytes([d[at], d[at + 1]]) as u32
}

fn be32(d: &[u8], at: usize) -> u32 {
    u32::from_be_bytes(d[at..at + 4].try_into().unwrap())
}

/// TCP payload bytes of a frame (from the IPv4 total length), or None for UDP.
fn tcp_payload(r: &Record) -> Option<u32> {
    let d = &r.data;
    (d[23] == 6).then(|| be16(d, 16) - 20 - (d[14 + 20 + 12] >> 4) as u32 * 4)
}

fn rows(r: &RunResult) -> &Vec<Value> {
    r.summary["pcap"].as_array().expect("pcap rows")
}

fn flow<'a>(r: &'a RunResult, id: &str) -> &'a Value {
    r.summary["flows"].as_array().unwrap().iter().find(|f| f["id"] == id).unwrap()
}

#[test]
fn traces_hold_what_the_run_counted() {
    let dir = tmp_dir("counts");
    let r = run_into(&dir, |_| true);
    let names: Vec<&str> = rows(&r).iter().map(|x| x["file"].as_str().unwrap()).collect();
    assert_eq!(names, ["sack.pcap", "plain.pcap", "bottleneck-r-d.pcap", "bottleneck-d-r.pcap"]);
    for row in rows(&r) {
        let recs = read_pcap(&dir.join(row["file"].as_str().unwrap()));
        assert_eq!(recs.len() as u64, row["packets"].as_u64().unwrap());
        assert!(recs.windows(2).all(|w| w[0].t <= w[1].t), "{row}: records in time order");
        assert_eq!(row["complete"], true);
    }
    for id in ["sack", "plain"] {
        let f = flow(&r, id);
        let recs = read_pcap(&dir.join(format!("{id}.pcap")));
        // The sender's data: the first SYN, then segments of 960 bytes.
        assert_eq!(recs[0].data[14 + 20 + 13], 0x02, "{id}: SYN first");
        let sent: Vec<&Record> = recs.iter().filter(|r| tcp_payload(r).is_some_and(|n| n > 0)).collect();
        assert_eq!(sent.len() as u64, f["sent_pkts"].as_u64().unwrap(), "{id}: data packets");
        assert!(sent.iter().all(|r| tcp_payload(r) == Some(960) && r.orig == 1014));
        // At the sender nothing is reordered: a segment below the highest sent is a retransmission.
        let mut next = 0u32;
        let mut retransmits = 0;
        for s in &sent {
            let seq = be32(&s.data, 38);
            if seq < next {
                retransmits += 1;
            }
            next = next.max(seq + 960);
        }
        assert_eq!(retransmits, f["retransmits"].as_u64().unwrap(), "{id}: retransmissions");
        assert!(retransmits > 0);
    }
    // The SACK flow's ACKs carry SACK options (kind 5); the other's never do.
    let has_sack = |id: &str| {
        read_pcap(&dir.join(format!("{id}.pcap"))).iter().any(|r| {
            let opts = &r.data[14 + 20 + 20..];
            r.data[14 + 20 + 13] == 0x10 && opts.len() >= 4 && opts[2] == 5
        })
    };
    assert!(has_sack("sack") && !has_sack("plain"));
    // The link's files: every packet it sent, here all of them 1000 bytes a->b (data and CBR).
    let links = r.summary["links"].as_array().unwrap();
    for (dir_name, file) in [("a->b", "bottleneck-r-d.pcap"), ("b->a", "bottleneck-d-r.pcap")] {
        let l = links.iter().find(|l| l["id"] == "bottleneck" && l["direction"] == dir_name).unwrap();
        let recs = read_pcap(&dir.join(file));
        assert_eq!(recs.len() as u64, l["pkts_sent"].as_u64().unwrap(), "{file}");
        if dir_name == "a->b" {
            let syn = |r: &Record| tcp_payload(r).is_some() && r.data[14 + 20 + 13] & 0x02 != 0;
            assert!(recs.iter().all(|r| syn(r) || be16(&r.data, 16) == 1000));
            let udp = recs.iter().filter(|r| tcp_payload(r).is_none()).count() as u64;
            assert_eq!(udp, r.summary["traffic"][0]["sent_pkts"].as_u64().unwrap());
        }
    }
    let leftovers: Vec<_> = std::fs::read_dir(&dir).unwrap().filter_map(|e| e.ok()).collect();
    assert_eq!(leftovers.len(), 4, "no temporary files");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn same_run_same_bytes_and_tracing_changes_nothing() {
    let (a, b) = (tmp_dir("det-a"), tmp_dir("det-b"));
    let ra = run_into(&a, |_| true);
    let rb = run_into(&b, |_| true);
    assert_eq!(rows(&ra), rows(&rb));
    for row in rows(&ra) {
        let name = row["file"].as_str().unwrap();
        assert_eq!(std::fs::read(a.join(name)).unwrap(), std::fs::read(b.join(name)).unwrap(), "{name}");
    }
    // The same scenario without a trace directory: the same run.
    let plain = run_scenario(scenario::from_toml_str(SCENARIO, "pcap.toml").unwrap(), |_| true);
    let strip = |s: &Value| {
        let mut s = s.clone();
        s.as_object_mut().unwrap().remove("wall_s");
        s.as_object_mut().unwrap().remove("pcap");
        s.as_object_mut().unwrap().remove("memory_estimate_bytes");
        s
    };
    assert_eq!(strip(&ra.summary), strip(&plain.summary));
    assert_eq!(plain.summary["pcap"], Value::Array(vec![]));
    assert_eq!(ra.events, plain.events);
    for d in [a, b] {
        std::fs::remove_dir_all(&d).unwrap();
    }
}

#[test]
fn a_run_stopped_early_keeps_its_traces() {
    let dir = tmp_dir("partial");
    // `progress` is called every 16 384 events: the run (made longer to have that many) stops at the
    // first call.
    let long = SCENARIO.replace("duration = 2", "duration = 20").replace("\"1.5s\"", "\"19s\"");
    let r = run_text(&long, &dir, |_| false);
    assert_eq!(r.summary["partial"], true);
    let end = (r.summary["simulated_s"].as_f64().unwrap() * 1e9) as u64;
    for row in rows(&r) {
        assert_eq!(row["complete"], false);
        let recs = read_pcap(&dir.join(row["file"].as_str().unwrap()));
        assert_eq!(recs.len() as u64, row["packets"].as_u64().unwrap());
        assert!(!recs.is_empty() && recs.iter().all(|x| x.t <= end));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn every_flow_with_all_flows_and_a_bad_directory_fails_in_one_line() {
    let dir = tmp_dir("all");
    let text = SCENARIO.replace("trace = \"pcap\"", "trace = \"none\"");
    let sc = scenario::from_toml_str(&text, "pcap.toml").unwrap();
    let r = run_scenario_with(sc.clone(), Some(&PcapOptions { dir: dir.clone(), all_flows: true }), |_| true)
        .expect("written");
    let names: Vec<&str> = rows(&r).iter().map(|x| x["file"].as_str().unwrap()).collect();
    assert_eq!(names, ["sack.pcap", "plain.pcap"]);
    // No trace asked for: no directory made.
    let none = tmp_dir("none");
    run_scenario_with(sc.clone(), Some(&PcapOptions { dir: none.clone(), all_flows: false }), |_| true)
        .unwrap();
    assert!(!none.exists());
    // A file where the directory should be.
    let blocked = dir.join("sack.pcap").join("sub");
    let err = run_scenario_with(sc, Some(&PcapOptions { dir: blocked, all_flows: true }), |_| true)
        .err()
        .expect("refused");
    assert!(err.contains("sack.pcap") && !err.contains('\n'), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
