//! Packet traces (`trace = "pcap"`, `delaycc run --pcap`): simulated packets written as pcap records with
//! real Ethernet, IPv4 and TCP or UDP headers, one file per traced flow (its sender's side: what it sends
//! and the ACKs it receives, as tcpdump on the sending host) and per direction of a traced link (every
//! packet that starts its transmission onto the wire). docs/scenario-format.md, Packet traces, gives the
//! mapping; in short:
//!
//! - node n is 10.0.0.0 + n + 1, Ethernet 02:00 + that address; flow or source i (0-based, in file order)
//!   has port 10000 + i % 50000 at its source and 5001 + i / 50000 at its destination;
//! - both ends' initial sequence number is 0 (`ISN`); data packet k carries bytes [1 + k x payload,
//!   1 + (k + 1) x payload), an ACK of k packets acknowledges 1 + k x payload; SACK blocks likewise;
//! - data packets carry the payload's length (packet_size - header_size) after 40 bytes of real headers;
//!   ACKs are 40 bytes of headers plus a SACK option; datagrams are IPv4/UDP of the source's packet size.
//!
//! Files: `wire.rs` (header bytes), `file.rs` (the pcap file), this one (which packets, which headers).
//! The simulation calls in only for traced flows and links, so untraced runs never reach this code.

pub mod file;
pub mod wire;

use crate::model::{Scenario, Trace};
use crate::net::{Packet, PacketKind};
use crate::time::Time;
use crate::transport::Flow;
use file::PcapFile;
use std::collections::HashSet;
use std::path::PathBuf;
use wire::{End, Ip, Tcp, ACK, SYN, WINDOW_SHIFT};

/// Initial sequence number of both ends of every flow (the SYN's; data starts at ISN + 1).
pub const ISN: u32 = 0;
/// TTL of a packet as its sender sends it; each hop before the traced point takes one off.
const TTL: u16 = 64;
/// Bytes of buffer all traces of a run share (each gets at least 8 KiB and at most 256 KiB).
const BUFFER_BUDGET: usize = 32 << 20;
/// Runs with more traces than this open a trace's file whenever its buffer is written out, instead of
/// keeping every file open (a process may hold only so many).
const MAX_OPEN: usize = 256;

/// Where a run writes its traces, and whether every flow is traced (`--pcap`) besides those the
/// scenario marks.
#[derive(Clone, Debug)]
pub struct PcapOptions {
    pub dir: PathBuf,
    pub all_flows: bool,
}

/// How one flow's or source's packets look on the wire.
#[derive(Clone, Copy, Debug)]
struct Wire {
    /// Its source and destination host.
    src: End,
    dst: End,
    /// Payload bytes of a data packet (flows), or of every datagram (sources, after IPv4 and UDP).
    payload: u32,
    sack: bool,
    /// The window field of every segment: the receiver window in bytes, scaled by `WINDOW_SHIFT` when
    /// the flow opens with a SYN (which announces the scale), at most 65 535.
    window: u16,
}

/// One trace file, for summary.json.
#[derive(Clone, Debug)]
pub struct TraceRow {
    /// Its name in the trace directory.
    pub file: String,
    /// `"flow"` or `"link"`.
    pub kind: &'static str,
    pub id: String,
    /// For a link: `"a->b"` or `"b->a"`.
    pub direction: Option<&'static str>,
    pub packets: u64,
}

/// Where a traced link direction's packets go, and the Ethernet addresses of its two nodes.
#[derive(Clone, Copy, Debug)]
struct LinkTrace {
    file: u32,
    from_mac: [u8; 6],
    to_mac: [u8; 6],
}

/// What a trace file holds: a flow's packets, or a link direction's (by `dir_index`).
enum Target {
    Flow(usize),
    Link(usize, LinkTrace),
}

/// The trace files of one run.
pub struct Traces {
    files: Vec<PcapFile>,
    rows: Vec<TraceRow>,
    /// Per flow, its file if traced.
    flow_files: Vec<Option<u32>>,
    /// Per link direction (`dir_index` order), its trace if traced.
    link_files: Vec<Option<LinkTrace>>,
    flows: Vec<Wire>,
    sources: Vec<Wire>,
}

