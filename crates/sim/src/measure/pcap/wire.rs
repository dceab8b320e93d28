//! Header bytes as they are on a wire: Ethernet II, IPv4 (20 bytes, no options), TCP (20 bytes plus
//! options) or UDP (8 bytes), with valid IPv4, TCP and UDP checksums. Only headers are written: a
//! simulated packet has no payload bytes, and the checksums are computed as if its payload were zeros
//! (which add nothing to a one's-complement sum), so they hold for the whole packet its lengths describe.
//!
//! Addresses are derived from the node's number (`node_ip`, `node_mac`). Nothing here knows about
//! simulated packets: `mod.rs` maps them to segments.

/// TCP flags (RFC 9293).
pub const SYN: u8 = 0x02;
pub const ACK: u8 = 0x10;

const ETHERTYPE_IPV4: u16 = 0x0800;
const PROTO_TCP: u8 = 6;
const PROTO_UDP: u8 = 17;
pub const ETH_LEN: usize = 14;
pub const IPV4_LEN: usize = 20;
pub const TCP_LEN: usize = 20;
pub const UDP_LEN: usize = 8;
/// Largest TCP options this module writes: the SYN's (MSS, SACK permitted, window scale: 12 bytes) or
/// three SACK blocks after two NOPs (28 bytes).
pub const MAX_OPTIONS: usize = 28;
/// Largest frame prefix written (Ethernet, IPv4 and TCP headers with the largest options).
pub const MAX_HEADERS: usize = ETH_LEN + IPV4_LEN + TCP_LEN + MAX_OPTIONS;

/// The window scale both ends announce in their SYNs (the largest RFC 7323 allows).
pub const WINDOW_SHIFT: u8 = 14;

/// The IPv4 address of node `n` (numbered from 0): 10.0.0.0 plus n + 1, so node 0 is 10.0.0.1 and
/// node 255 is 10.0.1.0.
pub fn node_ip(n: u32) -> [u8; 4] {
    let v = (n & 0x00ff_ffff) + 1;
    [10, (v >> 16) as u8, (v >> 8) as u8, v as u8]
}

/// The Ethernet address of node `n`: locally administered, 02:00 followed by its IPv4 address.
pub fn node_mac(n: u32) -> [u8; 6] {
    let ip = node_ip(n);
    [0x02, 0x00, ip[0], ip[1], ip[2], ip[3]]
}

/// One end of a frame: its node's Ethernet and IPv4 addresses and its port.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct End {
    pub mac: [u8; 6],
    pub ip: [u8; 4],
    pub port: u16,
}

impl End {
    pub fn node(n: u32, port: u16) -> End {
        End { mac: node_mac(n), ip: node_ip(n), port }
    }
}

/// The Ethernet and IPv4 parts of a frame.
#[derive(Clone, Copy, Debug)]
pub struct Ip {
    /// Ethernet source and destination (the hop's nodes on a link, the end hosts in a flow's trace).
    pub src_mac: [u8; 6],
    pub dst_mac: [u8; 6],
    /// IPv4 source and destination (the end hosts) and their ports.
    pub src: End,
    pub dst: End,
    pub ttl: u8,
}

/// A TCP segment: the header's fields, its options and how many payload bytes follow.
#[derive(Clone, Copy, Debug)]
pub struct Tcp<'a> {
    pub seq: u32,
    pub ack: u32,
    pub flags: u8,
    pub window: u16,
    /// A multiple of 4 bytes, at most `MAX_OPTIONS`.
    pub options: &'a [u8],
    pub payload: u32,
}

/// One's-complement sum of big-endian 16-bit words (an odd last byte is padded with zero).
fn sum16(mut acc: u32, bytes: &[u8]) -> u32 {
    let mut chunks = bytes.chunks_exact(2);
    for c in &mut chunks {
        acc += u16::from_be_bytes([c[0], c[1]]) as u32;
    }
    if let [b] = chunks.remainder() {
        acc += (*b as u32) << 8;
    }
    acc
}

