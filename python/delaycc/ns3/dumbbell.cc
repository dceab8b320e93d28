// The dumbbell of delaycc.ns3 in ns-3 (compiled by cppyy inside the ns3 wheel; see worker.py).
// Senders s_i -- r1 (access), r1 -- r2 (bottleneck), r2 -- d (access); one receiver node d.
// Every sender is a node of its own, so each can have its own TcpL4Protocol::SocketType.
// Sampled every `sample` seconds: the bottleneck's queue (packets), each flow's cwnd and latest
// RTT sample (LastRTT); counted: the queue's drops, each flow's entries into CA_LOSS (timeouts).
#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/internet-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"
#include "ns3/traffic-control-module.h"

#include <sstream>
#include <string>
#include <vector>

namespace dcc_ns3
{
using namespace ns3;

struct FlowState
{
    double cwnd_pkts = 0;
    double last_rtt_s = -1;
    double rtt_sum = 0;
    double cwnd_sum = 0;
    uint64_t rtt_n = 0;
    uint64_t cwnd_n = 0;
    uint32_t timeouts = 0;
    uint32_t seg = 1;
    double start = 0;
};

static std::vector<FlowState> g_flows;
static uint64_t g_tc_drops = 0;

// With no queue disc, a packet that finds the device queue full (stopped) is dropped by the
// traffic control layer, before the device queue sees it: both counts are the bottleneck's drops.
static void
OnTcDrop(Ptr<const Packet>)
{
    g_tc_drops++;
}
static double g_queue_sum = 0;
static uint64_t g_queue_n = 0;
static uint32_t g_max_queue = 0;

static void
OnCwnd(uint32_t i, uint32_t, uint32_t now)
{
    g_flows[i].cwnd_pkts = double(now) / g_flows[i].seg;
}

static void
OnLastRtt(uint32_t i, Time, Time now)
{
    g_flows[i].last_rtt_s = now.GetSeconds();
}

static void
OnCongState(uint32_t i, TcpSocketState::TcpCongState_t, TcpSocketState::TcpCongState_t now)
{
    if (now == TcpSocketState::CA_LOSS)
    {
        g_flows[i].timeouts++;
    }
}

static void
Hook(uint32_t i, uint32_t nodeId)
{
    std::ostringstream p;
    p << "/NodeList/" << nodeId << "/$ns3::TcpL4Protocol/SocketList/0/";
    Config::ConnectWithoutContext(p.str() + "CongestionWindow", MakeBoundCallback(&OnCwnd, i));
    Config::ConnectWithoutContext(p.str() + "LastRTT", MakeBoundCallback(&OnLastRtt, i));
    Config::ConnectWithoutContext(p.str() + "CongState", MakeBoundCallback(&OnCongState, i));
}

static void
Sample(Ptr<Queue<Packet>> q, double every, double end)
{
    double t = Simulator::Now().GetSeconds();
    uint32_t n = q->GetNPackets();
    g_queue_sum += n;
    g_queue_n++;
    g_max_queue = std::max(g_max_queue, n);
    for (auto& f : g_flows)
    {
        if (t > f.start && f.last_rtt_s > 0)
        {
            f.rtt_sum += f.last_rtt_s;
            f.rtt_n++;
        }
        if (t > f.start)
        {
            f.cwnd_sum += f.cwnd_pkts;
            f.cwnd_n++;
        }
    }
    if (t + every <= end + 1e-9)
    {
        Simulator::Schedule(Seconds(every), &Sample, q, every, end);
    }
}

// algs: one ns-3 TypeId name per flow ("ns3::TcpLedbat", ...); starts in seconds.
// Returns one line per flow "flow i goodput_bps mean_rtt_s mean_cwnd_pkts timeouts rx_bytes" and a
// line "link mean_queue_pkts max_queue_pkts drops".
std::string
RunDumbbell(std::vector<std::string> algs,
            std::vector<double> starts,
            double bwBps,
            double delayS,
            double accessBps,
            double accessDelayS,
            uint32_t bufferPkts,
            uint32_t segBytes,
            double duration,
            double sample,
            uint32_t initialCwnd,
            double minRtoS,
            double initialRtoS,
            double clockGranularityS,
            bool ledbatSlowStart,
            uint32_t seed)
{
    RngSeedManager::SetSeed(seed);
    g_flows.assign(algs.size(), FlowState());
    g_queue_sum = 0;
    g_queue_n = 0;
    g_max_queue = 0;

    Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(segBytes));
    Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(initialCwnd));
    Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(1));
    Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(1u << 27));
    Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(1u << 27));
    Config::SetDefault("ns3::TcpSocket::ConnTimeout", TimeValue(Seconds(initialRtoS)));
    Config::SetDefault("ns3::TcpSocketBase::Sack", BooleanValue(false));
    Config::SetDefault("ns3::TcpSocketBase::Timestamp", BooleanValue(true));
    Config::SetDefault("ns3::TcpSocketBase::WindowScaling", BooleanValue(true));
    Config::SetDefault("ns3::TcpSocketBase::LimitedTransmit", BooleanValue(true));
    Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(Seconds(minRtoS)));
    Config::SetDefault("ns3::TcpSocketBase::ClockGranularity", TimeValue(Seconds(clockGranularityS)));
    Config::SetDefault("ns3::RttEstimator::InitialEstimation", TimeValue(Seconds(initialRtoS)));
    Config::SetDefault("ns3::TcpL4Protocol::RecoveryType",
                       TypeIdValue(TypeId::LookupByName("ns3::TcpClassicRecovery")));
    // TcpLedbat's SlowStartType is private; its checker names the values "yes" and "no".
    Config::SetDefault("ns3::TcpLedbat::SSParam", StringValue(ledbatSlowStart ? "yes" : "no"));

    NodeContainer senders;
    senders.Create(algs.size());
    NodeContainer routers;
    routers.Create(2);
    Ptr<Node> dst = CreateObject<Node>();

    InternetStackHelper stack;
    stack.InstallAll();

    PointToPointHelper access;
    access.SetDeviceAttribute("DataRate", DataRateValue(DataRate(uint64_t(accessBps))));
    access.SetChannelAttribute("Delay", TimeValue(Seconds(accessDelayS)));
    access.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", StringValue("10000p"));
    PointToPointHelper neck;
    neck.SetDeviceAttribute("DataRate", DataRateValue(DataRate(uint64_t(bwBps))));
    neck.SetChannelAttribute("Delay", TimeValue(Seconds(delayS)));
    std::ostringstream qs;
    qs << bufferPkts << "p";
    neck.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", StringValue(qs.str()));

    Ipv4AddressHelper addr;
    TrafficControlHelper tch;
    NetDeviceContainer all;
    for (uint32_t i = 0; i < algs.size(); i++)
    {
        NetDeviceContainer d = access.Install(senders.Get(i), routers.Get(0));
        std::ostringstream net;
        net << "10.1." << i + 1 << ".0";
        addr.SetBase(net.str().c_str(), "255.255.255.0");
        addr.Assign(d);
        all.Add(d);
    }
    NetDeviceContainer nd = neck.Install(routers.Get(0), routers.Get(1));
    addr.SetBase("10.2.0.0", "255.255.255.0");
    addr.Assign(nd);
    all.Add(nd);
    NetDeviceContainer dd = access.Install(routers.Get(1), dst);
    addr.SetBase("10.3.0.0", "255.255.255.0");
    Ipv4InterfaceContainer dstIf = addr.Assign(dd);
    all.Add(dd);
    // No queue discipline anywhere: the device's DropTail queue is the only buffer, as in delaycc.
    for (uint32_t k = 0; k < all.GetN(); k++)
    {
        tch.Uninstall(all.Get(k));
    }
    Ipv4GlobalRoutingHelper::PopulateRoutingTables();

    Ptr<Queue<Packet>> q = DynamicCast<PointToPointNetDevice>(nd.Get(0))->GetQueue();
    g_tc_drops = 0;
    routers.Get(0)->GetObject<TrafficControlLayer>()->TraceConnectWithoutContext(
        "Drop",
        MakeCallback(&OnTcDrop));

    std::vector<Ptr<PacketSink>> sinks;
    for (uint32_t i = 0; i < algs.size(); i++)
    {
        g_flows[i].seg = segBytes;
        g_flows[i].start = starts[i];
        senders.Get(i)->GetObject<TcpL4Protocol>()->SetAttribute(
            "SocketType",
            TypeIdValue(TypeId::LookupByName(algs[i])));
        uint16_t port = 5000 + i;
        PacketSinkHelper sink("ns3::TcpSocketFactory",
                              InetSocketAddress(Ipv4Address::GetAny(), port));
        ApplicationContainer sa = sink.Install(dst);
        sa.Start(Seconds(0));
        sinks.push_back(DynamicCast<PacketSink>(sa.Get(0)));
        BulkSendHelper src("ns3::TcpSocketFactory", InetSocketAddress(dstIf.GetAddress(1), port));
        src.SetAttribute("MaxBytes", UintegerValue(0));
        src.SetAttribute("SendSize", UintegerValue(segBytes));
        ApplicationContainer ca = src.Install(senders.Get(i));
        ca.Start(Seconds(starts[i]));
        Simulator::Schedule(Seconds(starts[i]) + NanoSeconds(1), &Hook, i, senders.Get(i)->GetId());
    }
    Simulator::Schedule(Seconds(sample), &Sample, q, sample, duration);
    Simulator::Stop(Seconds(duration));
    Simulator::Run();

    std::ostringstream out;
    out.precision(10);
    for (uint32_t i = 0; i < algs.size(); i++)
    {
        const FlowState& f = g_flows[i];
        uint64_t rx = sinks[i]->GetTotalRx();
        double active = duration - f.start;
        out << "flow " << i << " " << (active > 0 ? rx * 8.0 / active : 0.0) << " "
            << (f.rtt_n ? f.rtt_sum / f.rtt_n : -1.0) << " "
            << (f.cwnd_n ? f.cwnd_sum / f.cwnd_n : -1.0) << " " << f.timeouts << " " << rx << "\n";
    }
    out << "link " << (g_queue_n ? g_queue_sum / g_queue_n : 0.0) << " " << g_max_queue << " "
        << q->GetTotalDroppedPackets() + g_tc_drops << "\n";
    Simulator::Destroy();
    return out.str();
}
} // namespace dcc_ns3
