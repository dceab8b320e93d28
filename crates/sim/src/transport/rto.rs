//! Retransmission timeout per RFC 6298: SRTT/RTTVAR from RTT samples (Karn's rule is applied by the
//! caller, which only passes samples of packets sent once), RTO = SRTT + 4·RTTVAR clamped to
//! [min_rto, max_rto], doubled on each expiry (exponential backoff) until a new sample arrives.
//!
//! `Ns2Rto` is ns-2.35's timer instead (tcp/tcp.cc): one packet per RTT is timed, samples are counted in
//! `tcpTick_` ticks, SRTT and RTTVAR are kept in fixed point, and backoff follows `rtt_backoff`. `Rto`
//! holds one or the other, as the flow's `rto` key says.

use crate::model::{RtoKind, TransportConfig};
use crate::time::{as_f64, round_ns, Time};

#[derive(Clone, Debug)]
pub struct RtoEstimator {
    srtt: Option<f64>,
    rttvar: f64,
    base_rto: Time,
    backoff: u32,
    min_rto: Time,
    max_rto: Time,
}

impl RtoEstimator {
    pub fn new(initial: Time, min_rto: Time, max_rto: Time) -> Self {
        RtoEstimator {
            srtt: None,
            rttvar: 0.0,
            base_rto: initial.clamp(min_rto, max_rto),
            backoff: 0,
            min_rto,
            max_rto,
        }
    }

    #[inline]
    pub fn on_sample(&mut self, rtt: Time) {
        let r = as_f64(rtt);
        match self.srtt {
            None => {
                self.srtt = Some(r);
                self.rttvar = r / 2.0;
            }
            Some(s) => {
                self.rttvar = 0.75 * self.rttvar + 0.25 * (s - r).abs();
                self.srtt = Some(0.875 * s + 0.125 * r);
            }
        }
        let rto = self.srtt.unwrap_or(r) + 4.0 * self.rttvar;
        self.base_rto = round_ns(rto).clamp(self.min_rto, self.max_rto);
        self.backoff = 0;
    }

    pub fn on_timeout(&mut self) {
        self.backoff = (self.backoff + 1).min(32);
    }

    pub fn reset_backoff(&mut self) {
        self.backoff = 0;
    }

    /// The current timeout, with backoff applied.
    pub fn rto(&self) -> Time {
        let factor = 1u64.checked_shl(self.backoff).unwrap_or(u64::MAX);
        self.base_rto.saturating_mul(factor).min(self.max_rto)
    }

    pub fn srtt(&self) -> Option<Time> {
        self.srtt.map(round_ns)
    }
}

/// ns-2's fixed-point shifts (ns-default.tcl:977-979: T_SRTT_BITS 3, T_RTTVAR_BITS 2, rttvar_exp_ 2).
const T_SRTT_BITS: u32 = 3;
const T_RTTVAR_BITS: u32 = 2;
const RTTVAR_EXP: u32 = 2;

/// ns-2.35's retransmission timer (`TcpAgent::rtt_init/rtt_update/rtt_timeout/rtt_backoff`,
/// tcp/tcp.cc:531-640) with `rfc2988_ true`, `timerfix_ true`, `ts_option_ false`.
#[derive(Clone, Debug)]
pub struct Ns2Rto {
    tick: Time,
    /// 8·SRTT and 4·RTTVAR in ticks; t_srtt == 0 means "no sample yet" (the next one initialises).
    t_srtt: i64,
    t_rttvar: i64,
    /// Current RTO before backoff and clamping, ns (t_rtxcur_, starts at rtxcur_init_).
    t_rtxcur: Time,
    t_backoff: u64,
    min_rto: Time,
    max_rto: Time,
    /// `rto()`, kept up to date where `t_rtxcur` and `t_backoff` change (once per RTT at most) rather
    /// than computed for every new ACK's deadline.
    rto: Time,
    /// One timed packet per RTT (rtt_active_, rtt_seq_, rtt_ts_; tcp/tcp.cc output() :788-797).
    pub rtt_active: bool,
    rtt_seq: u64,
    rtt_ts: Time,
    /// ns-2 draws `boot_time_ = Random::uniform(tcpTick_)` (tcp/tcp.cc reset()); delaycc uses 0.
    boot_time: Time,
    /// Ticks of the last sample (t_rtt_), for tests and traces.
    pub last_ticks: i64,
}