/// Folds a sum into 16 bits and complements it: the Internet checksum (RFC 1071).
fn fold(mut acc: u32) -> u16 {
    while acc > 0xffff {
        acc = (acc & 0xffff) + (acc >> 16);
    }
    !(acc as u16)
}

/// The 16-bit length field of an IPv4 header or a UDP header. Above 65 535 bytes, where no value is
/// right, it is 0: how Linux's IPv4 BIG TCP and captures with segmentation offload show such packets
/// (the frame's original length still tells the size).
fn len16(n: u32) -> u16 {
    if n > 0xffff {
        0
    } else {
        n as u16
    }
}

/// Ethernet and IPv4 headers for `l4_len` bytes of protocol `proto` (header and payload).
fn eth_ipv4(out: &mut Vec<u8>, ip: &Ip, proto: u8, l4_len: u32) {
    out.extend_from_slice(&ip.dst_mac);
    out.extend_from_slice(&ip.src_mac);
    out.extend_from_slice(&ETHERTYPE_IPV4.to_be_bytes());
    let start = out.len();
    let total = len16(IPV4_LEN as u32 + l4_len);
    out.extend_from_slice(&[0x45, 0]);
    out.extend_from_slice(&total.to_be_bytes());
    // Identification 0 with Don't Fragment, as Linux sends TCP.
    out.extend_from_slice(&[0, 0, 0x40, 0, ip.ttl, proto, 0, 0]);
    out.extend_from_slice(&ip.src.ip);
    out.extend_from_slice(&ip.dst.ip);
    let c = fold(sum16(0, &out[start..start + IPV4_LEN]));
    out[start + 10..start + 12].copy_from_slice(&c.to_be_bytes());
}

/// The pseudo-header's part of a TCP or UDP checksum (RFC 9293 3.1, RFC 768).
fn pseudo(ip: &Ip, proto: u8, l4_len: u32) -> u32 {
    let acc = sum16(0, &ip.src.ip);
    let acc = sum16(acc, &ip.dst.ip);
    acc + proto as u32 + (l4_len >> 16) + (l4_len & 0xffff)
}

/// Appends the frame's headers (Ethernet, IPv4, TCP with options); returns the whole frame's length,
/// payload included.
pub fn tcp_frame(out: &mut Vec<u8>, ip: &Ip, seg: &Tcp) -> u32 {
    debug_assert!(seg.options.len().is_multiple_of(4) && seg.options.len() <= MAX_OPTIONS);
    let hdr = (TCP_LEN + seg.options.len()) as u32;
    let l4_len = hdr + seg.payload;
    eth_ipv4(out, ip, PROTO_TCP, l4_len);
    let start = out.len();
    out.extend_from_slice(&ip.src.port.to_be_bytes());
    out.extend_from_slice(&ip.dst.port.to_be_bytes());
    out.extend_from_slice(&seg.seq.to_be_bytes());
    out.extend_from_slice(&seg.ack.to_be_bytes());
    out.extend_from_slice(&[((hdr / 4) as u8) << 4, seg.flags]);
    out.extend_from_slice(&seg.window.to_be_bytes());
    out.extend_from_slice(&[0, 0, 0, 0]);
    out.extend_from_slice(seg.options);
    let c = fold(sum16(pseudo(ip, PROTO_TCP, l4_len), &out[start..]));
    out[start + 16..start + 18].copy_from_slice(&c.to_be_bytes());
    ETH_LEN as u32 + IPV4_LEN as u32 + l4_len
}

