package io.trigrep.frontend.fanout;

import io.trigrep.proto.BackendClient;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The shards a frontend searches and the replicas serving each, as {@code --backends} gives them:
 * shards separated by {@code ,} (one argument each here), the replicas of one shard by {@code |}
 * ({@code h1:7001|h2:7001,h3:7001|h4:7001}). A host name that resolves to several addresses is
 * that many replicas, as a headless service's name is; each keeps the name, which TLS checks.
 */
public record Topology(List<List<InetSocketAddress>> shards) {
    public Topology {
        if (shards.isEmpty()) {
            throw new IllegalArgumentException("at least one backend is needed");
        }
        List<List<InetSocketAddress>> copy = new ArrayList<>();
        for (List<InetSocketAddress> replicas : shards) {
            if (replicas.isEmpty()) {
                throw new IllegalArgumentException("shard " + copy.size() + " has no replica");
            }
            copy.add(List.copyOf(replicas));
        }
        shards = List.copyOf(copy);
    }

    /** One replica per shard, as a list of backends always meant. */
    public static Topology ofBackends(List<InetSocketAddress> backends) {
        List<List<InetSocketAddress>> shards = new ArrayList<>();
        for (InetSocketAddress b : backends) {
            shards.add(List.of(b));
        }
        return new Topology(shards);
    }

    /** Parses one entry per shard, each {@code host:port} or replicas {@code host:port|host:port}. */
    public static Topology parse(List<String> shardSpecs) {
        List<List<InetSocketAddress>> shards = new ArrayList<>();
        for (String spec : shardSpecs) {
            Set<InetSocketAddress> replicas = new LinkedHashSet<>();
            for (String hostPort : spec.split("\\|", -1)) {
                String trimmed = hostPort.trim();
                if (trimmed.isEmpty()) {
                    throw new IllegalArgumentException("an empty replica in shard '" + spec + "'");
                }
                replicas.addAll(resolve(trimmed));
            }
            shards.add(List.copyOf(replicas));
        }
        return new Topology(shards);
    }

    /**
     * The replicas {@code host:port} stands for: one per address its name resolves to, or one
     * unresolved (connecting fails until it resolves) when it resolves to none yet.
     */
    static List<InetSocketAddress> resolve(String hostPort) {
        InetSocketAddress one = BackendClient.address(hostPort);
        if (one.isUnresolved()) {
            return List.of(one);
        }
        String host = one.getHostString();
        InetAddress[] all;
        try {
            all = InetAddress.getAllByName(host);
        } catch (UnknownHostException e) {
            return List.of(one);
        }
        if (all.length <= 1) {
            return List.of(one);
        }
        List<InetSocketAddress> out = new ArrayList<>();
        for (InetAddress a : all) {
            try {
                out.add(new InetSocketAddress(InetAddress.getByAddress(host, a.getAddress()), one.getPort()));
            } catch (UnknownHostException e) {
                throw new IllegalStateException("an address of " + host + " of bad length", e);
            }
        }
        return out;
    }

    /**
     * Whether {@code replica} is one of several addresses its name resolved to: such a replica is
     * that address, while any other is its name, looked up again when it stops answering.
     */
    boolean expanded(InetSocketAddress replica) {
        int same = 0;
        for (InetSocketAddress r : all()) {
            if (r.getHostString().equals(replica.getHostString()) && r.getPort() == replica.getPort()) {
                same++;
            }
        }
        return same > 1;
    }

    /** Every replica of every shard, shard by shard. */
    public List<InetSocketAddress> all() {
        List<InetSocketAddress> out = new ArrayList<>();
        shards.forEach(out::addAll);
        return out;
    }
}
