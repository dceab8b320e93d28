//! Pacing (issue 9 d). A sender on a scripted path, whose pacer wake-ups are honoured as the simulation's
//! Pace events are, never lets two data packets leave closer than size/rate; an unpaced sender does (so the
//! check can fail). In the network, a paced FAST flow keeps its throughput and its queue: FAST's queue is
//! alpha packets per flow by design, and pacing removes bursts at the sender, not that standing queue.

mod common;
use common::*;
use delaycc_sim::cc::{algorithm, FlowContext, ParamValue};
use delaycc_sim::model::TransportConfig;
use delaycc_sim::sim::summary_json;
use delaycc_sim::time::Time;
use delaycc_sim::transport::{AckInput, Sender};
use delaycc_sim::Outcome;
use std::collections::VecDeque;

const PACKET_BYTES: u32 = 1000;

/// Departure times of the data packets of one sender over `duration`, each with the pacing rate the
/// algorithm gave right after it (bits/s). The path: a FIFO bottleneck serving one packet per `service`,
/// then `rtt` of propagation, one ACK per packet, nothing lost.
fn departures(alg: &str, params: &[(&'static str, ParamValue)], paced: bool) -> Vec<(Time, Option<f64>)> {
    let (service, rtt, duration): (Time, Time, Time) = (800_000, 40_000_000, 5_000_000_000);
    let a = algorithm(alg).expect("registered");
    let mut p = a.defaults();
    for (k, v) in params {
        p.set(k, v.clone());
    }
    let ctx = FlowContext { packet_bytes: PACKET_BYTES, initial_window: 10.0, ..FlowContext::new(10.0) };
    let mut s = Sender::new((a.build)(&p, &ctx), &TransportConfig::linux(), None);
    if paced {
        s.enable_pacing(PACKET_BYTES);
    }
    let mut out = Vec::new();
    let mut acks: VecDeque<(Time, u64, Time, u32)> = VecDeque::new();
    let mut last_departure = 0;
    let mut now = 0;
    s.start(0);
    loop {
        for tx in s.txq.drain(..) {
            out.push((now, s.cc.pacing_rate()));
            let leaves = last_departure.max(now) + service;
            last_departure = leaves;
            acks.push_back((leaves + rtt, tx.seq + 1, now, tx.inflight_at_send));
        }
        let wake = s.pacer.as_ref().and_then(|p| p.wakeup);
        let next_ack = acks.front().map(|a| a.0);
        now = match (next_ack, wake) {
            (Some(a), Some(w)) => a.min(w),
            (Some(a), None) => a,
            (None, Some(w)) => w,
            (None, None) => break,
        };
        if now > duration {
            break;
        }
        if next_ack == Some(now) {
            let (_, ack, sent, inflight) = acks.pop_front().expect("an ACK is due");
            let input = AckInput {
                ack,
                echo_tx_time: sent,
                echo_inflight: inflight,
                echo_retransmit: false,
                rcv_arrival: 0,
                rcv_leave: 0,
            };
            s.on_ack(now, &input, &[]);
        } else {
            s.try_send(now);
        }
    }
    out
}

/// Pairs of consecutive departures closer than size/rate (the rate in force after the first of them).
fn too_close(d: &[(Time, Option<f64>)]) -> usize {
    d.windows(2)
        .filter(|w| match w[0].1 {
            Some(rate) => ((w[1].0 - w[0].0) as f64) < PACKET_BYTES as f64 * 8.0 / rate * 1e9 - 1.0,
            None => false,
        })
        .count()
}

fn back_to_back(d: &[(Time, Option<f64>)]) -> usize {
    d.windows(2).filter(|w| w[1].0 == w[0].0).count()
}

#[test]
fn paced_packets_leave_no_closer_than_size_over_rate() {
    let bbr = departures("bbr", &[], true);
    let fast =
        departures("fast", &[("alpha", ParamValue::Num(20.0)), ("pacing", ParamValue::Bool(true))], true);
    let unpaced = departures("fast", &[("alpha", ParamValue::Num(20.0))], false);
    println!(
        "packets in 5 s: BBR {}, paced FAST {}, FAST {}; back to back: {}, {}, {}",
        bbr.len(),
        fast.len(),
        unpaced.len(),
        back_to_back(&bbr),
        back_to_back(&fast),
        back_to_back(&unpaced)
    );
    // All three fill the 10 Mb/s bottleneck for most of the 5 s.
    for d in [&bbr, &fast, &unpaced] {
        assert!(d.len() > 5000, "{}", d.len());
    }
    assert_eq!(too_close(&bbr), 0);
    assert_eq!(too_close(&fast), 0);
    // BBR paces from its first packet; FAST from its first RTT sample (the initial window leaves at once).
    assert_eq!(back_to_back(&bbr), 0);
    assert!(back_to_back(&fast) < 10, "{}", back_to_back(&fast));
    // Without pacing, ACK-clocked FAST sends two packets at once on each ACK of its start-up growth
    // (besides the initial window).
    assert!(back_to_back(&unpaced) > 50, "{}", back_to_back(&unpaced));
    // Turning the transport's pacing off gives BBR its bursts back.
    let bbr_unpaced = back_to_back(&departures("bbr", &[], false));
    println!("unpaced BBR: {bbr_unpaced} back to back");
    assert!(bbr_unpaced > 50, "{bbr_unpaced}");
}

#[test]
fn paced_fast_keeps_its_throughput_and_its_queue() {
    // The round cadence with start-up growth only once: at the module's cadence the per-ACK growth
    // returns whenever a queue drains, and its bursts (paced at twice the rate) set the peak, not pacing.
    let round = ", cadence = \"round\", min_update_interval = 0, mi_reentry = false, cap_2w = true";
    for (extra, label) in [
        (round.to_string(), "increases spread over ACKs"),
        (format!("{round}, spread_increase = false"), "increases at once"),
    ] {
        let mut rows = Vec::new();
        for pacing in [false, true] {
            let sim = run(&dumbbell(
                "fast",
                2,
                "10Mbps",
                "18ms",
                1000,
                30.0,
                &[0.0, 10.0],
                &format!("alpha = 50, pacing = {pacing}{extra}"),
            ));
            let s = summary_json(&sim, Outcome::Completed, 0.0);
            let bn = s["links"]
                .as_array()
                .and_then(|l| l.iter().find(|l| l["id"] == "bn" && l["direction"] == "a->b"))
                .expect("bottleneck")
                .clone();
            let thr: f64 = (0..2).map(|i| s["flows"][i]["throughput_bps"].as_f64().unwrap_or(0.0)).sum();
            rows.push((
                bn["max_queue_pkts"].as_f64().unwrap_or(f64::NAN),
                bn["mean_queue_pkts"].as_f64().unwrap_or(f64::NAN),
                thr,
            ));
            assert_conserved(&sim);
        }
        let [(peak, mean_q, thr), (peak_p, mean_p, thr_p)] = rows[..] else { unreachable!() };
        println!(
            "FAST x2, alpha 50, {label}: unpaced peak {peak} mean {mean_q:.1} pkts, {:.2} Mb/s summed; paced peak \
             {peak_p} mean {mean_p:.1} pkts, {:.2} Mb/s",
            thr / 1e6,
            thr_p / 1e6
        );
        assert!((thr_p / thr - 1.0).abs() < 0.02, "pacing keeps the throughput");
        assert!(peak_p <= peak + 2.0, "pacing does not raise the peak queue");
        // The standing queue is alpha per flow, paced or not.
        assert!((mean_p - mean_q).abs() < 3.0 && (mean_p - 100.0).abs() < 5.0, "{mean_p} vs {mean_q}");
    }
}