/// Appends the frame's headers (Ethernet, IPv4, UDP) for `payload` bytes of data; returns the whole
/// frame's length.
pub fn udp_frame(out: &mut Vec<u8>, ip: &Ip, payload: u32) -> u32 {
    let l4_len = UDP_LEN as u32 + payload;
    eth_ipv4(out, ip, PROTO_UDP, l4_len);
    let start = out.len();
    out.extend_from_slice(&ip.src.port.to_be_bytes());
    out.extend_from_slice(&ip.dst.port.to_be_bytes());
    out.extend_from_slice(&len16(l4_len).to_be_bytes());
    out.extend_from_slice(&[0, 0]);
    // A computed 0 is sent as 0xffff (RFC 768): 0 means "no checksum".
    let c = match fold(sum16(pseudo(ip, PROTO_UDP, l4_len), &out[start..])) {
        0 => 0xffff,
        c => c,
    };
    out[start + 6..start + 8].copy_from_slice(&c.to_be_bytes());
    ETH_LEN as u32 + IPV4_LEN as u32 + l4_len
}

/// The options of a SYN or SYN-ACK: MSS, SACK permitted (when `sack`), window scale; Linux's order
/// without timestamps, padded with NOPs. Returns the buffer and how many of its bytes are used.
pub fn syn_options(mss: u16, sack: bool) -> ([u8; MAX_OPTIONS], usize) {
    let mut o = [0u8; MAX_OPTIONS];
    let m = mss.to_be_bytes();
    o[..4].copy_from_slice(&[2, 4, m[0], m[1]]);
    let mut n = 4;
    if sack {
        o[n..n + 4].copy_from_slice(&[1, 1, 4, 2]);
        n += 4;
    }
    o[n..n + 4].copy_from_slice(&[1, 3, 3, WINDOW_SHIFT]);
    (o, n + 4)
}