impl Ns2Rto {
    pub fn new(initial: Time, min_rto: Time, max_rto: Time, tick: Time) -> Self {
        let mut r = Ns2Rto {
            tick: tick.max(1),
            t_srtt: 0, // srtt_init_ 0
            // rttvar_init_ 12 s (ns-default.tcl:975); overwritten by the first sample.
            t_rttvar: ((12_000_000_000 / tick.max(1)) as i64) << T_RTTVAR_BITS,
            t_rtxcur: initial,
            t_backoff: 1,
            min_rto,
            max_rto,
            rtt_active: false,
            rtt_seq: 0,
            rtt_ts: 0,
            boot_time: 0,
            last_ticks: 0,
            rto: 0,
        };
        r.refresh();
        r
    }

    fn refresh(&mut self) {
        let base = self.t_rtxcur.max(self.min_rto);
        let t = base.saturating_mul(self.t_backoff).min(self.max_rto);
        self.rto = t.max(2 * self.tick);
    }

    /// A packet is sent for the first time (`seqno > maxseq_` in output()): time it if none is timed.
    #[inline]
    pub fn on_send_new(&mut self, seq: u64, now: Time) {
        if !self.rtt_active {
            self.rtt_active = true;
            if seq >= self.rtt_seq {
                self.rtt_seq = seq;
                self.rtt_ts = now;
            }
        }
    }

    /// A new cumulative ACK (`ack` = next expected). Takes the sample if it covers the timed packet
    /// (newack(): `seqno >= rtt_seq_`, ns-2 ACKs name the last packet received) and ends backoff.
    pub fn on_new_ack(&mut self, ack: u64, now: Time) -> bool {
        if self.rtt_active && ack > self.rtt_seq {
            self.t_backoff = 1;
            self.rtt_active = false;
            self.update(now.saturating_sub(self.rtt_ts), now);
            return true;
        }
        false
    }

    /// NewReno partial ACK (partialnewack(), tcp/tcp-newreno.cc:85): stop timing, end backoff, no sample.
    pub fn on_partial_ack(&mut self, ack: u64) {
        if self.rtt_active && ack > self.rtt_seq {
            self.rtt_active = false;
            self.t_backoff = 1;
            self.refresh();
        }
    }

    /// `rtt_update(tao)` (tcp/tcp.cc:576).
    pub fn update(&mut self, tao: Time, now: Time) {
        // t_rtt_ = int((tao + fmod(sendtime + boot_time_, tick)) / tick): tick boundaries crossed.
        let send = (now - tao) + self.boot_time;
        let ticks = ((send + tao) / self.tick - send / self.tick) as i64;
        let t_rtt = ticks.max(1);
        self.last_ticks = t_rtt;
        if self.t_srtt != 0 {
            let mut delta = t_rtt - (self.t_srtt >> T_SRTT_BITS);
            self.t_srtt += delta;
            if self.t_srtt <= 0 {
                self.t_srtt = 1;
            }
            if delta < 0 {
                delta = -delta;
            }
            delta -= self.t_rttvar >> T_RTTVAR_BITS;
            self.t_rttvar += delta;
            if self.t_rttvar <= 0 {
                self.t_rttvar = 1;
            }
        } else {
            self.t_srtt = t_rtt << T_SRTT_BITS;
            self.t_rttvar = t_rtt << (T_RTTVAR_BITS - 1);
        }
        let ticks =
            ((self.t_rttvar << (RTTVAR_EXP + (T_SRTT_BITS - T_RTTVAR_BITS))) + self.t_srtt) >> T_SRTT_BITS;
        self.t_rtxcur = ticks as u64 * self.tick;
        self.refresh();
    }

    /// `rtt_timeout()` (tcp/tcp.cc:540), rfc2988_ true, use_rtt_ 0.
    #[inline]
    pub fn rto(&self) -> Time {
        self.rto
    }

    /// `rtt_backoff()` (tcp/tcp.cc:622).
    pub fn backoff(&mut self) {
        if self.t_backoff < 64 || self.rto() < self.max_rto {
            self.t_backoff = self.t_backoff.saturating_mul(2);
            self.refresh();
        }
        if self.t_backoff > 8 {
            self.t_rttvar += self.t_srtt >> T_SRTT_BITS;
            self.t_srtt = 0;
        }
    }

    pub fn reset_backoff(&mut self) {
        self.t_backoff = 1;
        self.refresh();
    }

    /// `reset_rtx_timer()` clears rtt_active_ (tcp/tcp.cc:976): timeouts and fast retransmits.
    pub fn stop_timing(&mut self) {
        self.rtt_active = false;
    }

    pub fn srtt(&self) -> Option<Time> {
        (self.t_srtt != 0).then(|| ((self.t_srtt as u64) * self.tick) >> T_SRTT_BITS)
    }

    pub fn backoff_factor(&self) -> u64 {
        self.t_backoff
    }
}

