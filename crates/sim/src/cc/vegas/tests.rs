use super::ns2::c_int;
use super::*;
use crate::cc::registry::algorithm;
use crate::cc::scripted::ScriptedPath;
use crate::cc::ParamValue;
use crate::cc::{AckEvent, LossEvent};
use crate::time::Time;

const MS: Time = 1_000_000;
const SEC: Time = 1_000_000_000;

fn params(flavour: &str, extra: &[(&'static str, ParamValue)]) -> Params {
    let mut p = algorithm("vegas").expect("registered").defaults();
    p.set("flavour", ParamValue::Str(flavour.into()));
    resolve_flavour_defaults(&mut p, &|n| extra.iter().any(|(k, _)| *k == n));
    for (k, v) in extra {
        p.set(k, v.clone());
    }
    p
}

fn ns2(extra: &[(&'static str, ParamValue)]) -> Ns2Vegas {
    Ns2Vegas::new(&params("ns2", extra), &FlowContext::new(2.0))
}

fn linux(extra: &[(&'static str, ParamValue)]) -> LinuxVegas {
    LinuxVegas::new(&params("linux", extra), &FlowContext::new(2.0))
}

fn ack(now: Time, snd_una: u64, inflight: u64) -> AckEvent<'static> {
    AckEvent {
        now,
        rtt: None,
        acked: 1,
        inflight_at_send: 1,
        inflight,
        in_recovery: false,
        snd_una,
        rcv_arrival: 0,
        rcv_leave: 0,
        base_rtt: None,
        rate: None,
    }
}

fn sampled(now: Time, snd_una: u64, inflight: u64, rtt: Time) -> AckEvent<'static> {
    AckEvent { rtt: Some(rtt), ..ack(now, snd_una, inflight) }
}

#[test]
fn linux_flavour_takes_linux_defaults_unless_set() {
    let p = params("linux", &[]);
    assert_eq!((p.num("alpha"), p.num("beta"), p.num("gamma")), (2.0, 4.0, 1.0));
    assert_eq!((p.choice("rtt_statistic"), p.num("loss_reduction")), ("min", 0.5));
    let p = params("linux", &[("alpha", ParamValue::Num(3.0))]);
    assert_eq!((p.num("alpha"), p.num("beta")), (3.0, 4.0));
    let p = params("ns2", &[]);
    assert_eq!((p.num("alpha"), p.num("beta"), p.num("gamma")), (1.0, 3.0, 1.0));
    assert_eq!((p.choice("rtt_statistic"), p.num("loss_reduction")), ("mean", 0.75));
    assert!(matches!(flavour_default("linux", "beta"), Some(ParamDefault::Num(b)) if b == 4.0));
}

/// Three samples of 10, 20 and 30 ms fall in one round; the ACK that ends it (90 ms) counts towards the
/// next round, because ns-2 adds an ACK's sample after the once-per-round section (lines 209-332).
fn round_of_three(extra: &[(&'static str, ParamValue)]) -> Ns2Vegas {
    let mut v = ns2(extra);
    v.on_send(0, 0, false, 1);
    v.on_ack(&ack(10 * MS, 1, 0)); // the first ACK ends round 0; packet 0 left at vegastime 0: no sample
    assert_eq!((v.v_cnt_rtt, v.v_begseq, v.v_base_rtt), (0, 1, 0.010));
    for seq in 1..=3 {
        v.on_send(10 * MS, seq, false, seq);
    }
    v.on_ack(&ack(20 * MS, 2, 2)); // packet 1 (10 ms) ends round 1: its sample opens round 2
    assert_eq!((v.v_cnt_rtt, v.v_begseq), (1, 4));
    assert_eq!(v.cwnd, 2.0 + 1.0, "delay_growth_ set windowInit_, then the slow-start increment");
    v.on_send(20 * MS, 4, false, 3);
    v.on_ack(&ack(30 * MS, 3, 2)); // packet 2: 20 ms
    v.on_ack(&ack(40 * MS, 4, 1)); // packet 3: 30 ms
    v.on_ack(&ack(110 * MS, 5, 0)); // packet 4 (90 ms) ends round 2
    v
}

#[test]
fn ns2_round_rtt_is_the_mean_of_the_rounds_samples() {
    let v = round_of_three(&[]);
    assert!((v.round_rtt - 0.020).abs() < 1e-12, "{}", v.round_rtt);
    assert_eq!(v.v_cnt_rtt, 1, "packet 4's sample waits for the next round");
    assert!((v.v_sum_rtt - 0.090).abs() < 1e-12);
    // Only one packet (4) left during round 2, so its mean RTT became baseRTT (line 229: rttLen <= 1).
    assert_eq!(v.v_base_rtt, 0.020);
    // The override: the round's minimum.
    let v = round_of_three(&[("rtt_statistic", ParamValue::Str("min".into()))]);
    assert!((v.round_rtt - 0.010).abs() < 1e-12, "{}", v.round_rtt);
}

/// A flow in congestion avoidance (cwnd `cwnd`, ssthresh 2, baseRTT 100 ms) at the ACK that ends a
/// round in which `rtt_len` (>= 10) packets were sent, with t_seqno_ − last_ack_ = 10 and a mean RTT
/// that makes (expect − actual)·baseRTT = 10 − rtt_len·baseRTT/RTT = `diff`. Returns the controller.
fn ca_round_len(diff: f64, cwnd: f64, rtt_len: i64) -> Ns2Vegas {
    let mut v = ns2(&[]);
    v.first_recv = Some(0.0);
    v.v_base_rtt = 0.1;
    v.cwnd = cwnd;
    v.ssthresh = 2.0;
    v.last_ack = 99;
    v.v_begseq = 110 - rtt_len;
    let rtt = 0.1 * rtt_len as f64 / (10.0 - diff);
    v.v_sum_rtt = 2.0 * rtt;
    v.v_cnt_rtt = 2;
    // snd_una 101 (seqno 100 >= v_begseq_), 9 in flight: t_seqno_ 110, t_seqno_ − last_ack_ = 10.
    v.on_ack(&ack(SEC, 101, 9));
    v
}

/// (delta, cwnd, v_incr) after `ca_round_len` with 10 packets sent in the round.
fn ca_round(diff: f64, cwnd: f64) -> (i64, f64, f64) {
    let v = ca_round_len(diff, cwnd, 10);
    (v.delta, v.cwnd, v.v_incr)
}

#[test]
fn ns2_delta_is_rounded_to_an_integer_and_compared_with_alpha_and_beta() {
    // delta = int(diff + 0.5) (line 239).
    for (diff, delta) in [(0.0, 0), (0.4, 0), (0.6, 1), (1.4, 1), (3.4, 3), (3.6, 4)] {
        assert_eq!(ca_round(diff, 10.0).0, delta, "diff {diff}");
    }
    // Negative values truncate toward zero, as C's int(): −0.9 -> 0, −1.1 -> −1 (12 packets sent in
    // the round, 10 outstanding now).
    assert_eq!(ca_round_len(-1.4, 10.0, 12).delta, 0);
    assert_eq!(ca_round_len(-1.6, 10.0, 12).delta, -1);
    // A round mean below baseRTT becomes baseRTT before the rates are taken (line 229).
    let v = ca_round_len(-1.6, 10.0, 10);
    assert_eq!(v.delta, 0);
    assert!((v.v_base_rtt - 0.1 / 1.16).abs() < 1e-12, "{}", v.v_base_rtt);
    // delta 0 < alpha: v_incr_ = 1/cwnd, applied on this ACK (cwnd − (t_seqno_ − last_ack_) = 0 <= 2).
    let (_, cwnd, incr) = ca_round(0.4, 10.0);
    assert_eq!((cwnd, incr), (10.1, 0.1));
    // alpha <= delta <= beta: hold.
    for diff in [0.6, 2.0, 3.4] {
        assert_eq!(ca_round(diff, 10.0), (c_int(diff + 0.5), 10.0, 0.0), "diff {diff}");
    }
    // delta > beta: one packet off at once, no increment in the next round.
    assert_eq!(ca_round(3.6, 10.0), (4, 9.0, 0.0));
    // ... but never below 2.
    assert_eq!(ca_round(3.6, 2.5).1, 2.0);
}

#[test]
fn ns2_slow_start_grows_every_other_round() {
    // A path with no queue (1 µs per packet): slow start never meets gamma until the window is large.
    let mut path = ScriptedPath::new(ns2(&[]), 100 * MS, MS / 1000);
    let mut rounds: Vec<(bool, f64)> = Vec::new();
    let mut beg = path.cc.v_begseq;
    while path.cc.ssthresh.is_infinite() && path.now < 10 * SEC {
        path.step();
        if path.cc.v_begseq != beg {
            beg = path.cc.v_begseq;
            rounds.push((path.cc.v_inc_flag, path.cc.cwnd));
        }
    }
    let cwnds: Vec<f64> = rounds.iter().map(|r| r.1).collect();
    // cwnd_ 1 for the first round (syn_ and delay_growth_), windowInit_ 2 on the second ACK plus one.
    assert_eq!(cwnds[..9], [1.0, 3.0, 3.0, 4.0, 6.0, 7.0, 12.0, 13.0, 24.0]);
    // The last round is the exit (delta > gamma at 1536 packets): 7/8 of the window.
    let (&(_, exit), rounds) = rounds.split_last().expect("rounds");
    assert_eq!(exit, rounds[rounds.len() - 1].1 * 7.0 / 8.0);
    for w in rounds.windows(2).skip(5) {
        let ((_, before), (grows_next, after)) = (w[0], w[1]);
        if grows_next {
            // A round without growth: only the +1 of the ACK that opens the next round.
            assert_eq!(after, before + 1.0, "{cwnds:?}");
        } else {
            // A round with growth: one packet per ACK, the window nearly doubles (2w − 2 on this path).
            assert!(after >= 2.0 * before - 2.0 && after <= 2.0 * before, "{cwnds:?}");
        }
    }
    assert!(rounds.len() > 20, "slow start lasted {} rounds", rounds.len());
}

/// A flow in slow start (cwnd 16) at the ACK that ends a round with the given delta (as in
/// `ca_round`); `grows` says whether that round opens a growth round.
fn ss_round(diff: f64, grows: bool) -> Ns2Vegas {
    let mut v = ns2(&[]);
    v.first_recv = Some(0.0);
    v.v_base_rtt = 0.1;
    v.cwnd = 16.0;
    v.last_ack = 99;
    v.v_begseq = 100;
    v.v_inc_flag = !grows;
    v.v_sum_rtt = 0.1 * 10.0 / (10.0 - diff);
    v.v_cnt_rtt = 1;
    v.on_ack(&ack(SEC, 101, 9));
    v
}

#[test]
fn ns2_slow_start_ends_when_delta_exceeds_gamma_in_a_growth_round() {
    // delta 2 > gamma: ssthresh_ = 2, cwnd_ −= cwnd_/8, no increment.
    let v = ss_round(2.0, true);
    assert_eq!((v.delta, v.ssthresh, v.cwnd, v.v_incr), (2, 2.0, 14.0, 0.0));
    // delta 1 = gamma: keep growing (v_incr_ 1, and the gate lets this ACK add one: 16 − 10 > 2 does
    // not, so cwnd stays).
    let v = ss_round(1.0, true);
    assert_eq!((v.delta, v.ssthresh, v.v_incr), (1, f64::INFINITY, 1.0));
    assert_eq!(v.cwnd, 16.0, "cwnd − (t_seqno_ − last_ack_) = 6 > 2: no increment");
    // Rounds without growth never test gamma.
    let v = ss_round(5.0, false);
    assert_eq!((v.delta, v.ssthresh, v.cwnd, v.v_incr), (5, f64::INFINITY, 16.0, 0.0));
}

#[test]
fn ns2_increment_only_while_the_window_is_used_and_below_ssthresh() {
    // Mid-round ACKs (v_begseq_ ahead) with v_incr_ = 1: cwnd 10.
    let mid_round = |cwnd: f64, ssthresh: f64, incr: f64, inflight: u64| {
        let mut v = ns2(&[]);
        v.first_recv = Some(0.0);
        v.cwnd = cwnd;
        v.ssthresh = ssthresh;
        v.v_incr = incr;
        v.last_ack = 99;
        v.v_begseq = 1000;
        v.on_ack(&ack(SEC, 101, inflight));
        (v.cwnd, v.v_incr)
    };
    // t_seqno_ − last_ack_ = inflight + 1.
    assert_eq!(mid_round(10.0, f64::INFINITY, 1.0, 6), (10.0, 1.0), "10 − 7 = 3 > 2");
    assert_eq!(mid_round(10.0, f64::INFINITY, 1.0, 7), (11.0, 1.0), "10 − 8 = 2");
    // v_incr_ == 1 at ssthresh_: cleared (line 284).
    assert_eq!(mid_round(10.0, 10.0, 1.0, 9), (10.0, 0.0));
    // A congestion-avoidance increment is not cleared.
    assert_eq!(mid_round(10.0, 2.0, 0.1, 9), (10.1, 0.1));
}

/// A flow at cwnd `cwnd` whose packet 100 (snd_una) left once at vegastime 1 s (or `transmits` times)
/// gets `dupacks` duplicate ACKs; the transport enters recovery at the third.
fn after_dupacks(cwnd: f64, transmits: u32, dupacks: u32, t_cwnd_changed: f64) -> Ns2Vegas {
    let mut v = ns2(&[]);
    v.first_recv = Some(0.0);
    v.cwnd = cwnd;
    v.ssthresh = 2.0;
    v.last_ack = 99;
    v.sends_base = 100;
    v.v_begseq = 1000;
    v.t_cwnd_changed = t_cwnd_changed;
    for _ in 0..transmits {
        v.on_send(SEC, 100, transmits > 1, 10);
    }
    for k in 1..=dupacks {
        v.on_dupack(2 * SEC);
        if k == 3 {
            v.on_loss(&LossEvent { now: 2 * SEC, inflight: 10, lost_was_retransmit: false });
            v.on_send(2 * SEC, 100, true, 10);
        }
    }
    v
}

#[test]
fn ns2_fast_retransmit_keeps_three_quarters_of_the_integer_window() {
    // win = int(10.9) = 10, win − (win >> 2) = 8; cwnd_ = 8 + 3 duplicates, the transport adds those.
    let v = after_dupacks(10.9, 1, 3, 0.0);
    assert_eq!((v.v_newcwnd, v.cwnd, v.window()), (8.0, 11.0, 8.0));
    // Two more duplicates: ns-2 and the transport both add one each.
    let mut v = after_dupacks(10.9, 1, 5, 0.0);
    assert_eq!((v.cwnd, v.window()), (13.0, 8.0));
    // The next new ACK deflates to v_newcwnd_ and sets ssthresh_ = 2 (lines 194-198).
    v.on_ack(&AckEvent { in_recovery: true, ..ack(3 * SEC, 101, 9) });
    v.on_recovery_exit(3 * SEC, 9);
    assert_eq!((v.cwnd, v.ssthresh, v.window()), (8.0, 2.0, 8.0));
    // With exactly numdupacks_ duplicates ns-2 does not deflate: the window stays 8 + 3.
    let mut v = after_dupacks(10.9, 1, 3, 0.0);
    v.on_ack(&AckEvent { in_recovery: true, ..ack(3 * SEC, 101, 9) });
    assert_eq!(v.window(), 11.0);
    // Small windows go to 2; a lost retransmission halves.
    assert_eq!(after_dupacks(3.9, 1, 3, 0.0).v_newcwnd, 2.0);
    assert_eq!(after_dupacks(10.0, 2, 3, 0.0).v_newcwnd, 5.0);
    // No reduction when cwnd_ changed after the packet left: only the transport's inflation.
    let v = after_dupacks(10.0, 1, 3, 1.5);
    assert_eq!((v.cwnd, v.window(), v.t_cwnd_changed), (10.0, 7.0, 1.5));
    // loss_reduction generalises win >> 2: win − floor(win·(1 − r)).
    let mut v = ns2(&[("loss_reduction", ParamValue::Num(0.5))]);
    v.cwnd = 11.0;
    v.sends_base = 0;
    v.on_send(SEC, 0, false, 1);
    v.first_sent = 0;
    v.sends[0].0 = 1.0;
    for _ in 0..3 {
        v.on_dupack(2 * SEC);
    }
    v.on_loss(&LossEvent { now: 2 * SEC, inflight: 10, lost_was_retransmit: false });
    assert_eq!(v.v_newcwnd, 6.0, "11 − floor(5.5)");
}

#[test]
fn ns2_timeout_restarts_from_two_packets() {
    let mut v = after_dupacks(11.7, 1, 4, 0.0);
    // cwnd_ 8 + 4 = 12 at the timeout: ssthresh_ = (int)(12/2).
    v.on_timeout(5 * SEC, 10);
    assert_eq!((v.cwnd, v.window(), v.ssthresh, v.v_newcwnd), (2.0, 2.0, 6.0, 0.0));
    assert_eq!(v.t_cwnd_changed, 5.0);
    let mut v = ns2(&[]);
    v.cwnd = 3.0;
    v.on_timeout(SEC, 3);
    assert_eq!((v.cwnd, v.ssthresh), (2.0, 2.0));
}

/// Runs `cc` for 60 s over a 1000-packet/s bottleneck with 50 ms of propagation; returns the packets
/// waiting behind the one in service, averaged over the last 20 s, and the final window.
fn equilibrium<C: CongestionControl>(cc: C) -> (f64, f64) {
    let mut path = ScriptedPath::new(cc, 50 * MS, MS);
    let (mut sum, mut n) = (0.0, 0.0);
    while path.now < 60 * SEC {
        path.step();
        if path.now > 40 * SEC {
            sum += (path.queue_pkts() - 1.0).max(0.0);
            n += 1.0;
        }
    }
    (sum / n, path.cc.window())
}

#[test]
fn ns2_equilibrium_keeps_between_alpha_and_beta_packets_queued() {
    let (queue, w) = equilibrium(ns2(&[]));
    assert!((1.0..=3.0).contains(&queue), "queue {queue}, window {w}");
    assert!((52.0..=55.0).contains(&w), "window {w} for a 51-packet pipe");
    let wide = [("alpha", ParamValue::Num(4.0)), ("beta", ParamValue::Num(8.0))];
    let (queue, w) = equilibrium(ns2(&wide));
    assert!((4.0..=8.0).contains(&queue), "queue {queue}, window {w}");
}

#[test]
fn linux_decides_on_the_rounds_minimum_rtt() {
    // Congestion avoidance at cwnd 20, baseRTT 100 ms; a round of three samples then its last ACK.
    let round = |samples: [Time; 3], extra: &[(&'static str, ParamValue)]| {
        let mut v = linux(extra);
        v.cwnd = 20;
        v.ssthresh = 10;
        v.base_rtt = 100_001;
        v.snd_nxt = 120;
        v.beg_snd_nxt = 100;
        for (k, r) in samples.into_iter().enumerate() {
            v.on_ack(&sampled(SEC, 98 + k as u64, 20, r));
        }
        v.on_ack(&ack(SEC, 101, 19));
        (v.diff, v.cwnd, v.beg_snd_nxt)
    };
    // min 105 ms: diff = 20·5000/100001 = 0 < alpha: +1; the next round ends at snd_nxt.
    assert_eq!(round([130 * MS, 105 * MS, 140 * MS], &[]), (0, 21, 120));
    // The mean (125 ms) would say diff 4.99 -> 4: hold.
    assert_eq!(
        round([130 * MS, 105 * MS, 140 * MS], &[("rtt_statistic", ParamValue::Str("mean".into()))]).1,
        20
    );
    // min 110 ms: diff 1; min 112 ms: diff 2 = alpha: hold; 126 ms: diff 5 > beta: −1.
    assert_eq!(round([110 * MS; 3], &[]).1, 21);
    assert_eq!(round([112 * MS; 3], &[]), (2, 20, 120));
    assert_eq!(round([126 * MS; 3], &[]), (5, 19, 120));
}

#[test]
fn linux_slow_start_exit_reno_rounds_and_loss() {
    let mut v = linux(&[]);
    v.cwnd = 20;
    v.base_rtt = 100_001;
    v.snd_nxt = 120;
    v.beg_snd_nxt = 100;
    for k in 0..3 {
        v.on_ack(&sampled(SEC, 98 + k, 20, 150 * MS));
    }
    assert_eq!(v.cwnd, 23, "slow start: one per ACK between round ends");
    v.on_ack(&ack(SEC, 101, 19));
    // diff = 23·50000/100001 = 11 > gamma: cwnd = min(23, 23·100001/150001 + 1 = 16), ssthresh = 15.
    assert_eq!((v.diff, v.cwnd, v.ssthresh), (11, 16, 15));
    // A round with two samples or fewer behaves as Reno (here congestion avoidance: no change yet).
    v.snd_nxt = 140;
    v.on_ack(&sampled(SEC, 110, 20, 150 * MS));
    v.on_ack(&ack(SEC, 121, 19));
    assert_eq!((v.cwnd, v.cwnd_cnt), (16, 1));
    // Fast retransmit: Reno's half; recovery exit keeps it and restarts sampling.
    v.on_loss(&LossEvent { now: SEC, inflight: 16, lost_was_retransmit: false });
    assert_eq!((v.cwnd, v.ssthresh), (8, 8));
    v.on_recovery_exit(SEC, 8);
    assert!(v.doing_vegas_now && v.cnt_rtt == 0);
    // Timeout: Reno's half, one packet, baseRTT forgotten when the retransmission leaves.
    v.on_timeout(2 * SEC, 8);
    assert_eq!((v.cwnd, v.ssthresh), (1, 4));
    v.on_send(2 * SEC, 121, true, 1);
    assert_eq!(v.base_rtt, 0x7fff_ffff);
}

#[test]
fn linux_equilibrium_keeps_between_alpha_and_beta_packets_queued() {
    let (queue, w) = equilibrium(linux(&[]));
    assert!((2.0..=4.0).contains(&queue), "queue {queue}, window {w}");
}

/// ECN-Echo: ns-2's Vegas inherits TcpAgent::ecn, which halves cwnd_ (at least 1) and sets ssthresh_ to
/// the whole part of the half (at least 2), leaving Vegas's own state alone. Linux's Vegas takes the
/// default reduction, Reno's halving, and stays in Vegas mode.
#[test]
fn ecn_halves_as_tcpagent_slowdown() {
    let mut v = ns2(&[]);
    v.cwnd = 25.0;
    let newcwnd = v.v_newcwnd;
    v.on_ecn(SEC, 25);
    assert_eq!((v.cwnd, v.ssthresh, v.v_newcwnd), (12.5, 12.0, newcwnd));
    assert!(!v.in_recovery, "no recovery for a mark");
    let mut l = linux(&[]);
    l.cwnd = 25;
    l.on_ecn(SEC, 25);
    assert_eq!((l.window(), l.ssthresh()), (12.0, 12.0));
}