/// The SACK option (two NOPs, kind 5) for blocks given as [left, right) sequence numbers, at most three.
pub fn sack_option(blocks: &[(u32, u32)]) -> ([u8; MAX_OPTIONS], usize) {
    let mut o = [0u8; MAX_OPTIONS];
    let blocks = &blocks[..blocks.len().min(3)];
    if blocks.is_empty() {
        return (o, 0);
    }
    o[..4].copy_from_slice(&[1, 1, 5, 2 + 8 * blocks.len() as u8]);
    for (i, (l, r)) in blocks.iter().enumerate() {
        o[4 + 8 * i..8 + 8 * i].copy_from_slice(&l.to_be_bytes());
        o[8 + 8 * i..12 + 8 * i].copy_from_slice(&r.to_be_bytes());
    }
    (o, 4 + 8 * blocks.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip() -> Ip {
        Ip {
            src_mac: node_mac(0),
            dst_mac: node_mac(2),
            src: End::node(0, 10000),
            dst: End::node(2, 5001),
            ttl: 64,
        }
    }

    /// The checksum over a header, its stored checksum included, is 0 when the stored one is right.
    fn verifies(acc: u32, bytes: &[u8]) -> bool {
        fold(sum16(acc, bytes)) == 0
    }

    #[test]
    fn addresses_by_node_number() {
        assert_eq!(node_ip(0), [10, 0, 0, 1]);
        assert_eq!(node_ip(255), [10, 0, 1, 0]);
        assert_eq!(node_mac(1), [2, 0, 10, 0, 0, 2]);
    }

    #[test]
    fn data_segment_byte_layout() {
        let mut out = Vec::new();
        let seg = Tcp { seq: 1 + 960 * 3, ack: 1, flags: ACK, window: 5859, options: &[], payload: 960 };
        let len = tcp_frame(&mut out, &ip(), &seg);
        assert_eq!(len, 14 + 1000);
        #[rustfmt::skip]
        let expect: Vec<u8> = vec![
            // Ethernet: destination (node 2), source (node 0), IPv4.
            2, 0, 10, 0, 0, 3,   2, 0, 10, 0, 0, 1,   0x08, 0x00,
            // IPv4: version 4, 20 bytes; total length 1000; id 0, DF; TTL 64, TCP; checksum; addresses.
            0x45, 0, 0x03, 0xe8,   0, 0, 0x40, 0,   64, 6, 0x00, 0x00,   10, 0, 0, 1,   10, 0, 0, 3,
            // TCP: ports 10000 -> 5001; seq 2881; ack 1; 20-byte header, ACK; window; checksum; urgent.
            0x27, 0x10, 0x13, 0x89,   0, 0, 0x0b, 0x41,   0, 0, 0, 1,   0x50, 0x10, 0x16, 0xe3,   0, 0, 0, 0,
        ];
        assert_eq!(out.len(), expect.len());
        // Everything but the two checksums, which are checked by verifying them.
        let mut masked = out.clone();
        masked[24..26].copy_from_slice(&[0, 0]);
        masked[50..52].copy_from_slice(&[0, 0]);
        assert_eq!(masked, expect);
        assert!(verifies(0, &out[14..34]));
        assert!(verifies(pseudo(&ip(), 6, 980), &out[34..]));
        // The IPv4 checksum by hand: sum of the header's words with the checksum field zero.
        let words = [0x4500u32, 0x03e8, 0, 0x4000, 0x4006, 0, 0x0a00, 0x0001, 0x0a00, 0x0003];
        assert_eq!(u16::from_be_bytes([out[24], out[25]]), fold(words.iter().sum()));
    }

    #[test]
    fn sack_ack_byte_layout() {
        let (opt, n) = sack_option(&[(4801, 5761), (2881, 3841)]);
        let mut out = Vec::new();
        let rev = Ip { src_mac: node_mac(2), dst_mac: node_mac(0), src: ip().dst, dst: ip().src, ttl: 62 };
        let seg = Tcp { seq: 1, ack: 1921, flags: ACK, window: 5859, options: &opt[..n], payload: 0 };
        let len = tcp_frame(&mut out, &rev, &seg);
        // 20 bytes of IPv4, 20 of TCP, 4 + 2 x 8 of options.
        assert_eq!(len, 14 + 20 + 20 + 20);
        assert_eq!(&out[16..18], &60u16.to_be_bytes());
        assert_eq!(out[22], 62);
        let tcp = &out[34..];
        assert_eq!(&tcp[..4], &[0x13, 0x89, 0x27, 0x10]);
        assert_eq!(&tcp[4..8], &1u32.to_be_bytes());
        assert_eq!(&tcp[8..12], &1921u32.to_be_bytes());
        // Data offset 10 words (40 bytes), ACK.
        assert_eq!(&tcp[12..14], &[0xa0, 0x10]);
        #[rustfmt::skip]
        let options: [u8; 20] = [
            1, 1, 5, 18,
            0, 0, 0x12, 0xc1,   0, 0, 0x16, 0x81,
            0, 0, 0x0b, 0x41,   0, 0, 0x0f, 0x01,
        ];
        assert_eq!(&tcp[20..], &options);
        assert!(verifies(0, &out[14..34]));
        assert!(verifies(pseudo(&rev, 6, 40), tcp));
    }

    #[test]
    fn syn_options_are_padded_to_words() {
        let (o, n) = syn_options(1460, true);
        assert_eq!(&o[..n], &[2, 4, 0x05, 0xb4, 1, 1, 4, 2, 1, 3, 3, 14]);
        let (o, n) = syn_options(960, false);
        assert_eq!(&o[..n], &[2, 4, 0x03, 0xc0, 1, 3, 3, 14]);
    }

    #[test]
    fn udp_datagram_and_oversized_lengths() {
        let mut out = Vec::new();
        assert_eq!(udp_frame(&mut out, &ip(), 972), 14 + 1000);
        assert_eq!(&out[16..18], &1000u16.to_be_bytes());
        assert_eq!(out[23], 17);
        assert_eq!(&out[38..40], &980u16.to_be_bytes());
        assert!(verifies(0, &out[14..34]));
        assert!(verifies(pseudo(&ip(), 17, 980), &out[34..]));
        // Beyond IPv4's 65 535 bytes the length fields are 0 and the frame length tells the size.
        let mut big = Vec::new();
        let seg = Tcp { seq: 1, ack: 1, flags: ACK, window: 1, options: &[], payload: 100_000 };
        assert_eq!(tcp_frame(&mut big, &ip(), &seg), 14 + 40 + 100_000);
        assert_eq!(&big[16..18], &[0, 0]);
    }
}
