//! Linux's `net/ipv4/tcp_vegas.c` (mainline), `flavour = "linux"`.

use crate::cc::{AckEvent, CcTrace, CongestionControl, FlowContext, LossEvent};
use crate::model::params::Params;
use crate::time::Time;

/// Linux's `snd_ssthresh` before any reduction (TCP_INFINITE_SSTHRESH).
const LINUX_INFINITE_SSTHRESH: u32 = 0x7fff_ffff;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum CaState {
    Open,
    Recovery,
    Loss,
}

/// Linux `tcp_vegas.c` (mainline) driven by delaycc's transport. Integer window and microsecond RTTs as
/// the kernel keeps them. The kernel's own state machine is mapped onto the transport's events: Recovery
/// from fast retransmit to the end of recovery, Loss from a timeout until everything outstanding then is
/// acknowledged.
pub struct LinuxVegas {
    pub(super) alpha: f64,
    pub(super) beta: f64,
    pub(super) gamma: f64,
    pub(super) use_mean: bool,
    pub(super) loss_reduction: f64,
    pub(super) cwnd: u32,
    pub(super) ssthresh: u32,
    /// `snd_cwnd_cnt` of tcp_cong_avoid_ai().
    pub(super) cwnd_cnt: u32,
    pub(super) base_rtt: u32,
    pub(super) min_rtt: u32,
    pub(super) cnt_rtt: u32,
    pub(super) sum_rtt: u64,
    pub(super) beg_snd_nxt: u64,
    pub(super) doing_vegas_now: bool,
    pub(super) state: CaState,
    pub(super) high_seq: u64,
    /// The kernel's snd_nxt: the highest sequence number sent plus one (a timeout does not move it back).
    pub(super) snd_nxt: u64,
    pub(super) diff: u32,
}

impl LinuxVegas {
    pub fn new(p: &Params, ctx: &FlowContext) -> LinuxVegas {
        let mut v = LinuxVegas {
            alpha: p.num("alpha"),
            beta: p.num("beta"),
            gamma: p.num("gamma"),
            use_mean: p.choice("rtt_statistic") == "mean",
            loss_reduction: p.num("loss_reduction"),
            cwnd: (ctx.initial_window.floor() as u32).max(1),
            ssthresh: LINUX_INFINITE_SSTHRESH,
            cwnd_cnt: 0,
            base_rtt: 0,
            min_rtt: 0,
            cnt_rtt: 0,
            sum_rtt: 0,
            beg_snd_nxt: 0,
            doing_vegas_now: false,
            state: CaState::Open,
            high_seq: 0,
            snd_nxt: 0,
            diff: 0,
        };
        v.init();
        v
    }

    /// tcp_vegas_init(): forget baseRTT and start sampling.
    fn init(&mut self) {
        self.base_rtt = 0x7fff_ffff;
        self.enable();
    }

    /// vegas_enable().
    fn enable(&mut self) {
        self.doing_vegas_now = true;
        self.beg_snd_nxt = self.snd_nxt;
        self.cnt_rtt = 0;
        self.min_rtt = 0x7fff_ffff;
        self.sum_rtt = 0;
    }

    fn in_slow_start(&self) -> bool {
        self.cwnd < self.ssthresh
    }

    /// tcp_slow_start(): returns the acked packets left over above ssthresh.
    fn slow_start(&mut self, acked: u32) -> u32 {
        let cwnd = self.cwnd.saturating_add(acked).min(self.ssthresh);
        let left = acked - (cwnd - self.cwnd);
        self.cwnd = cwnd;
        left
    }

    /// tcp_cong_avoid_ai(tp, w, acked).
    fn cong_avoid_ai(&mut self, w: u32, acked: u32) {
        let w = w.max(1);
        if self.cwnd_cnt >= w {
            self.cwnd_cnt = 0;
            self.cwnd += 1;
        }
        self.cwnd_cnt += acked;
        if self.cwnd_cnt >= w {
            let delta = self.cwnd_cnt / w;
            self.cwnd_cnt -= delta * w;
            self.cwnd += delta;
        }
    }

    /// tcp_reno_cong_avoid(), the flow taken to be window-limited (a bulk transfer).
    fn reno_cong_avoid(&mut self, acked: u32) {
        let mut acked = acked;
        if self.in_slow_start() {
            acked = self.slow_start(acked);
            if acked == 0 {
                return;
            }
        }
        self.cong_avoid_ai(self.cwnd, acked);
    }

    /// tcp_vegas_ssthresh().
    fn vegas_ssthresh(&self) -> u32 {
        self.ssthresh.min(self.cwnd.saturating_sub(1))
    }

    /// ca_ops->ssthresh: tcp_reno_ssthresh() is max(cwnd >> 1, 2); loss_reduction generalises the half.
    fn reno_ssthresh(&self) -> u32 {
        ((self.cwnd as f64 * self.loss_reduction).floor() as u32).max(2)
    }