/// `%XX` for every byte of `c`.
fn percent(out: &mut String, c: char) {
    let mut b = [0u8; 4];
    for byte in c.encode_utf8(&mut b).bytes() {
        out.push_str(&format!("%{byte:02X}"));
    }
}

/// A file name for a trace: ids keep their characters except path separators, `%` and those some file
/// systems refuse (`%XX` instead), and a leading dot; a name above 200 bytes is cut and ends in a hash of
/// the whole.
fn file_stem(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if matches!(c, '/' | '\\' | '%' | ':' | '*' | '?' | '<' | '>' | '|') || (i == 0 && c == '.') {
            percent(&mut out, c);
        } else {
            out.push(c);
        }
    }
    if out.len() > 200 {
        // FNV-1a: a stable hash that needs no dependency.
        let h =
            name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3));
        let mut cut = 180;
        while !out.is_char_boundary(cut) {
            cut -= 1;
        }
        out = format!("{}~{:08x}", &out[..cut], h as u32);
    }
    out
}

/// Ports of flow or source `i`: (source, destination).
fn ports(i: usize) -> (u16, u16) {
    ((10000 + i % 50000) as u16, (5001 + (i / 50000) % 60000) as u16)
}

fn ttl(hop: u16) -> u8 {
    TTL.saturating_sub(hop).max(1) as u8
}

/// Sequence number of the first byte of data packet `k` (or acknowledged by an ACK of k packets).
fn byte_seq(k: u64, payload: u32) -> u32 {
    (ISN as u64).wrapping_add(1).wrapping_add(k.wrapping_mul(payload as u64)) as u32
}

impl Traces {
    /// The traces a run writes into `opts.dir`: every flow the scenario marks (or every flow, with
    /// `all_flows`), then both directions of every link it marks. Creates the directory and the files
    /// (under temporary names) when there is at least one; `flows` are the run's, built from `sc`.
    pub fn new(sc: &Scenario, flows: &[Flow], opts: &PcapOptions) -> Result<Traces, String> {
        // (file name without extension, row, what it traces)
        let mut names: Vec<(String, TraceRow, Target)> = Vec::new();
        for (i, f) in sc.flows.iter().enumerate() {
            if opts.all_flows || f.trace == Some(Trace::Pcap) {
                let row = TraceRow {
                    file: String::new(),
                    kind: "flow",
                    id: f.id.clone(),
                    direction: None,
                    packets: 0,
                };
                names.push((file_stem(&f.id), row, Target::Flow(i)));
            }
        }
        for (l, link) in sc.links.iter().enumerate() {
            if link.trace != Some(Trace::Pcap) {
                continue;
            }
            for (d, (from, to)) in [(link.a, link.b), (link.b, link.a)].into_iter().enumerate() {
                let (na, nb) = (&sc.nodes[from as usize], &sc.nodes[to as usize]);
                let row = TraceRow {
                    file: String::new(),
                    kind: "link",
                    id: link.id.clone(),
                    direction: Some(if d == 0 { "a->b" } else { "b->a" }),
                    packets: 0,
                };
                let lt = LinkTrace { file: 0, from_mac: wire::node_mac(from), to_mac: wire::node_mac(to) };
                names.push((file_stem(&format!("{}-{na}-{nb}", link.id)), row, Target::Link(l * 2 + d, lt)));
            }
        }
        let mut traces = Traces {
            files: Vec::with_capacity(names.len()),
            rows: Vec::with_capacity(names.len()),
            flow_files: vec![None; sc.flows.len()],
            link_files: vec![None; sc.links.len() * 2],
            flows: sc
                .flows
                .iter()
                .zip(flows)
                .enumerate()
                .map(|(i, (spec, fl))| flow_wire(i, spec, fl))
                .collect(),
            sources: sc
                .traffic
                .iter()
                .enumerate()
                .map(|(i, t)| {
                    let (sp, dp) = ports(i);
                    let payload = t.packet_size.saturating_sub((wire::IPV4_LEN + wire::UDP_LEN) as u32);
                    Wire {
                        src: End::node(t.src, sp),
                        dst: End::node(t.dst, dp),
                        payload,
                        sack: false,
                        window: 0,
                    }
                })
                .collect(),
        };
        if names.is_empty() {
            return Ok(traces);
        }
        std::fs::create_dir_all(&opts.dir)
            .map_err(|e| format!("{}: cannot create the trace directory: {e}", opts.dir.display()))?;
        let buffer = (BUFFER_BUDGET / names.len()).clamp(8 << 10, 256 << 10);
        let keep_open = names.len() <= MAX_OPEN;
        // Names compared without case, so that no two traces share a file on a case-insensitive disk.
        let mut taken = HashSet::new();
        for (stem, mut row, target) in names {
            let mut name = format!("{stem}.pcap");
            let mut k = 1;
            while !taken.insert(name.to_lowercase()) {
                k += 1;
                name = format!("{stem}~{k}.pcap");
            }
            let index = traces.files.len() as u32;
            traces.files.push(PcapFile::create(opts.dir.join(&name), buffer, keep_open)?);
            row.file = name;
            traces.rows.push(row);
            match target {
                Target::Flow(f) => traces.flow_files[f] = Some(index),
                Target::Link(d, lt) => traces.link_files[d] = Some(LinkTrace { file: index, ..lt }),
            }
        }
        Ok(traces)
    }

