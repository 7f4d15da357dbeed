package io.trigrep.frontend.http;

import io.trigrep.backend.TestShards;
import io.trigrep.backend.server.BackendConfig;
import io.trigrep.backend.server.BackendServer;
import io.trigrep.frontend.fanout.FanOut;
import io.trigrep.indexer.format.Shard;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What the HTTP tests talk to: a corpus indexed into shards, a real backend per shard and the
 * frontend fanning out to them, all on loopback ports the system picks. Closing stops them all.
 */
public final class LoopbackCluster implements AutoCloseable {
    final List<BackendServer> backends = new ArrayList<>();
    /** Where the backends listen, in shard order. */
    final List<InetSocketAddress> addresses = new ArrayList<>();

    public final FanOut fanOut;
    final FrontendServer frontend;
    /** The frontend's root URL, {@code http://127.0.0.1:PORT}. */
    final String base;

    public LoopbackCluster(Path corpus, Path dir, int shards) throws Exception {
        this(corpus, dir, io.trigrep.indexer.build.IndexBuilder.Options.defaults(shards));
    }

    /** The same, indexed with {@code options} (with symbols, say). */
    LoopbackCluster(Path corpus, Path dir, io.trigrep.indexer.build.IndexBuilder.Options options) throws Exception {
        for (Shard shard : TestShards.build(corpus, dir.resolve("shards"), options)) {
            BackendServer server = new BackendServer(shard, BackendConfig.defaults());
            backends.add(server);
            addresses.add(server.start("127.0.0.1", 0));
        }
        fanOut = new FanOut(addresses, dir.resolve("data"), 2);
        frontend = new FrontendServer(fanOut, 8);
        base = "http://127.0.0.1:" + frontend.start("127.0.0.1", 0).getPort();
    }

    @Override
    public void close() {
        frontend.close();
        fanOut.close();
        backends.forEach(BackendServer::close);
    }
}
