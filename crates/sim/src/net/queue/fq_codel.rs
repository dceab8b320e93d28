//! FQ-CoDel, Flow Queue CoDel (RFC 8290): arrivals are hashed by flow into `flows` queues, each managed by
//! its own CoDel state (`codel.rs`), and served by deficit round robin in quanta of bytes, flows that have
//! just become active (the new list) before the backlogged ones (the old list).
//!
//! The direction's `buffer` is the limit over all queues. When an arrival goes over it, packets leave
//! from the head of the queue holding the most bytes, as in Linux's `fq_codel_drop`: up to `drop_batch`
//! of them, stopping once half that queue's bytes are gone, and that queue's CoDel count grows by the
//! number dropped. `drop_batch = 1` drops a single packet, as RFC 8290 section 4.1 describes it.

use super::codel::{self, CodelParams, CodelState, HeadQueue};
use super::{QueueContext, QueueCounters, QueueDiscipline, Waiting};
use crate::model::{Buffer, ParamDefault, ParamKind, ParamSpec, Params};
use crate::net::Packet;
use crate::time::Time;
use std::collections::VecDeque;

/// FQ-CoDel's parameters: CoDel's target and interval, ECN on, and the scheduler's quantum, flow count
/// and overflow batch, with Linux's defaults.
pub const PARAMS: &[ParamSpec] = &[
    codel::TARGET,
    codel::INTERVAL,
    ParamSpec {
        name: "ecn",
        kind: ParamKind::Bool,
        default: ParamDefault::Bool(true),
        description: "mark ECN-capable packets CE instead of dropping them",
        source: "RFC 8290 section 5.2.6 (on by default); Linux sch_fq_codel",
    },
    ParamSpec {
        name: "quantum",
        kind: ParamKind::Int { min: 256, max: 1 << 20 },
        default: ParamDefault::Num(1514.0),
        description: "bytes a queue may send each round of the deficit round robin",
        source: "Linux sch_fq_codel: the device MTU plus its link header, 1514 on Ethernet (at least 256); \
                 RFC 8290 section 5.2.4 says one MTU",
    },
    ParamSpec {
        name: "flows",
        kind: ParamKind::Int { min: 1, max: 65536 },
        default: ParamDefault::Num(1024.0),
        description: "number of queues flows are hashed into (flows beyond it share queues)",
        source: "RFC 8290 section 5.2.5; Linux sch_fq_codel (1024, at most 65536)",
    },
    ParamSpec {
        name: "drop_batch",
        kind: ParamKind::Int { min: 1, max: 65536 },
        default: ParamDefault::Num(64.0),
        description: "on overflow, the most packets dropped at once from the head of the largest queue \
                      (fewer once half its bytes are gone)",
        source: "Linux sch_fq_codel drop_batch_size (64); 1 is RFC 8290 section 4.1's single drop",
    },
];

/// Which scheduling list a queue is on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum List {
    #[default]
    Idle,
    New,
    Old,
}

/// One of the `flows` queues: its packets, DRR deficit, CoDel state and list.
#[derive(Default)]
struct FlowQueue {
    fifo: VecDeque<Waiting>,
    bytes: u64,
    deficit: i64,
    codel: CodelState,
    list: List,
}

pub struct FqCodel {
    buffer: Buffer,
    codel: CodelParams,
    quantum: i64,
    drop_batch: u32,
    /// Mixed into every flow key before hashing: the discipline's own random draw, as Linux perturbs its
    /// flow hash, so which flows share a queue depends on the seed but repeats with it.
    perturbation: u64,
    queues: Vec<FlowQueue>,
    new_flows: VecDeque<u32>,
    old_flows: VecDeque<u32>,
    pkts: u64,
    bytes: u64,
    /// Packets the last enqueue pushed out (`take_evicted`).
    evicted: Vec<Packet>,
    counters: QueueCounters,
}

pub fn build(params: &Params, ctx: &QueueContext) -> Box<dyn QueueDiscipline> {
    Box::new(FqCodel::new(params, ctx))
}

impl FqCodel {
    fn new(params: &Params, ctx: &QueueContext) -> FqCodel {
        let flows = params.num("flows") as usize;
        FqCodel {
            buffer: ctx.buffer,
            codel: CodelParams::new(params, ctx),
            quantum: params.num("quantum") as i64,
            drop_batch: params.num("drop_batch") as u32,
            perturbation: ctx.rng.clone().next_u64(),
            queues: (0..flows).map(|_| FlowQueue::default()).collect(),
            new_flows: VecDeque::new(),
            old_flows: VecDeque::new(),
            pkts: 0,
            bytes: 0,
            evicted: Vec::new(),
            counters: QueueCounters::default(),
        }
    }
}

/// One flow queue as CoDel sees it: popping also updates the discipline's totals, and the backlog the
/// one-MTU rule reads is the whole discipline's (as Linux passes its qdisc backlog), since that rule is
/// there to keep the link busy.
struct FlowHead<'a> {
    fifo: &'a mut VecDeque<Waiting>,
    flow_bytes: &'a mut u64,
    pkts: &'a mut u64,
    bytes: &'a mut u64,
}

