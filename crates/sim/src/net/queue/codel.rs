//! CoDel, Controlled Delay (RFC 8289): a FIFO that drops (or marks) at its head once packets have waited
//! longer than `target` for at least an `interval`, then ever faster (`interval / sqrt(count)`) until the
//! wait falls below `target` again.
//!
//! Two parts, so FQ-CoDel (`fq_codel.rs`) runs the same state machine on each of its flow queues:
//! `CodelState` is one queue's state and its dequeue routine (RFC 8289 section 5, the pseudocode of
//! `dodequeue` and `dequeue`), written against `HeadQueue`; `Codel` is the single-queue discipline.

use super::fifo::Fifo;
use super::{QueueContext, QueueCounters, QueueDiscipline, Waiting};
use crate::model::params::RuleResult;
use crate::model::{Buffer, ParamDefault, ParamKind, ParamSpec, Params};
use crate::net::Packet;
use crate::time::{as_f64, from_secs, Time};

/// Shared with FQ-CoDel's schema (same names, defaults and sources).
pub const TARGET: ParamSpec = ParamSpec {
    name: "target",
    kind: ParamKind::Duration { min: 1e-6, max: 10.0 },
    default: ParamDefault::Num(0.005),
    description:
        "acceptable standing queue delay: the sojourn time above which CoDel starts counting, seconds",
    source: "RFC 8289 section 4.3 (5 ms); Linux sch_codel and sch_fq_codel",
};

pub const INTERVAL: ParamSpec = ParamSpec {
    name: "interval",
    kind: ParamKind::Duration { min: 1e-6, max: 100.0 },
    default: ParamDefault::Num(0.1),
    description: "how long the sojourn time must stay above target before the first drop, and the \
                  control law's base (next drop after interval/sqrt(count)), seconds",
    source: "RFC 8289 section 4.2 (100 ms); Linux sch_codel and sch_fq_codel",
};

/// CoDel's parameters: target, interval, and ECN off as in Linux's `sch_codel` (RFC 8289 leaves it open).
pub const PARAMS: &[ParamSpec] = &[
    TARGET,
    INTERVAL,
    ParamSpec {
        name: "ecn",
        kind: ParamKind::Bool,
        default: ParamDefault::Bool(false),
        description: "mark ECN-capable packets CE instead of dropping them",
        source:
            "Linux sch_codel (ecn off unless asked for); RFC 8289 section 5 lets CoDel mark instead of drop",
    },
];

/// The rule over CoDel's parameters: the sojourn time must be able to fall below target within an
/// interval, so target must be below interval (RFC 8289 section 4.3 puts it at 5-10% of interval).
pub fn check(params: &Params, _buffer: Buffer) -> RuleResult {
    let (target, interval) = (params.num("target"), params.num("interval"));
    if target >= interval {
        let why = format!(
            "{target}s is not below interval ({interval}s): CoDel needs target under its interval \
             (RFC 8289 section 4.3 suggests 5-10% of it)"
        );
        return Err(("target", why));
    }
    Ok(())
}

/// The constants one CoDel state machine runs with.
#[derive(Clone, Copy, Debug)]
pub struct CodelParams {
    pub target: Time,
    pub interval: Time,
    /// Mark ECN-capable packets instead of dropping them.
    pub ecn: bool,
    /// RFC 8289's MAXPACKET: no drop while the queue holds at most this many bytes (the link's MTU), so
    /// CoDel never starves the link it manages (section 4.1).
    pub mtu: u64,
}

impl CodelParams {
    pub fn new(params: &Params, ctx: &QueueContext) -> CodelParams {
        CodelParams {
            target: from_secs(params.num("target")),
            interval: from_secs(params.num("interval")),
            ecn: params.flag("ecn"),
            mtu: ctx.mtu as u64,
        }
    }

    /// The control law: the next drop `interval / sqrt(count)` after `t`.
    pub fn control_law(&self, t: Time, count: u32) -> Time {
        t + (as_f64(self.interval) / (count.max(1) as f64).sqrt()) as Time
    }
}

/// A queue CoDel takes packets from: a plain FIFO, or one of FQ-CoDel's flow queues.
pub trait HeadQueue {
    /// Takes the packet at the head out.
    fn pop(&mut self) -> Option<Waiting>;
    /// The bytes the non-starvation rule reads after a pop: the whole queue's (FQ-CoDel: the whole
    /// discipline's, as Linux passes it).
    fn backlog(&self) -> u64;
}

/// One queue's CoDel variables (RFC 8289 section 5.2).
#[derive(Clone, Debug, Default)]
pub struct CodelState {
    /// When the sojourn time, above target since, will have been so for an interval; None while below.
    first_above_time: Option<Time>,
    /// When the next drop is due in the dropping state.
    drop_next: Time,
    /// Drops (or marks) since entering the dropping state, which sets the control law's rate.
    pub count: u32,
    /// `count` when the dropping state was last entered.
    lastcount: u32,
    dropping: bool,
}