/// `r` rounded down to whole ticks, at least one tick. A 64-bit division on every ACK cost more than the
/// rest of the timer: this multiplies by the reciprocal and corrects the last unit.
#[inline]
fn whole_ticks(r: Time, tick: Time) -> Time {
    if tick <= 1 {
        return r.max(1);
    }
    let mut q = (as_f64(r) * (1.0 / as_f64(tick))) as u64;
    if q.saturating_mul(tick) > r {
        q -= 1;
    } else if (q + 1).saturating_mul(tick) <= r {
        q += 1;
    }
    q.max(1) * tick
}

/// The flow's timer: RFC 6298 or ns-2's.
#[derive(Clone, Debug)]
pub enum Rto {
    Rfc6298 { est: RtoEstimator, tick: Time },
    Ns2(Ns2Rto),
}

impl Rto {
    pub fn new(cfg: &TransportConfig) -> Self {
        match cfg.rto {
            RtoKind::Rfc6298 => Rto::Rfc6298 {
                est: RtoEstimator::new(cfg.initial_rto, cfg.min_rto, cfg.max_rto),
                tick: cfg.rtt_tick.max(1),
            },
            RtoKind::Ns2 => Rto::Ns2(Ns2Rto::new(cfg.initial_rto, cfg.min_rto, cfg.max_rto, cfg.rtt_tick)),
        }
    }

    #[inline]
    pub fn rto(&self) -> Time {
        match self {
            Rto::Rfc6298 { est, .. } => est.rto(),
            Rto::Ns2(n) => n.rto(),
        }
    }

    #[inline]
    pub fn on_send_new(&mut self, seq: u64, now: Time) {
        if let Rto::Ns2(n) = self {
            n.on_send_new(seq, now);
        }
    }

    /// A new cumulative ACK with, if the echoed packet was sent once, its RTT (`plain_rtt`).
    #[inline(always)]
    pub fn on_new_ack(&mut self, ack: u64, now: Time, plain_rtt: Option<Time>) {
        match self {
            Rto::Rfc6298 { est, tick } => {
                if let Some(r) = plain_rtt {
                    // Clock granularity: whole ticks, at least one.
                    est.on_sample(whole_ticks(r, *tick));
                }
            }
            Rto::Ns2(n) => {
                n.on_new_ack(ack, now);
            }
        }
    }

    /// A timeout; `backoff` false for algorithms whose timeout does not back off (FAST module).
    pub fn on_timeout(&mut self, backoff: bool) {
        match self {
            Rto::Rfc6298 { est, .. } => {
                if backoff {
                    est.on_timeout()
                }
            }
            Rto::Ns2(n) => {
                if backoff {
                    n.backoff();
                }
                n.stop_timing();
            }
        }
    }

    pub fn stop_timing(&mut self) {
        if let Rto::Ns2(n) = self {
            n.stop_timing();
        }
    }

    pub fn reset_backoff(&mut self) {
        match self {
            Rto::Rfc6298 { est, .. } => est.reset_backoff(),
            Rto::Ns2(n) => n.reset_backoff(),
        }
    }

    /// A partial ACK during recovery: ns-2 takes no sample from it; RFC 6298 samples as on any ACK.
    pub fn on_partial_ack(&mut self, ack: u64, plain_rtt: Option<Time>) {
        match self {
            Rto::Ns2(n) => n.on_partial_ack(ack),
            Rto::Rfc6298 { .. } => self.on_new_ack(ack, 0, plain_rtt),
        }
    }

    /// The SYN's ACK: the SYN is the first timed packet (rtt_seq_ 0 in ns-2), unless it was resent.
    pub fn on_syn_sample(&mut self, rtt: Time, now: Time) {
        match self {
            Rto::Ns2(n) => {
                n.reset_backoff();
                n.update(rtt, now);
            }
            Rto::Rfc6298 { .. } => self.on_new_ack(0, now, Some(rtt)),
        }
    }