    /// Whether the run has no trace at all.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// Whether flow `f` is traced.
    pub fn traces_flow(&self, f: usize) -> bool {
        self.flow_files.get(f).is_some_and(|x| x.is_some())
    }

    /// Whether link direction `d` is traced.
    pub fn traces_link(&self, d: usize) -> bool {
        self.link_files.get(d).is_some_and(|x| x.is_some())
    }

    /// Bytes of buffer the traces hold (for the run's memory estimate).
    pub fn buffer_bytes(&self) -> u64 {
        self.files.iter().map(|f| f.buffer_bytes() as u64).sum()
    }

    /// The trace files, for summary.json, with the records written so far.
    pub fn rows(&self) -> Vec<TraceRow> {
        let mut rows = self.rows.clone();
        for (r, f) in rows.iter_mut().zip(&self.files) {
            r.packets = f.packets();
        }
        rows
    }

    /// A packet flow `f`'s sender sends at `now`: data or its SYN.
    pub fn flow_sent(&mut self, f: u32, now: Time, p: &Packet) {
        if let Some(i) = self.flow_files[f as usize] {
            let w = self.flows[f as usize];
            let ip = Ip { src_mac: w.src.mac, dst_mac: w.dst.mac, src: w.src, dst: w.dst, ttl: TTL as u8 };
            write(&mut self.files[i as usize], now, &w, &ip, p, &[]);
        }
    }

    /// A packet reaching flow `f`'s sender at `now`: an ACK (with its SACK blocks) or the SYN's answer.
    pub fn flow_received(&mut self, f: u32, now: Time, p: &Packet, sack: &[(u64, u64)]) {
        if let Some(i) = self.flow_files[f as usize] {
            let w = self.flows[f as usize];
            let ip = Ip { src_mac: w.dst.mac, dst_mac: w.src.mac, src: w.dst, dst: w.src, ttl: ttl(p.hop) };
            write(&mut self.files[i as usize], now, &w, &ip, p, sack);
        }
    }

    /// A packet starting its transmission on link direction `d` at `t` (an ACK with its SACK blocks).
    pub fn link_departure(&mut self, d: u32, t: Time, p: &Packet, sack: &[(u64, u64)]) {
        let Some(lt) = self.link_files[d as usize] else { return };
        let w = if p.kind == PacketKind::Datagram {
            self.sources[p.owner as usize]
        } else {
            self.flows[p.owner as usize]
        };
        let (src, dst) = match p.kind {
            PacketKind::Ack | PacketKind::SynAck => (w.dst, w.src),
            _ => (w.src, w.dst),
        };
        let ip = Ip { src_mac: lt.from_mac, dst_mac: lt.to_mac, src, dst, ttl: ttl(p.hop) };
        write(&mut self.files[lt.file as usize], t, &w, &ip, p, sack);
    }