impl CodelState {
    /// RFC 8289's `dodequeue`: takes the head out and says whether its sojourn time has stayed above target
    /// for an interval (ok to drop).
    fn do_dequeue(&mut self, p: &CodelParams, now: Time, q: &mut impl HeadQueue) -> (Option<Waiting>, bool) {
        let Some(w) = q.pop() else {
            self.first_above_time = None;
            return (None, false);
        };
        let sojourn = now - w.since;
        if sojourn < p.target || q.backlog() <= p.mtu {
            self.first_above_time = None;
            return (Some(w), false);
        }
        match self.first_above_time {
            None => {
                self.first_above_time = Some(now + p.interval);
                (Some(w), false)
            }
            Some(t) => (Some(w), now >= t),
        }
    }

    /// RFC 8289's `dequeue`: the packet to send, after any drops the state asks for (pushed onto
    /// `dropped`). With `p.ecn`, an ECN-capable packet is marked CE and sent where it would have been
    /// dropped; as in Linux, a mark ends this dequeue's drops.
    pub fn dequeue(
        &mut self,
        p: &CodelParams,
        now: Time,
        q: &mut impl HeadQueue,
        dropped: &mut Vec<Packet>,
        counters: &mut QueueCounters,
    ) -> Option<Waiting> {
        let (mut head, ok_to_drop) = self.do_dequeue(p, now, q);
        if self.dropping {
            if !ok_to_drop {
                // The sojourn time went below target: leave the dropping state.
                self.dropping = false;
            }
            // A large backlog may make several drops due at once, hence the loop.
            while self.dropping && now >= self.drop_next {
                let Some(w) = head.as_mut() else { break };
                self.count += 1;
                if mark(p, w, counters) {
                    self.drop_next = p.control_law(self.drop_next, self.count);
                    break;
                }
                dropped.push(w.pkt);
                counters.early_drops += 1;
                let (next, ok) = self.do_dequeue(p, now, q);
                head = next;
                if ok {
                    self.drop_next = p.control_law(self.drop_next, self.count);
                } else {
                    self.dropping = false;
                }
            }
        } else if ok_to_drop {
            let w = head.as_mut().expect("ok to drop implies a packet");
            if !mark(p, w, counters) {
                dropped.push(w.pkt);
                counters.early_drops += 1;
                head = self.do_dequeue(p, now, q).0;
            }
            self.dropping = true;
            // Re-entering soon after leaving: start from the drop rate that controlled the queue last time
            // (the count added in that cycle) rather than from one.
            let delta = self.count.wrapping_sub(self.lastcount);
            let recent = (now as i128 - self.drop_next as i128) < 16 * p.interval as i128;
            self.count = if delta > 1 && recent { delta } else { 1 };
            self.drop_next = p.control_law(now, self.count);
            self.lastcount = self.count;
        }
        head
    }
}

/// Marks `w` CE instead of a drop when ECN is on and its transport is ECN-capable.
fn mark(p: &CodelParams, w: &mut Waiting, counters: &mut QueueCounters) -> bool {
    if p.ecn && w.pkt.ecn_capable() {
        w.pkt.mark_ce();
        counters.marks += 1;
        return true;
    }
    false
}

impl HeadQueue for Fifo {
    fn pop(&mut self) -> Option<Waiting> {
        Fifo::pop(self)
    }

    fn backlog(&self) -> u64 {
        self.bytes()
    }
}

/// CoDel on one FIFO, tail-dropping when the direction's buffer is full.
pub struct Codel {
    buffer: Buffer,
    fifo: Fifo,
    params: CodelParams,
    state: CodelState,
    counters: QueueCounters,
}

pub fn build(params: &Params, ctx: &QueueContext) -> Box<dyn QueueDiscipline> {
    Box::new(Codel {
        buffer: ctx.buffer,
        fifo: Fifo::default(),
        params: CodelParams::new(params, ctx),
        state: CodelState::default(),
        counters: QueueCounters::default(),
    })
}

impl QueueDiscipline for Codel {
    fn enqueue(&mut self, now: Time, pkt: Packet) -> bool {
        if !self.fifo.fits(self.buffer, pkt.size) {
            self.counters.overflow_drops += 1;
            return false;
        }
        self.fifo.push(now, pkt);
        true
    }

    fn dequeue(&mut self, now: Time, dropped: &mut Vec<Packet>) -> Option<Waiting> {
        self.state.dequeue(&self.params, now, &mut self.fifo, dropped, &mut self.counters)
    }

    fn len_packets(&self) -> u64 {
        self.fifo.len()
    }

    fn len_bytes(&self) -> u64 {
        self.fifo.bytes()
    }

    fn drain(&mut self) -> Vec<Packet> {
        // The link went down: start afresh, as Linux's reset of the qdisc does.
        self.state = CodelState::default();
        self.fifo.drain()
    }

    fn counters(&self) -> QueueCounters {
        self.counters
    }
}

#[cfg(test)]
mod tests;