impl HeadQueue for FlowHead<'_> {
    fn pop(&mut self) -> Option<Waiting> {
        let w = self.fifo.pop_front()?;
        let size = w.pkt.size as u64;
        *self.flow_bytes -= size;
        *self.pkts -= 1;
        *self.bytes -= size;
        Some(w)
    }

    fn backlog(&self) -> u64 {
        *self.bytes
    }
}

impl FqCodel {
    /// The queue of a flow key: a 64-bit mix (SplitMix64's finaliser) of the perturbed key, scaled to
    /// `flows` by its top bits as Linux's `reciprocal_scale` does.
    fn bucket(&self, key: u64) -> usize {
        let mut z = key ^ self.perturbation;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (((z >> 32) * self.queues.len() as u64) >> 32) as usize
    }

    fn over_limit(&self) -> bool {
        match self.buffer {
            Buffer::Packets(cap) => self.pkts > cap,
            Buffer::Bytes(cap) => self.bytes > cap,
        }
    }

    /// Drops from the head of the queue with the most bytes (the lowest index among equals): up to
    /// `drop_batch` packets, until half its bytes are gone. False if every queue is empty.
    fn drop_from_fattest(&mut self) -> bool {
        let active = self.new_flows.iter().chain(&self.old_flows).copied();
        let fattest = active.max_by_key(|&i| {
            let q = &self.queues[i as usize];
            (q.bytes, q.fifo.len(), std::cmp::Reverse(i))
        });
        let Some(i) = fattest.filter(|&i| !self.queues[i as usize].fifo.is_empty()) else {
            return false;
        };
        let q = &mut self.queues[i as usize];
        let half = q.bytes / 2;
        let (mut n, mut len) = (0u32, 0u64);
        while let Some(w) = q.fifo.pop_front() {
            n += 1;
            len += w.pkt.size as u64;
            self.evicted.push(w.pkt);
            if n >= self.drop_batch || len >= half {
                break;
            }
        }
        q.bytes -= len;
        // Linux: a queue that overflows the buffer gets a stronger CoDel signal too.
        q.codel.count = q.codel.count.saturating_add(n);
        self.pkts -= n as u64;
        self.bytes -= len;
        self.counters.overflow_drops += n as u64;
        true
    }
}

impl QueueDiscipline for FqCodel {
    fn enqueue(&mut self, now: Time, pkt: Packet) -> bool {
        let i = self.bucket(pkt.flow_key());
        let q = &mut self.queues[i];
        q.fifo.push_back(Waiting { pkt, since: now });
        q.bytes += pkt.size as u64;
        if q.list == List::Idle {
            q.list = List::New;
            q.deficit = self.quantum;
            self.new_flows.push_back(i as u32);
        }
        self.pkts += 1;
        self.bytes += pkt.size as u64;
        while self.over_limit() && self.drop_from_fattest() {}
        true
    }

    /// RFC 8290 section 4.2: the first queue of the new list, else of the old one. A queue whose deficit is
    /// spent gets a quantum more and goes to the end of the old list; one that CoDel finds empty leaves the
    /// new list for the end of the old one (so a flow cannot stay new by sending one packet at a time), or
    /// leaves the old list.
    fn dequeue(&mut self, now: Time, dropped: &mut Vec<Packet>) -> Option<Waiting> {
        loop {
            let (i, from_new) = match (self.new_flows.front(), self.old_flows.front()) {
                (Some(&i), _) => (i, true),
                (None, Some(&i)) => (i, false),
                (None, None) => return None,
            };
            let q = &mut self.queues[i as usize];
            if q.deficit <= 0 {
                q.deficit += self.quantum;
                q.list = List::Old;
            } else {
                let mut head = FlowHead {
                    fifo: &mut q.fifo,
                    flow_bytes: &mut q.bytes,
                    pkts: &mut self.pkts,
                    bytes: &mut self.bytes,
                };
                if let Some(w) = q.codel.dequeue(&self.codel, now, &mut head, dropped, &mut self.counters) {
                    q.deficit -= w.pkt.size as i64;
                    return Some(w);
                }
                q.list = if from_new { List::Old } else { List::Idle };
            }
            // The queue leaves the front of its list: for the end of the old one, or for none.
            if from_new {
                self.new_flows.pop_front();
            } else {
                self.old_flows.pop_front();
            }
            if q.list == List::Old {
                self.old_flows.push_back(i);
            }
        }
    }

    fn len_packets(&self) -> u64 {
        self.pkts
    }

    fn len_bytes(&self) -> u64 {
        self.bytes
    }

    fn take_evicted(&mut self, dropped: &mut Vec<Packet>) {
        dropped.append(&mut self.evicted);
    }

    fn drain(&mut self) -> Vec<Packet> {
        // The link went down: every queue empties and starts afresh (Linux's reset), oldest packet first.
        let mut all: Vec<Waiting> = self.queues.iter_mut().flat_map(|q| q.fifo.drain(..)).collect();
        all.sort_by_key(|w| w.since);
        self.queues.iter_mut().for_each(|q| *q = FlowQueue::default());
        self.new_flows.clear();
        self.old_flows.clear();
        (self.pkts, self.bytes) = (0, 0);
        all.into_iter().map(|w| w.pkt).collect()
    }

    fn counters(&self) -> QueueCounters {
        self.counters
    }
}

#[cfg(test)]
mod tests;