    pub fn srtt(&self) -> Option<Time> {
        match self {
            Rto::Rfc6298 { est, .. } => est.srtt(),
            Rto::Ns2(n) => n.srtt(),
        }
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    const MS: Time = 1_000_000;

    #[test]
    fn rfc6298_first_and_later_samples() {
        let mut r = RtoEstimator::new(1000 * MS, 200 * MS, 60_000 * MS);
        assert_eq!(r.rto(), 1000 * MS);
        r.on_sample(100 * MS);
        // SRTT = 100, RTTVAR = 50, RTO = 300 ms.
        assert_eq!(r.rto(), 300 * MS);
        r.on_sample(100 * MS);
        // RTTVAR = 37.5, RTO = 250 ms.
        assert_eq!(r.rto(), 250 * MS);
        r.on_timeout();
        r.on_timeout();
        assert_eq!(r.rto(), 1000 * MS);
        r.on_sample(100 * MS);
        assert!(r.rto() < 300 * MS);
    }

    #[test]
    fn clamped_to_min_and_max() {
        let mut r = RtoEstimator::new(1000 * MS, 200 * MS, 2000 * MS);
        r.on_sample(MS);
        assert_eq!(r.rto(), 200 * MS);
        for _ in 0..10 {
            r.on_timeout();
        }
        assert_eq!(r.rto(), 2000 * MS);
    }

    #[test]
    fn whole_ticks_matches_division() {
        for tick in [1, 7, 1_000_000, 10_000_000] {
            for r in [0, 1, tick - 1, tick, tick + 1, 3 * tick, 3 * tick - 1, 123_456_789, 999_999_999_999] {
                assert_eq!(whole_ticks(r, tick), (r / tick).max(1) * tick, "r {r} tick {tick}");
            }
        }
    }

    /// Hand-computed ns-2 values (tick 10 ms, T_SRTT_BITS 3, T_RTTVAR_BITS 2, rttvar_exp_ 2).
    #[test]
    fn ns2_fixed_point_sequence() {
        let mut r = Ns2Rto::new(3000 * MS, 200 * MS, 60_000 * MS, 10 * MS);
        assert_eq!(r.rto(), 3000 * MS, "rtxcur_init_ 3.0");
        // Sent at 0, acked at 104 ms: 10 tick boundaries crossed -> t_rtt 10.
        // t_srtt = 10 << 3 = 80, t_rttvar = 10 << 1 = 20; rtxcur = ((20 << 3) + 80) >> 3 = 30 ticks.
        r.on_send_new(0, 0);
        assert!(r.on_new_ack(1, 104 * MS));
        assert_eq!(r.last_ticks, 10);
        assert_eq!(r.rto(), 300 * MS);
        // Sent at 105 ms, acked at 301 ms: boundaries 11..30 -> t_rtt 20.
        // delta = 20 - 10 = 10; t_srtt = 90; |delta| - (20 >> 2) = 5; t_rttvar = 25.
        // rtxcur = ((25 << 3) + 90) >> 3 = 290 >> 3 = 36 ticks = 360 ms.
        r.on_send_new(5, 105 * MS);
        assert!(r.on_new_ack(6, 301 * MS));
        assert_eq!(r.last_ticks, 20);
        assert_eq!(r.rto(), 360 * MS);
        // A sample of 1 ms within one tick counts as one tick: delta = 1 - (90 >> 3) = -10; t_srtt = 80;
        // |delta| - (25 >> 2) = 4; t_rttvar = 29; rtxcur = ((29 << 3) + 80) >> 3 = 39 ticks.
        r.on_send_new(7, 302 * MS);
        assert!(r.on_new_ack(8, 303 * MS));
        assert_eq!(r.last_ticks, 1);
        assert_eq!(r.rto(), 390 * MS);
        assert_eq!(r.srtt(), Some(100 * MS));
        // ACKs that do not cover the timed packet give no sample; only one packet is timed.
        r.on_send_new(9, 310 * MS);
        r.on_send_new(10, 311 * MS);
        assert!(!r.on_new_ack(9, 400 * MS));
        assert!(r.on_new_ack(11, 400 * MS));
        assert_eq!(r.last_ticks, 9);
    }

    #[test]
    fn ns2_backoff_min_and_clobber() {
        let mut r = Ns2Rto::new(3000 * MS, 200 * MS, 60_000 * MS, 10 * MS);
        r.on_send_new(0, 0);
        r.on_new_ack(1, 50 * MS); // 5 ticks: t_srtt 40, t_rttvar 10, rtxcur (80 + 40) >> 3 = 15 ticks
        assert_eq!(r.rto(), 200 * MS, "minrto_ applies before backoff");
        r.backoff();
        assert_eq!(r.rto(), 400 * MS);
        r.backoff();
        r.backoff();
        assert_eq!(r.rto(), 1600 * MS);
        assert_eq!(r.srtt(), Some(50 * MS));
        r.backoff(); // t_backoff 16 > 8: srtt clobbered into rttvar
        assert_eq!(r.srtt(), None);
        assert_eq!(r.rto(), 3200 * MS);
        for _ in 0..10 {
            r.backoff();
        }
        assert_eq!(r.rto(), 60_000 * MS, "maxrto_");
        // The next timed sample re-initialises (t_srtt == 0) and ends backoff.
        r.on_send_new(3, 10_000 * MS);
        r.on_new_ack(4, 10_100 * MS);
        assert_eq!(r.rto(), 300 * MS);
    }
}