    /// tcp_vegas_cong_avoid().
    fn cong_avoid(&mut self, ack: u64, acked: u32) {
        if !self.doing_vegas_now {
            return self.reno_cong_avoid(acked);
        }
        if ack > self.beg_snd_nxt {
            self.beg_snd_nxt = self.snd_nxt;
            if self.cnt_rtt <= 2 {
                self.reno_cong_avoid(acked);
            } else {
                let rtt =
                    if self.use_mean { (self.sum_rtt / self.cnt_rtt as u64) as u32 } else { self.min_rtt };
                let base = self.base_rtt.max(1);
                let target_cwnd = self.cwnd as u64 * base as u64 / rtt.max(1) as u64;
                // u32 arithmetic as the kernel's (it wraps on huge windows times queueing delays).
                let diff = self.cwnd.wrapping_mul(rtt.saturating_sub(base)) / base;
                self.diff = diff;
                let d = diff as f64;
                if d > self.gamma && self.in_slow_start() {
                    self.cwnd = self.cwnd.min(target_cwnd as u32 + 1);
                    self.ssthresh = self.vegas_ssthresh();
                } else if self.in_slow_start() {
                    self.slow_start(acked);
                } else if d > self.beta {
                    self.cwnd -= 1;
                    self.ssthresh = self.vegas_ssthresh();
                } else if d < self.alpha {
                    self.cwnd += 1;
                }
                if self.cwnd < 2 {
                    self.cwnd = 2;
                }
                // tcp_current_ssthresh() outside a reduction: max(ssthresh, 3/4 cwnd).
                self.ssthresh = self.ssthresh.max((self.cwnd >> 1) + (self.cwnd >> 2));
            }
            self.cnt_rtt = 0;
            self.min_rtt = 0x7fff_ffff;
            self.sum_rtt = 0;
        } else if self.in_slow_start() {
            self.slow_start(acked);
        }
    }
}

impl CongestionControl for LinuxVegas {
    fn window(&self) -> f64 {
        self.cwnd as f64
    }

    fn ssthresh(&self) -> f64 {
        if self.ssthresh >= LINUX_INFINITE_SSTHRESH {
            f64::INFINITY
        } else {
            self.ssthresh as f64
        }
    }

    fn on_ack(&mut self, ack: &AckEvent) {
        // tcp_vegas_pkts_acked(): every ACK with a valid sample, in any state.
        if let Some(r) = ack.rtt {
            let vrtt = (r / 1000).min(u32::MAX as u64 - 1) as u32 + 1;
            self.base_rtt = self.base_rtt.min(vrtt);
            self.min_rtt = self.min_rtt.min(vrtt);
            self.cnt_rtt += 1;
            self.sum_rtt += vrtt as u64;
        }
        if let Some(b) = ack.base_rtt {
            // ALT's baseRTT replaces the minimum.
            self.base_rtt = (b / 1000).min(u32::MAX as u64 - 1) as u32 + 1;
        }
        if ack.in_recovery || self.state == CaState::Recovery {
            // Recovery: the kernel reduces by PRR and does not call cong_avoid.
            return;
        }
        if self.state == CaState::Loss && ack.snd_una >= self.high_seq {
            self.state = CaState::Open;
            self.enable();
        }
        self.cong_avoid(ack.snd_una, ack.acked.min(u32::MAX as u64) as u32);
    }

    fn on_loss(&mut self, _loss: &LossEvent) {
        // tcp_init_cwnd_reduction(), Recovery (vegas_disable); PRR ends at cwnd = ssthresh.
        self.ssthresh = self.reno_ssthresh();
        self.cwnd = self.ssthresh;
        self.cwnd_cnt = 0;
        self.state = CaState::Recovery;
        self.doing_vegas_now = false;
    }

    fn on_recovery_exit(&mut self, _now: Time, _inflight: u64) {
        // tcp_end_cwnd_reduction(), then Open: vegas_enable().
        self.cwnd = self.ssthresh.max(1);
        self.state = CaState::Open;
        self.enable();
    }

    fn on_timeout(&mut self, _now: Time, _inflight: u64) {
        // tcp_enter_loss(): a new ssthresh unless already reducing, cwnd = in flight + 1 = 1.
        if self.state == CaState::Open {
            self.ssthresh = self.reno_ssthresh();
        }
        self.cwnd = 1;
        self.cwnd_cnt = 0;
        self.state = CaState::Loss;
        self.high_seq = self.snd_nxt;
        self.doing_vegas_now = false;
    }

    fn on_send(&mut self, _now: Time, seq: u64, _retransmit: bool, inflight: u64) {
        // CA_EVENT_TX_START: data leaves with nothing in flight (the start, the retransmission a timeout
        // sends, a restart after the window drained): tcp_vegas_init().
        if inflight <= 1 && self.state != CaState::Recovery {
            self.init();
        }
        self.snd_nxt = self.snd_nxt.max(seq + 1);
    }

    fn trace(&self) -> CcTrace {
        let base = (self.base_rtt < 0x7fff_ffff).then(|| self.base_rtt as Time * 1000);
        CcTrace { base_rtt: base, srtt: None }
    }

    fn extra_metrics(&self) -> &'static [&'static str] {
        &["backlog_pkts"]
    }

    fn extra_values(&self, out: &mut Vec<f64>) {
        out.push(self.diff as f64);
    }
}