    /// Writes every file out and renames it into place; the first error, if any (every temporary file is
    /// removed then).
    pub fn finish(&mut self) -> Result<(), String> {
        self.rows = self.rows();
        // Nothing more is written: every later call finds no file.
        self.flow_files.iter_mut().for_each(|f| *f = None);
        self.link_files.iter_mut().for_each(|l| *l = None);
        let mut first = Ok(());
        for f in std::mem::take(&mut self.files) {
            if let Err(e) = f.finish() {
                first = first.and(Err(e));
            }
        }
        first
    }
}

/// How flow `i`'s packets look on the wire.
fn flow_wire(i: usize, spec: &crate::model::FlowSpec, fl: &Flow) -> Wire {
    let (sp, dp) = ports(i);
    let rwnd = spec.transport.receiver_window.saturating_mul(fl.payload as u64);
    let window = if fl.sender.syn() { rwnd >> WINDOW_SHIFT } else { rwnd };
    Wire {
        src: End::node(spec.src, sp),
        dst: End::node(spec.dst, dp),
        payload: fl.payload,
        sack: fl.sack_log.is_some(),
        window: window.clamp(1, 0xffff) as u16,
    }
}

/// Appends packet `p` to `file` at `t` with addresses `ip`.
fn write(file: &mut PcapFile, t: Time, w: &Wire, ip: &Ip, p: &Packet, sack: &[(u64, u64)]) {
    file.record(t, |out| match p.kind {
        PacketKind::Datagram => wire::udp_frame(out, ip, w.payload),
        PacketKind::Data => {
            let seg = Tcp {
                seq: byte_seq(p.seq, w.payload),
                ack: ISN + 1,
                flags: ACK,
                window: w.window,
                options: &[],
                payload: w.payload,
            };
            wire::tcp_frame(out, ip, &seg)
        }
        PacketKind::Ack => {
            let mut blocks = [(0u32, 0u32); 3];
            let n = sack.len().min(3);
            for (b, &(l, r)) in blocks.iter_mut().zip(sack) {
                *b = (byte_seq(l, w.payload), byte_seq(r, w.payload));
            }
            let (opt, len) = wire::sack_option(&blocks[..n]);
            let seg = Tcp {
                seq: ISN + 1,
                ack: byte_seq(p.seq, w.payload),
                flags: ACK,
                window: w.window,
                options: &opt[..len],
                payload: 0,
            };
            wire::tcp_frame(out, ip, &seg)
        }
        PacketKind::Syn | PacketKind::SynAck => {
            let (opt, len) = wire::syn_options(w.payload.min(0xffff) as u16, w.sack);
            let (flags, ack) = if p.kind == PacketKind::Syn { (SYN, 0) } else { (SYN | ACK, ISN + 1) };
            // The window of a SYN is never scaled (RFC 7323 2.2).
            let window = (w.window as u32) << WINDOW_SHIFT;
            let seg = Tcp {
                seq: ISN,
                ack,
                flags,
                window: window.min(0xffff) as u16,
                options: &opt[..len],
                payload: 0,
            };
            wire::tcp_frame(out, ip, &seg)
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_are_safe_and_bounded() {
        assert_eq!(file_stem("f1"), "f1");
        assert_eq!(file_stem("a/b"), "a%2Fb");
        assert_eq!(file_stem(".."), "%2E.");
        assert_eq!(file_stem("débit"), "débit");
        let long = file_stem(&"x".repeat(400));
        assert!(long.len() < 200 && long.starts_with("xxx"));
        assert_ne!(long, file_stem(&"x".repeat(401)));
    }

    #[test]
    fn sequence_numbers_count_bytes_from_the_isn() {
        assert_eq!(byte_seq(0, 960), 1);
        assert_eq!(byte_seq(3, 960), 2881);
        // They wrap as TCP's do.
        assert_eq!(byte_seq(1 << 32, 1), 1);
        assert_eq!(ports(0), (10000, 5001));
        assert_eq!(ports(50001), (10001, 5002));
    }
}
